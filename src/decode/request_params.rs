//! Header and cookie params: the names a contract declares, looked up in the request's
//! headers and read as text, as path params are (strings coerced to numbers and bools).

use std::borrow::Cow;

use http::header::COOKIE;
use http::HeaderMap;

use super::{shape_error, shape_errors, validated};
use crate::contract::Slot;
use crate::de::from_text::TextMap;
use crate::error::{Detail, Error};

/// The header params `H` from `headers`: each of `names` (lowercase, as `http` keeps header
/// names) looked up, a header sent twice read as its values joined by `, ` (RFC 9110 §5.3).
/// 400 `Validation failed` when one is missing, does not parse, breaks a rule, or is not
/// visible ASCII text.
pub(crate) fn header_params<H: Slot>(
    headers: &HeaderMap,
    names: &'static [&'static str],
) -> Result<H, Error> {
    if let Some(empty) = H::absent() {
        return Ok(empty);
    }
    let mut pairs: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(names.len());
    for &name in names {
        let mut values = headers.get_all(name).iter();
        let Some(first) = values.next() else {
            continue;
        };
        let mut value = Cow::Borrowed(first.to_str().map_err(|_| not_text(name))?);
        for more in values {
            let more = more.to_str().map_err(|_| not_text(name))?;
            let joined = value.to_mut();
            joined.push_str(", ");
            joined.push_str(more);
        }
        pairs.push((name, value));
    }
    from_pairs(&pairs)
}

/// The cookie params `C` from the request's `Cookie` headers (HTTP/2 sends one per cookie):
/// each of `names` taken from its first `name=value` pair, a quoted value without its quotes,
/// nothing percent-decoded (RFC 6265 §4.2.1). 400 `Validation failed` when one is missing,
/// does not parse or breaks a rule. A `Cookie` header that is not text is skipped.
pub(crate) fn cookie_params<C: Slot>(
    headers: &HeaderMap,
    names: &'static [&'static str],
) -> Result<C, Error> {
    if let Some(empty) = C::absent() {
        return Ok(empty);
    }
    let mut pairs: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(names.len());
    let cookies = headers.get_all(COOKIE).iter().filter_map(|v| v.to_str().ok());
    for pair in cookies.flat_map(|header| header.split(';')) {
        let Some((name, value)) = pair.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let Some(&declared) = names.iter().find(|declared| **declared == name) else {
            continue;
        };
        if pairs.iter().any(|(taken, _)| *taken == declared) {
            continue;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|inner| inner.strip_suffix('"'))
            .unwrap_or(value);
        pairs.push((declared, Cow::Borrowed(value)));
    }
    from_pairs(&pairs)
}

/// `T` read from names and text values, then validated.
fn from_pairs<T: Slot>(pairs: &[(&str, Cow<'_, str>)]) -> Result<T, Error> {
    let text = || TextMap::<serde::de::value::Error, _, _>::new(pairs);
    if let Ok(value) = T::deserialize(text()) {
        return validated(value);
    }
    Err(shape_errors::<T, _>(|| Some(text()), pairs.len()))
}

/// The 400 for a header value with bytes outside visible ASCII.
fn not_text(name: &str) -> Error {
    shape_error(Detail::new(
        vec![name.into()],
        "must be visible ASCII text",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use serde::{Deserialize, Serialize};
    use validator::Validate;

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    #[serde(rename_all = "kebab-case")]
    struct Signed {
        #[validate(length(min = 2))]
        x_signature: String,
        x_attempt: Option<u32>,
    }

    const HEADERS: &[&str] = &["x-signature", "x-attempt"];

    fn details(error: &Error) -> Vec<(Vec<String>, String)> {
        let body = error.to_body();
        body.details
            .iter()
            .map(|d| (d.path.iter().map(|p| p.to_string()).collect(), d.message.clone()))
            .collect()
    }

    #[test]
    fn headers_are_read_typed_and_validated() {
        let mut headers = HeaderMap::new();
        headers.insert("X-Signature", HeaderValue::from_static("abc"));
        headers.insert("x-attempt", HeaderValue::from_static("3"));
        let signed: Signed = header_params(&headers, HEADERS).unwrap();
        assert_eq!(
            signed,
            Signed {
                x_signature: "abc".into(),
                x_attempt: Some(3)
            }
        );
        headers.remove("x-attempt");
        let signed: Signed = header_params(&headers, HEADERS).unwrap();
        assert_eq!(signed.x_attempt, None);
    }

    #[test]
    fn a_missing_short_or_mistyped_header_is_a_400_naming_it() {
        let error = header_params::<Signed>(&HeaderMap::new(), HEADERS).unwrap_err();
        assert_eq!(error.status(), 400);
        assert_eq!(details(&error)[0].0, ["x-signature"]);
        let mut headers = HeaderMap::new();
        headers.insert("x-signature", HeaderValue::from_static("a"));
        headers.insert("x-attempt", HeaderValue::from_static("many"));
        let found = details(&header_params::<Signed>(&headers, HEADERS).unwrap_err());
        let paths: Vec<_> = found.iter().map(|(path, _)| path.join(".")).collect();
        assert!(paths.contains(&"x-attempt".to_owned()), "{found:?}");
        assert!(paths.contains(&"x-signature".to_owned()), "{found:?}");
        headers.insert("x-signature", HeaderValue::from_bytes(b"caf\xe9").unwrap());
        let error = header_params::<Signed>(&headers, HEADERS).unwrap_err();
        assert_eq!(details(&error)[0], (vec!["x-signature".to_owned()], "must be visible ASCII text".to_owned()));
    }

    #[test]
    fn a_broken_rule_is_named_as_the_header() {
        let mut headers = HeaderMap::new();
        headers.insert("x-signature", HeaderValue::from_static("a"));
        let error = header_params::<Signed>(&headers, HEADERS).unwrap_err();
        assert_eq!(
            details(&error),
            [(vec!["x-signature".to_owned()], "length must be at least 2".to_owned())]
        );
        // A rule of a field that is missing ran on a placeholder: not reported.
        #[derive(Debug, Serialize, Deserialize, Validate)]
        #[serde(rename_all = "kebab-case")]
        struct Tenant {
            #[validate(range(min = 1))]
            x_tenant_id: u32,
        }
        let error = header_params::<Tenant>(&HeaderMap::new(), &["x-tenant-id"]).unwrap_err();
        assert_eq!(
            details(&error),
            [(vec!["x-tenant-id".to_owned()], "missing field `x-tenant-id`".to_owned())]
        );
    }

    #[test]
    fn a_repeated_header_is_its_values_joined() {
        let mut headers = HeaderMap::new();
        headers.append("x-signature", HeaderValue::from_static("ab"));
        headers.append("x-signature", HeaderValue::from_static("cd"));
        let signed: Signed = header_params(&headers, HEADERS).unwrap();
        assert_eq!(signed.x_signature, "ab, cd");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Session {
        session: String,
        theme: Option<String>,
        #[serde(rename = "Visits")]
        visits: Option<u32>,
    }

    const COOKIES: &[&str] = &["session", "theme", "Visits"];

    #[test]
    fn cookies_are_read_from_every_cookie_header_first_one_wins() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("other=1; session=\"s1\"; visits=9"));
        headers.append(COOKIE, HeaderValue::from_static("Visits=4; session=s2"));
        let session: Session = cookie_params(&headers, COOKIES).unwrap();
        assert_eq!(
            session,
            Session {
                session: "s1".into(),
                theme: None,
                visits: Some(4)
            }
        );
        let error = cookie_params::<Session>(&HeaderMap::new(), COOKIES).unwrap_err();
        assert_eq!(error.status(), 400);
        assert_eq!(details(&error)[0].0, ["session"]);
    }
}
