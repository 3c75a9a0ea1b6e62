//! Header and cookie params as a call sends them: each field of the contract's type, by its
//! name, as text.

use http::header::{HeaderName, HeaderValue, COOKIE};
use http::HeaderMap;
use pactum::contract::Slot;

use crate::error::Error;

/// Sets each field of `params` as the header of its name (replacing one set by hand); `None`
/// fields are left out.
pub(crate) fn set_headers<H: Slot>(params: &H, headers: &mut HeaderMap) -> Result<(), Error> {
    for (name, text) in fields(params, "header params")? {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Error::builder(format!("`{name}` is not a header name")))?;
        let value = HeaderValue::from_str(&text).map_err(|_| {
            Error::builder(format!(
                "the value of header `{name}` is not a header value"
            ))
        })?;
        headers.insert(name, value);
    }
    Ok(())
}

/// Adds each field of `params` to the `Cookie` header as `name=value` (after a `Cookie` set
/// by hand); `None` fields are left out.
pub(crate) fn add_cookies<C: Slot>(params: &C, headers: &mut HeaderMap) -> Result<(), Error> {
    let mut cookies: Vec<String> = headers
        .get(COOKIE)
        .and_then(|value| value.to_str().ok())
        .map(|value| vec![value.to_owned()])
        .unwrap_or_default();
    for (name, text) in fields(params, "cookie params")? {
        // RFC 6265 §4.1.1: a cookie value is visible ASCII but `"`, `,`, `;` and `\`.
        if !text
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"\",;\\".contains(&b))
        {
            return Err(Error::builder(format!(
                "the value of cookie `{name}` cannot be sent in a `Cookie` header"
            )));
        }
        cookies.push(format!("{name}={text}"));
    }
    if cookies.is_empty() {
        return Ok(());
    }
    let value = HeaderValue::from_str(&cookies.join("; "))
        .map_err(|_| Error::builder("the cookies are not a header value"))?;
    headers.insert(COOKIE, value);
    Ok(())
}

/// The fields of a header or cookie params value, as name and text (pactum's rule: a string
/// as it is, a number or a bool written out, `null` left out).
fn fields<T: Slot>(params: &T, what: &str) -> Result<Vec<(String, String)>, Error> {
    pactum::contract::text_fields(params)
        .map_err(|problem| Error::builder(format!("the {what} cannot be sent: {problem}")))
}
