//! Parsing and validating the three inputs: path params, query string, JSON body.

use std::fmt::Write as _;

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::HeaderMap;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde::de::{DeserializeOwned, IgnoredAny};

use crate::body::Body;
use crate::contract::Slot;
use crate::error::{Detail, Error, HttpError};
use crate::json_shape::Json;
use crate::middleware::RawParams;
use crate::validation::{detail_from_serde, details_from_rules};

/// Checks `value`'s rules: 400 `Validation failed` with one detail per failed rule.
fn validated<T: Slot>(value: T) -> Result<T, Error> {
    match value.check() {
        Ok(()) => Ok(value),
        Err(errors) => Err(HttpError::validation(details_from_rules(&errors)).into()),
    }
}

fn shape_error(detail: Detail) -> Error {
    HttpError::validation(vec![detail]).into()
}

/// Deserialises a query string with `serde_qs` (strings coerce to numbers and bools,
/// `a=1&a=2` and `a[]=1&a[]=2` are lists), then validates it.
pub(crate) fn query<Q: Slot>(raw: Option<&str>) -> Result<Q, Error> {
    if let Some(empty) = Q::absent() {
        return Ok(empty);
    }
    let raw = raw.unwrap_or_default();
    from_query_string(raw).and_then(validated)
}

fn from_query_string<T: DeserializeOwned>(raw: &str) -> Result<T, Error> {
    let deserializer = serde_qs::Deserializer::with_config(serde_qs::Config::new(), raw.as_bytes())
        .map_err(|e| shape_error(Detail::new(Vec::new(), e.to_string())))?;
    // Deserialising is deterministic: the path of a failure is tracked only when there is one,
    // by doing it again (tracking costs as much as the rest on the happy path).
    if let Ok(value) = T::deserialize(deserializer) {
        return Ok(value);
    }
    let deserializer = serde_qs::Deserializer::with_config(serde_qs::Config::new(), raw.as_bytes())
        .map_err(|e| shape_error(Detail::new(Vec::new(), e.to_string())))?;
    serde_path_to_error::deserialize(deserializer)
        .map_err(|e| shape_error(detail_from_serde(e.path(), e.inner())))
}

/// Deserialises the percent-decoded path params (with the same coercion as the query),
/// then validates them.
pub(crate) fn params<P: Slot>(raw: &RawParams) -> Result<P, Error> {
    if let Some(empty) = P::absent() {
        return Ok(empty);
    }
    // Re-encoded as a query string so that params share the query's coercion rules.
    let mut encoded = String::new();
    for (name, value) in raw.iter() {
        if !encoded.is_empty() {
            encoded.push('&');
        }
        let _ = write!(
            encoded,
            "{}={}",
            name,
            utf8_percent_encode(value, NON_ALPHANUMERIC)
        );
    }
    from_query_string(&encoded).and_then(validated)
}

/// Reads and parses a JSON body: the `Content-Type` check (415), the size limit (413, before
/// reading when `Content-Length` says so), JSON syntax (400 `Invalid JSON`), shape and rules
/// (400 `Validation failed`).
pub(crate) async fn body<B: Slot>(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<B, Error> {
    if let Some(empty) = B::absent() {
        return Ok(empty);
    }
    if !is_json(headers) {
        return Err(HttpError::unsupported_media_type("Unsupported media type").into());
    }
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large());
    }
    let bytes = read_limited(body, limit).await?;
    json(&bytes)
}

fn too_large() -> Error {
    HttpError::payload_too_large("Payload too large").into()
}

async fn read_limited(body: Body, limit: usize) -> Result<Bytes, Error> {
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<LengthLimitError>() => Err(too_large()),
        Err(e) => Err(HttpError::bad_request("Failed to read request body")
            .with_source(e)
            .into()),
    }
}

/// Parses and validates a JSON document, read as its schema describes it ([`Json`]).
pub(crate) fn json<B: Slot>(bytes: &[u8]) -> Result<B, Error> {
    // The happy path without tracking paths; any failure is parsed again, with them.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    if let Ok(value) = B::deserialize(Json(&mut deserializer)) {
        if deserializer.end().is_ok() {
            return validated(value);
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, B>(Json(&mut deserializer)) {
        Ok(value) => match deserializer.end() {
            Ok(()) => validated(value),
            Err(trailing) => Err(invalid_json(&trailing)),
        },
        // serde stops at the first type mismatch, maybe before a syntax error further on:
        // only a well-formed document has shape errors.
        Err(e) if e.inner().is_data() => match serde_json::from_slice::<IgnoredAny>(bytes) {
            Ok(_) => Err(shape_error(detail_from_serde(e.path(), e.inner()))),
            Err(syntax) => Err(invalid_json(&syntax)),
        },
        Err(e) => Err(invalid_json(e.inner())),
    }
}

fn invalid_json(error: &serde_json::Error) -> Error {
    HttpError::bad_request("Invalid JSON")
        .with_details(vec![Detail::new(Vec::new(), error.to_string())])
        .into()
}

/// `application/json` or any `+json` type, parameters allowed, case-insensitive.
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case("json")
            || subtype.len() > 5
                && subtype.is_char_boundary(subtype.len() - 5)
                && subtype[subtype.len() - 5..].eq_ignore_ascii_case("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use serde::{Deserialize, Serialize};
    use validator::Validate;

    #[derive(Debug, Serialize, Deserialize, Validate, PartialEq)]
    struct Item {
        #[validate(range(min = 1, max = 99))]
        qty: u32,
    }

    fn headers(content_type: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        h
    }

    #[test]
    fn json_content_types() {
        assert!(is_json(&headers("application/json")));
        assert!(is_json(&headers("Application/JSON; charset=utf-8")));
        assert!(is_json(&headers("application/vnd.api+json")));
        assert!(!is_json(&headers("text/plain")));
        assert!(!is_json(&headers("application/jsonx")));
        assert!(!is_json(&headers("application/+json")));
        assert!(!is_json(&HeaderMap::new()));
    }

    #[test]
    fn json_errors_are_classified() {
        let err = json::<Item>(b"{").unwrap_err();
        assert_eq!(err.to_body().error, "Invalid JSON");
        let err = json::<Item>(b"").unwrap_err();
        assert_eq!(err.to_body().error, "Invalid JSON");
        let err = json::<Item>(br#"{"qty": 1} trailing"#).unwrap_err();
        assert_eq!(err.to_body().error, "Invalid JSON");
        let err = json::<Item>(b"[1, 2").unwrap_err();
        assert_eq!(err.to_body().error, "Invalid JSON");
        let err = json::<Item>(br#"{"qty": "x"}"#).unwrap_err();
        let body = err.to_body();
        assert_eq!(body.error, "Validation failed");
        assert_eq!(body.details[0].path, vec!["qty".into()]);
        let err = json::<Item>(br#"{"qty": 0}"#).unwrap_err();
        assert_eq!(err.to_body().details[0].message, "must be between 1 and 99");
        assert_eq!(json::<Item>(br#"{"qty": 5}"#).unwrap(), Item { qty: 5 });
    }

    #[tokio::test]
    async fn limit_applies_before_and_while_reading() {
        let mut h = headers("application/json");
        h.insert(CONTENT_LENGTH, HeaderValue::from_static("50000000"));
        let err = body::<Item>(&h, Body::from("{}"), 1024).await.unwrap_err();
        assert_eq!(err.status(), 413);
        let h = headers("application/json");
        let big = format!("{{\"qty\": 1, \"pad\": \"{}\"}}", "x".repeat(2048));
        let err = body::<Item>(&h, Body::from(big), 1024).await.unwrap_err();
        assert_eq!(err.status(), 413);
        let err = body::<Item>(&headers("text/plain"), Body::from("{}"), 1024)
            .await
            .unwrap_err();
        assert_eq!(err.status(), 415);
    }

    #[derive(Debug, Serialize, Deserialize, Validate, PartialEq)]
    struct Path {
        id: u64,
        name: String,
    }

    #[test]
    fn params_coerce_and_report_the_param() {
        let raw = RawParams(vec![
            ("id".into(), "7".into()),
            ("name".into(), "a b&c=d/é".into()),
        ]);
        assert_eq!(
            params::<Path>(&raw).unwrap(),
            Path {
                id: 7,
                name: "a b&c=d/é".into()
            }
        );
        let raw = RawParams(vec![
            ("id".into(), "abc".into()),
            ("name".into(), "x".into()),
        ]);
        let body = params::<Path>(&raw).unwrap_err().to_body();
        assert_eq!(body.details[0].path, vec!["id".into()]);
    }
}
