//! Parsing and validating the inputs: path params, query string, JSON body; header and cookie
//! params ([`request_params`]); and, in [`upload`], the bodies that are not JSON.

mod request_params;
mod upload;

use std::borrow::Cow;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::HeaderMap;

use serde::Deserializer;

use crate::body::Body;
use crate::contract::Slot;
use crate::de::collect::{self, Node};
use crate::de::flat_query;
use crate::de::from_text::TextMap;
use crate::de::json_as_schema::Json;
use crate::error::{Detail, Error, HttpError, Rejection};
pub(crate) use crate::request::BodyRead;
pub(crate) use request_params::{cookie_params, header_params};
pub(crate) use upload::{BodyFuture, BodyInput};
use crate::request::{start_bytes, RawParams};
use crate::validation::{detail_from_serde, details_from_rules};

/// Checks `value`'s rules: 400 `Validation failed` with one detail per failed rule.
pub(crate) fn validated<T: Slot>(value: T) -> Result<T, Error> {
    match value.check() {
        Ok(()) => Ok(value),
        Err(errors) => Err(HttpError::validation(rule_details::<T>(&errors)).into()),
    }
}

/// The details of `T`'s failed rules, each field named as the request names it.
///
/// `validator` names a field as Rust spells it (`x_tenant_id`), the request as serde does
/// (`x-tenant-id`, `maxItems`): a top-level field the rules name that is not one of `T`'s
/// serde names is given the serde name that spells the same letters and digits (which every
/// `rename_all` case keeps). A nested field, or a rename to other letters, keeps its Rust
/// name. Error path only.
fn rule_details<T: Slot>(errors: &validator::ValidationErrors) -> Vec<Detail> {
    let mut details = details_from_rules(errors);
    let Some(names) = crate::de::field_names::struct_fields::<T>() else {
        return details;
    };
    let letters = |name: &str| -> String {
        name.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    for detail in &mut details {
        let Some(crate::error::PathSegment::Key(field)) = detail.path.first_mut() else {
            continue;
        };
        if names.contains(&field.as_str()) {
            continue;
        }
        let spelled = letters(field);
        if let Some(name) = names.iter().find(|name| letters(name) == spelled) {
            *field = (*name).to_owned();
        }
    }
    details.sort();
    details
}

fn shape_error(detail: Detail) -> Error {
    HttpError::validation(vec![detail]).into()
}

/// The 400 for a value that did not deserialise — the error path of every decoder: each
/// shape error [`collect::collect`] finds (`make` gives a fresh deserializer of the same input
/// for each reading), then the rules that failed on the fields that did parse (a rule on a
/// field that failed, or inside one, is left out: it was checked on a placeholder). Should
/// the collecting reading find nothing, serde's own first error is reported.
pub(crate) fn shape_errors<'de, T, D>(make: impl Fn() -> Option<D>, size: usize) -> Error
where
    T: Slot,
    D: Deserializer<'de>,
{
    let collected = collect::collect::<T, _>(&make, size);
    let mut details = collected.details;
    if details.is_empty() {
        details.push(match make().map(serde_path_to_error::deserialize::<_, T>) {
            Some(Err(e)) => detail_from_serde(e.path(), e.inner()),
            _ => Detail::new(Vec::new(), "the value does not fit its type"),
        });
    }
    if let Some(Err(errors)) = collected.value.as_ref().map(Slot::check) {
        let rules: Vec<Detail> = rule_details::<T>(&errors)
            .into_iter()
            .filter(|rule| {
                !details
                    .iter()
                    .any(|shape| rule.path.starts_with(&shape.path))
            })
            .collect();
        details.extend(rules);
    }
    HttpError::validation(details).into()
}

/// The query's `serde_qs` settings: brackets in keys may be percent-encoded (`tag%5B%5D=a`,
/// as browsers, `URLSearchParams`, axios and Python's `requests` send them); a field that is
/// not a list given twice (`?limit=5&limit=6`) is refused rather than silently read as the last.
const QUERY: serde_qs::Config = serde_qs::Config::new()
    .use_form_encoding(true)
    .duplicate_key_behavior(serde_qs::DuplicateKeyBehavior::Error);

/// Deserialises a query string with `serde_qs` (strings coerce to numbers and bools,
/// `a=1&a=2`, `a[]=1&a[]=2` and `a[0]=1&a[1]=2` are lists, brackets literal or
/// percent-encoded), then validates it.
pub(crate) fn query<Q: Slot>(raw: Option<&str>) -> Result<Q, Error> {
    if let Some(empty) = Q::absent() {
        return Ok(empty);
    }
    let raw = raw.unwrap_or_default();
    // The usual query, read straight from its pairs; anything else, and every refusal, by
    // serde_qs (`flat_query`).
    if let Some(pairs) = flat_query::split(raw) {
        if let Ok(value) = Q::deserialize(TextMap::<serde::de::value::Error, _, _>::new(&pairs)) {
            return validated(value);
        }
    }
    let raw = encoded_brackets_upper(raw);
    let raw = raw.as_bytes();
    let parse_error = |e| shape_error(query_parse_error(raw, e));
    let deserializer = serde_qs::Deserializer::with_config(QUERY, raw).map_err(parse_error)?;
    if let Ok(value) = Q::deserialize(deserializer) {
        return validated(value);
    }
    let reparse = || serde_qs::Deserializer::with_config(QUERY, raw).ok();
    Err(shape_errors::<Q, _>(reparse, raw.len()))
}

/// A query `serde_qs` cannot read as a tree, as a detail: the key whose pair it stopped at as
/// the path (`?tag=a&tag[]=b` gives one key as a value and as a list), with what is wrong in
/// words; an error with no position keeps `serde_qs`'s message and an empty path.
fn query_parse_error(raw: &[u8], error: serde_qs::Error) -> Detail {
    let serde_qs::Error::Parse(message, position) = &error else {
        return Detail::new(Vec::new(), error.to_string());
    };
    let before = &raw[..(*position).min(raw.len())];
    let start = before.iter().rposition(|&b| b == b'&').map_or(0, |at| at + 1);
    let pair = raw[start..].split(|&b| b == b'&').next().unwrap_or_default();
    let key = String::from_utf8_lossy(pair.split(|&b| b == b'=').next().unwrap_or_default());
    let key = key.replace('+', " ");
    let key = percent_encoding::percent_decode_str(&key).decode_utf8_lossy();
    let name = key.split('[').next().unwrap_or_default();
    if name.is_empty() {
        return Detail::new(Vec::new(), error.to_string());
    }
    let said = if message.contains("the same key is used for both")
        || message.contains("appears in the input as both")
        || message.contains("cannot mix")
    {
        "is given in two forms (as a value, a list `[]`, an indexed list `[0]` or a map `[key]`): \
         send one"
            .to_owned()
    } else {
        message.clone()
    };
    Detail::new(vec![name.into()], said)
}

/// `serde_qs` reads `%5B`/`%5D` in keys as brackets; `%5b`/`%5d` mean the same.
fn encoded_brackets_upper(raw: &str) -> Cow<'_, str> {
    // One byte search on the usual path: most queries hold no `%` at all.
    if !raw.contains('%') || !(raw.contains("%5b") || raw.contains("%5d")) {
        return Cow::Borrowed(raw);
    }
    Cow::Owned(raw.replace("%5b", "%5B").replace("%5d", "%5D"))
}

/// Deserialises the percent-decoded path params, once, from their text (numbers and bools
/// parse from it, as in the query), then validates them. A param refused by routing (not
/// UTF-8, a dot segment in a catch-all) is a 400 with its name as the path.
pub(crate) fn params<P: Slot>(raw: &RawParams) -> Result<P, Error> {
    if let Some(empty) = P::absent() {
        return Ok(empty);
    }
    if let Some(refused) = &raw.refused {
        return Err(shape_error(Detail::clone(refused)));
    }
    let text = || TextMap::<serde::de::value::Error, _, _>::new(&raw.pairs);
    if let Ok(value) = P::deserialize(text()) {
        return validated(value);
    }
    Err(shape_errors::<P, _>(|| Some(text()), raw.pairs.len()))
}

/// Starts reading a JSON body, after the checks that need no byte of it: the
/// `Content-Type` (415) and a `Content-Length` over the limit (413). [`json_body`] finishes.
pub(crate) fn start_body(
    head: &mut http::request::Parts,
    body: Body,
    limit: usize,
) -> Result<BodyRead, Error> {
    if !is_json(&head.headers) {
        return Err(Rejection::UnsupportedMediaType.error().into());
    }
    start_bytes(head, body, limit)
}

/// The body [`start_body`] read, parsed, with the bytes it was parsed from: 413 past the
/// limit, 400 `Invalid JSON`, 400 `Validation failed` for its shape and rules.
pub(crate) fn json_body<B: Slot>(read: Result<Bytes, Error>) -> Result<(B, Bytes), Error> {
    let bytes = read?;
    json(&bytes).map(|body| (body, bytes))
}

/// Parses and validates a JSON document, read as its schema describes it ([`Json`]).
pub(crate) fn json<B: Slot>(bytes: &[u8]) -> Result<B, Error> {
    // JSON is UTF-8 (RFC 8259): checked whole, since serde_json does not look inside the
    // strings it skips (an unknown field's value).
    let text = std::str::from_utf8(bytes).map_err(|e| invalid_json(format!("not UTF-8: {e}")))?;
    // The happy path reads the text straight into the type; only a failure builds a tree.
    let mut deserializer = serde_json::Deserializer::from_str(text);
    if let Ok(value) = B::deserialize(Json(&mut deserializer)) {
        if deserializer.end().is_ok() {
            return validated(value);
        }
    }
    // Syntax first: only a well-formed document has shape errors.
    let tree = Node::parse(text).map_err(invalid_json)?;
    Err(shape_errors::<B, _>(|| Some(Json(&tree)), bytes.len()))
}

/// 400 `Invalid JSON`, with one detail: the parser's message.
fn invalid_json(error: impl std::fmt::Display) -> Error {
    Rejection::InvalidJson
        .error()
        .with_details(vec![Detail::new(Vec::new(), error.to_string())])
        .into()
}

/// `application/json` or any `+json` type, parameters allowed, case-insensitive.
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE) else {
        return false;
    };
    // What nearly every client sends, answered with one comparison.
    if value.as_bytes().eq_ignore_ascii_case(b"application/json") {
        return true;
    }
    let Ok(value) = value.to_str() else {
        return false;
    };
    // `trim_ascii`: a header value is visible ASCII, spaces and tabs (`to_str`).
    let essence = value.split(';').next().unwrap_or_default().trim_ascii();
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
    use http::header::CONTENT_LENGTH;
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

    #[derive(Debug, Serialize, Deserialize, Validate)]
    #[serde(rename_all = "camelCase")]
    struct Page {
        #[validate(range(max = 100))]
        max_items: u32,
    }

    #[test]
    fn a_broken_rule_is_named_as_serde_names_the_field() {
        for error in [query::<Page>(Some("maxItems=500")).unwrap_err(), json::<Page>(br#"{"maxItems": 500}"#).unwrap_err()] {
            let details = error.to_body().details;
            assert_eq!(details.len(), 1, "{details:?}");
            assert_eq!(details[0].path, [crate::error::PathSegment::Key("maxItems".into())]);
        }
    }

    #[test]
    fn json_content_types() {
        assert!(is_json(&headers("application/json")));
        assert!(is_json(&headers("Application/JSON; charset=utf-8")));
        assert!(is_json(&headers("APPLICATION/JSON")));
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

    async fn body<B: Slot>(headers: &HeaderMap, body: Body, limit: usize) -> Result<B, Error> {
        let (mut head, ()) = http::Request::new(()).into_parts();
        head.headers = headers.clone();
        json_body(start_body(&mut head, body, limit)?.await).map(|(body, _)| body)
    }

    /// A body that must not be read, of a known size or not.
    struct Unread(Option<u64>);

    impl http_body::Body for Unread {
        type Data = bytes::Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
            panic!("the body was read")
        }

        fn size_hint(&self) -> http_body::SizeHint {
            self.0.map_or_else(
                http_body::SizeHint::default,
                http_body::SizeHint::with_exact,
            )
        }
    }

    #[tokio::test]
    async fn limit_applies_before_and_while_reading() {
        // A declared length over the limit: 413 before a byte is read. The body's own exact
        // size is its declared length (hyper's bodies: the `Content-Length` they are framed
        // by); a body that does not know its size is judged by the header.
        let mut h = headers("application/json");
        h.insert(CONTENT_LENGTH, HeaderValue::from_static("50000000"));
        let err = body::<Item>(&h, Body::new(Unread(None)), 1024)
            .await
            .unwrap_err();
        assert_eq!(err.status(), 413);
        let h = headers("application/json");
        let err = body::<Item>(&h, Body::new(Unread(Some(2048))), 1024)
            .await
            .unwrap_err();
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
        let raw = RawParams {
            pairs: [
                ("id".into(), "7".into()),
                ("name".into(), "a b&c=d/é".into()),
            ]
            .into_iter()
            .collect(),
            refused: None,
        };
        assert_eq!(
            params::<Path>(&raw).unwrap(),
            Path {
                id: 7,
                name: "a b&c=d/é".into()
            }
        );
        let raw = RawParams {
            pairs: [("id".into(), "abc".into()), ("name".into(), "x".into())]
                .into_iter()
                .collect(),
            refused: None,
        };
        let body = params::<Path>(&raw).unwrap_err().to_body();
        assert_eq!(body.details[0].path, vec!["id".into()]);
    }
}
