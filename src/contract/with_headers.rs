//! [`WithHeaders`]: a response value with typed headers.

use std::fmt;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::ValidationErrors;

use super::slot::{Declared, Format, Slot};
use crate::de::field_names::struct_fields;
use crate::de::from_text::TextMap;
use crate::error::{Detail, ErrorAnswer};

/// A JSON response value with typed response headers:
/// `.response::<WithHeaders<User, Created>>()`, for a `Location` on a 201, an `ETag`, an
/// `X-Total-Count`.
///
/// `H` is a struct whose fields are headers, each named as the header in lowercase
/// (`#[serde(rename_all = "kebab-case")]`), as for header params
/// ([`EndpointBuilder::headers`](crate::contract::EndpointBuilder::headers)): a string is sent
/// as it is, a number or a bool in text, a `None` not at all. The pipeline checks `H`'s rules
/// with the body's (a value that breaks them is a 500 `Response validation failed`, logged) and
/// sets the headers, in place of any the handler set under the same name through
/// `ctx.response`. The OpenAPI document lists them under the success answer's `headers`, and
/// the typed client reads them back into `H` (an answer without a required one is a decode
/// error).
///
/// A declared error takes headers the same way: `.errors::<WithHeaders<E, H>>()` (its
/// [`ErrorAnswer`] impl below: `Retry-After` on a 429).
///
/// ```
/// use pactum::contract::WithHeaders;
/// use pactum::{handler, route, Ctx, Endpoint};
/// # use serde::{Deserialize, Serialize}; use validator::Validate;
/// # #[derive(Serialize, Deserialize, Validate)] struct NewUser { name: String }
/// # #[derive(Serialize, Deserialize, Validate)] struct User { id: u64, name: String }
/// #[derive(Serialize, Deserialize, Validate)]
/// struct Created {
///     #[validate(length(min = 1))]
///     location: String,
/// }
///
/// let create = Endpoint::post(route!("/users"))
///     .body::<NewUser>()
///     .response::<WithHeaders<User, Created>>()
///     .build()?;
/// let h = handler(create, |ctx: Ctx<pactum::NoParams, pactum::NoQuery, NewUser>| async move {
///     let user = User { id: 7, name: ctx.body.name };
///     let location = format!("/users/{}", user.id);
///     Ok(WithHeaders::new(user, Created { location }))
/// });
/// let answer = h.respond(&WithHeaders::new(
///     User { id: 7, name: "Ada".into() },
///     Created { location: "/users/7".into() },
/// ))?;
/// assert_eq!(answer.status(), 201);
/// assert_eq!(answer.headers()["location"], "/users/7");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithHeaders<T, H> {
    /// The body, sent as JSON.
    pub body: T,
    /// The headers.
    pub headers: H,
}

impl<T, H> WithHeaders<T, H> {
    /// A body with its headers.
    pub fn new(body: T, headers: H) -> Self {
        Self { body, headers }
    }
}

/// As its body: the headers travel apart.
impl<T: Serialize, H> Serialize for WithHeaders<T, H> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.body.serialize(serializer)
    }
}

/// Never from JSON alone: the typed client reads a `WithHeaders` from an answer's body and
/// headers together.
impl<'de, T, H> Deserialize<'de> for WithHeaders<T, H> {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom(
            "a `WithHeaders` is read from an answer's body and headers, not from JSON alone",
        ))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Slot, H: Slot> Slot for WithHeaders<T, H> {
    type Presence = Declared;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        self.body.check()?;
        self.headers.check()
    }

    const FORMAT: Format = Format::Json;

    const ANSWER_HEADERS: bool = true;

    fn answer_headers(&self) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
        header_pairs(&self.headers)
    }

    fn read_json_answer(body: &[u8], headers: &HeaderMap) -> Option<Result<Self, Vec<Detail>>> {
        Some(read(body, headers))
    }
}

/// A declared error with typed headers: `.errors::<WithHeaders<Limited, RetryAfter>>()`, for a
/// `Retry-After` on a 429, a `WWW-Authenticate` on a 401, a `Location` on a 409.
///
/// Answered with `E`'s status and JSON and `H`'s headers, whose rules the pipeline checks (a
/// value that breaks them is a 500 `Response validation failed`, logged). The document lists
/// the headers under each of `E`'s statuses (a header only some statuses carry is an `Option`;
/// where the pipeline answers that status by itself too, none is required). The typed client
/// hands the error back typed, headers read and checked (an answer without a required one is
/// read as an undeclared error). The contract declares the pair: a handler returning a bare
/// `E` is answered 500, as any typed error its contract does not declare.
///
/// ```
/// use pactum::contract::WithHeaders;
/// use pactum::error::ErrorAnswer;
/// use pactum::http::StatusCode;
/// # use serde::{Deserialize, Serialize}; use validator::Validate;
/// #[derive(Debug, Serialize, Deserialize)]
/// struct Limited { error: String }
/// # impl std::fmt::Display for Limited {
/// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(&self.error) }
/// # }
/// # impl std::error::Error for Limited {}
/// pactum::error::error_answer!(Limited { _ => TOO_MANY_REQUESTS });
///
/// #[derive(Debug, Serialize, Deserialize, Validate)]
/// #[serde(rename_all = "kebab-case")]
/// struct RetryAfter {
///     #[validate(range(max = 3600))]
///     retry_after: u32,
/// }
///
/// let error = pactum::Error::declared(WithHeaders::new(
///     Limited { error: "Slow down".into() },
///     RetryAfter { retry_after: 30 },
/// ));
/// let answer = error.to_response();
/// assert_eq!(answer.status(), StatusCode::TOO_MANY_REQUESTS);
/// assert_eq!(answer.headers()["retry-after"], "30");
/// ```
#[diagnostic::do_not_recommend]
impl<E: ErrorAnswer, H: Slot + fmt::Debug> ErrorAnswer for WithHeaders<E, H> {
    const STATUSES: &'static [StatusCode] = E::STATUSES;

    fn status(&self) -> StatusCode {
        self.body.status()
    }

    fn error_headers(&self) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
        self.headers.check().map_err(|errors| errors.to_string())?;
        header_pairs(&self.headers)
    }

    fn read_error(body: &[u8], headers: &HeaderMap) -> Option<Self> {
        let body = E::read_error(body, headers)?;
        let headers = read_headers::<H>(headers).ok()?;
        headers.check().ok()?;
        Some(Self { body, headers })
    }

    fn note_declared() {
        crate::error::note_declared::<Self>();
        E::note_declared();
    }
}

/// As its body: the headers are not part of the message.
impl<T: fmt::Display, H> fmt::Display for WithHeaders<T, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.body.fmt(f)
    }
}

/// As its body's: a declared error with headers is its body's error.
impl<T: std::error::Error, H: fmt::Debug> std::error::Error for WithHeaders<T, H> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.body.source()
    }
}

/// The fields of a struct of headers as header names and values.
fn header_pairs<H: Serialize>(headers: &H) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
    text_fields(headers)?
        .into_iter()
        .map(|(name, text)| {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| format!("`{name}` is not a header name"))?;
            let value = HeaderValue::from_str(&text)
                .map_err(|_| format!("the value of `{name}` is not a header value"))?;
            Ok((name, value))
        })
        .collect()
}

/// The body as JSON, the headers by `H`'s field names; every problem a detail (a header's at
/// its name).
fn read<T: Slot, H: Slot>(
    body: &[u8],
    headers: &HeaderMap,
) -> Result<WithHeaders<T, H>, Vec<Detail>> {
    let body = serde_json::from_slice::<T>(body).map_err(|e| {
        let mut details = Detail::from_json::<T>(body);
        if details.is_empty() {
            details.push(Detail::new(Vec::new(), e.to_string()));
        }
        details
    })?;
    let headers = read_headers::<H>(headers)?;
    Ok(WithHeaders { body, headers })
}

/// `H` from the answer's headers named as its fields.
fn read_headers<H: Slot>(headers: &HeaderMap) -> Result<H, Vec<Detail>> {
    let names = struct_fields::<H>().unwrap_or_default();
    let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(names.len());
    for &name in names {
        if let Some(value) = headers.get(name) {
            let text = value
                .to_str()
                .map_err(|_| vec![Detail::new(vec![name.into()], "must be visible ASCII text")])?;
            pairs.push((name, text));
        }
    }
    H::deserialize(TextMap::<serde::de::value::Error, _, _>::new(&pairs))
        .map_err(|e| vec![Detail::new(Vec::new(), format!("headers: {e}"))])
}

/// The fields of a struct of headers (or cookies), as name and text: a string as it is, a
/// number or a bool written out, `null` left out; a list or an object cannot be one header.
///
/// # Errors
///
/// When the value is not a struct, or a field is a list or an object.
#[doc(hidden)]
pub fn text_fields<T: Serialize>(value: &T) -> Result<Vec<(String, String)>, String> {
    let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
    let Value::Object(map) = value else {
        return Err("a struct of headers must serialise to an object".to_owned());
    };
    let mut out = Vec::with_capacity(map.len());
    for (name, value) in map {
        let text = match value {
            Value::Null => continue,
            Value::String(text) => text,
            Value::Number(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            Value::Array(_) | Value::Object(_) => {
                return Err(format!(
                    "`{name}` is a list or an object: it must be a string, a number or a bool"
                ))
            }
        };
        out.push((name, text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use validator::Validate;

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Item {
        id: u64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    #[serde(rename_all = "kebab-case")]
    struct Paged {
        #[validate(range(max = 1000))]
        x_total_count: u64,
        etag: Option<String>,
    }

    type Answer = WithHeaders<Item, Paged>;

    #[test]
    fn headers_are_written_as_text_and_none_is_left_out() {
        let answer = Answer::new(
            Item { id: 1 },
            Paged {
                x_total_count: 3,
                etag: None,
            },
        );
        let headers = answer.answer_headers().unwrap();
        assert_eq!(
            headers,
            [(
                HeaderName::from_static("x-total-count"),
                HeaderValue::from_static("3")
            )]
        );
        assert_eq!(serde_json::to_string(&answer).unwrap(), r#"{"id":1}"#);
        let tagged = Answer::new(
            Item { id: 1 },
            Paged {
                x_total_count: 3,
                etag: Some("bad\nvalue".into()),
            },
        );
        assert!(tagged.answer_headers().unwrap_err().contains("etag"));
    }

    #[test]
    fn the_rules_of_both_are_checked() {
        let over = Answer::new(
            Item { id: 1 },
            Paged {
                x_total_count: 1001,
                etag: None,
            },
        );
        assert!(over.check().is_err());
    }

    #[test]
    fn an_answer_is_read_from_its_body_and_headers() {
        let mut headers = HeaderMap::new();
        headers.insert("x-total-count", HeaderValue::from_static("3"));
        headers.insert("etag", HeaderValue::from_static("\"v1\""));
        let read = Answer::read_json_answer(br#"{"id":1}"#, &headers)
            .unwrap()
            .unwrap();
        assert_eq!(read.body, Item { id: 1 });
        assert_eq!(read.headers.x_total_count, 3);
        assert_eq!(read.headers.etag.as_deref(), Some("\"v1\""));
        let missing = Answer::read_json_answer(br#"{"id":1}"#, &HeaderMap::new()).unwrap();
        let details = missing.unwrap_err();
        assert!(details[0].message.contains("x-total-count"), "{details:?}");
        let bad_body = Answer::read_json_answer(br#"{"id":"one"}"#, &headers).unwrap();
        assert_eq!(
            bad_body.unwrap_err()[0].path,
            [crate::error::PathSegment::from("id")]
        );
        // JSON alone is not enough.
        assert!(serde_json::from_str::<Answer>(r#"{"id":1}"#).is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Limited {
        error: String,
    }

    impl fmt::Display for Limited {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.error)
        }
    }

    impl std::error::Error for Limited {}

    crate::error::error_answer!(Limited { _ => TOO_MANY_REQUESTS });

    type Refused = WithHeaders<Limited, Paged>;

    fn refused(count: u64) -> Refused {
        let paged = Paged {
            x_total_count: count,
            etag: None,
        };
        WithHeaders::new(
            Limited {
                error: "Slow down".into(),
            },
            paged,
        )
    }

    #[test]
    fn a_declared_error_sets_its_checked_headers() {
        assert_eq!(Refused::STATUSES, [StatusCode::TOO_MANY_REQUESTS]);
        let answer = crate::Error::declared(refused(3));
        assert_eq!(answer.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(answer.to_string(), "Slow down");
        assert_eq!(answer.downcast_ref::<Refused>(), Some(&refused(3)));
        // Over its rule (`max = 1000`): not sent, a 500 instead.
        let over = crate::Error::declared(refused(1001));
        assert!(!over.is_declared());
        assert_eq!(
            over.rejection(),
            Some(crate::error::Rejection::ResponseValidationFailed)
        );
    }

    #[test]
    fn a_declared_error_is_read_with_its_headers() {
        let mut headers = HeaderMap::new();
        headers.insert("x-total-count", HeaderValue::from_static("3"));
        let body = br#"{"error":"Slow down"}"#;
        assert_eq!(Refused::read_error(body, &headers), Some(refused(3)));
        // A required header missing, or over its rule: not this error.
        assert_eq!(Refused::read_error(body, &HeaderMap::new()), None);
        headers.insert("x-total-count", HeaderValue::from_static("1001"));
        assert_eq!(Refused::read_error(body, &headers), None);
        // Nor is another body.
        headers.insert("x-total-count", HeaderValue::from_static("3"));
        assert_eq!(Refused::read_error(br#"{"code":1}"#, &headers), None);
    }
}
