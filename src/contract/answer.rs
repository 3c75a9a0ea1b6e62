//! Response types that are not JSON: [`Text`], [`Binary`] and [`Redirect`].
//!
//! Each fills a contract's response slot (`.response::<Text>()`), so the server writes it
//! with its own content type, the OpenAPI document gives its media type, and the typed client
//! reads it back. Errors stay JSON whatever the response type.

use std::fmt;
use std::ops::Deref;

use bytes::Bytes;
use http::HeaderValue;
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use validator::ValidationErrors;

use super::slot::{Declared, Format, RawAnswer, Slot};

/// The content type of a [`Text`] answer.
const TEXT_PLAIN: &str = "text/plain; charset=utf-8";
/// The default content type of a [`Binary`] answer.
const OCTET_STREAM: &str = "application/octet-stream";

/// A `text/plain; charset=utf-8` answer: `.response::<Text>()`.
///
/// The server sends the string as it is; the OpenAPI document gives `text/plain` with a string
/// schema; the typed client reads the body as UTF-8 (whatever the content type says) and hands
/// back a `Text` ([`Text::into_string`], or `&str` through `Deref`).
///
/// As a request body or query it is a JSON string: raw request bodies are not read this way.
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::Text};
///
/// let hello = Endpoint::get(route!("/hello.txt")).response::<Text>().build()?;
/// let h = handler(hello, |_| async { Ok(Text::new("hello world")) });
/// let answer = h.respond(&Text::from("hello world"))?;
/// assert_eq!(answer.headers()["content-type"], "text/plain; charset=utf-8");
/// assert_eq!(answer.body(), "hello world");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Text(String);

impl Text {
    /// A text answer.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Text::new("hi").as_str(), "hi");
    /// ```
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The text.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Text::from("hi").as_str(), "hi");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Text::from("hi").into_string(), "hi");
    /// ```
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.0
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self)
    }
}

#[diagnostic::do_not_recommend]
impl Slot for Text {
    type Presence = Declared;
    const FORMAT: Format = Format::Text;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn to_raw(&self) -> RawAnswer {
        RawAnswer {
            body: Bytes::copy_from_slice(self.0.as_bytes()),
            content_type: Some(HeaderValue::from_static(TEXT_PLAIN)),
            location: None,
        }
    }

    fn from_raw(raw: RawAnswer) -> Result<Self, String> {
        String::from_utf8(raw.body.into())
            .map(Self)
            .map_err(|e| format!("the text answer is not UTF-8: {e}"))
    }
}

/// Bytes with a content type (`application/octet-stream` unless set): `.response::<Binary>()`.
///
/// The server sends the bytes as they are with the value's content type; the OpenAPI
/// document gives `application/octet-stream` with a binary string schema; the typed client
/// hands back the body and the answer's content type.
///
/// ```
/// use pactum::http::HeaderValue;
/// use pactum::{handler, route, contract::Binary, Endpoint};
///
/// let logo = Endpoint::get(route!("/logo.png")).response::<Binary>().build()?;
/// let h = handler(logo, |_| async { Ok(Binary::new(&b"\x89PNG"[..])) });
/// let png = Binary::new(&b"\x89PNG"[..]).with_content_type(HeaderValue::from_static("image/png"));
/// let answer = h.respond(&png)?;
/// assert_eq!(answer.headers()["content-type"], "image/png");
/// assert_eq!(answer.body(), &b"\x89PNG"[..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    bytes: Bytes,
    content_type: HeaderValue,
}

impl Binary {
    /// Bytes sent as `application/octet-stream`.
    ///
    /// ```
    /// let b = pactum::contract::Binary::new(vec![1, 2, 3]);
    /// assert_eq!(b.content_type(), "application/octet-stream");
    /// ```
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        Self {
            bytes: bytes.into(),
            content_type: HeaderValue::from_static(OCTET_STREAM),
        }
    }

    /// Sends the bytes with another content type.
    ///
    /// ```
    /// use pactum::http::HeaderValue;
    /// let b = pactum::contract::Binary::new(vec![1]).with_content_type(HeaderValue::from_static("image/png"));
    /// assert_eq!(b.content_type(), "image/png");
    /// ```
    #[must_use]
    pub fn with_content_type(mut self, content_type: HeaderValue) -> Self {
        self.content_type = content_type;
        self
    }

    /// The bytes.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Binary::new(vec![1, 2]).bytes().as_ref(), [1, 2]);
    /// ```
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bytes, owned.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Binary::new(vec![1, 2]).into_bytes().as_ref(), [1, 2]);
    /// ```
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The content type.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Binary::new(vec![]).content_type(), "application/octet-stream");
    /// ```
    pub fn content_type(&self) -> &HeaderValue {
        &self.content_type
    }
}

/// Written as serde bytes (a JSON array of numbers), for the rare JSON use.
impl Serialize for Binary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.bytes)
    }
}

impl<'de> Deserialize<'de> for Binary {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<u8>::deserialize(deserializer).map(Self::new)
    }
}

#[diagnostic::do_not_recommend]
impl Slot for Binary {
    type Presence = Declared;
    const FORMAT: Format = Format::Binary;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn to_raw(&self) -> RawAnswer {
        RawAnswer {
            body: self.bytes.clone(),
            content_type: Some(self.content_type.clone()),
            location: None,
        }
    }

    fn from_raw(raw: RawAnswer) -> Result<Self, String> {
        let bytes = Self::new(raw.body);
        Ok(match raw.content_type {
            Some(content_type) => bytes.with_content_type(content_type),
            None => bytes,
        })
    }
}

/// A redirect: no body, a `Location` header, and the contract's 3xx status — 303 See Other
/// unless the contract declares 301, 302, 307 or 308 with `.status(..)`.
///
/// The status belongs to the contract, so the OpenAPI document gives it (with its `Location`
/// header) and the typed client knows it. The typed client does not follow redirects: it hands
/// back the `Redirect` with its location.
///
/// ```
/// use pactum::http::StatusCode;
/// use pactum::{handler, route, Endpoint, contract::Redirect};
///
/// let old = Endpoint::get(route!("/old"))
///     .response::<Redirect>()
///     .status(StatusCode::PERMANENT_REDIRECT)
///     .build()?;
/// let h = handler(old, |_| async { Ok(Redirect::to("/new")) });
/// let answer = h.respond(&Redirect::to("/new"))?;
/// assert_eq!(answer.status(), 308);
/// assert_eq!(answer.headers()["location"], "/new");
/// assert_eq!(answer.body(), "");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Redirect {
    location: String,
}

impl Redirect {
    /// A redirect to `location`, a URL or a path (`/users/7`), percent-encoded.
    ///
    /// # Panics
    ///
    /// When `location` holds a character a header cannot carry (a control character, or one
    /// outside ASCII: percent-encode it), as axum's `Redirect::to` does.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Redirect::to("/users/7").location(), "/users/7");
    /// ```
    pub fn to(location: impl Into<String>) -> Self {
        let location = location.into();
        assert!(
            location
                .bytes()
                .all(|b| (b' '..=b'~').contains(&b) || b == b'\t'),
            "a redirect's location must be visible ASCII (percent-encode it): {location:?}"
        );
        Self { location }
    }

    /// Where the redirect points.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Redirect::to("https://example.com/").location(), "https://example.com/");
    /// ```
    pub fn location(&self) -> &str {
        &self.location
    }
}

impl Serialize for Redirect {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.location)
    }
}

impl<'de> Deserialize<'de> for Redirect {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(|location| Self { location })
    }
}

#[diagnostic::do_not_recommend]
impl Slot for Redirect {
    type Presence = Declared;
    const FORMAT: Format = Format::Redirect;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn to_raw(&self) -> RawAnswer {
        RawAnswer {
            body: Bytes::new(),
            content_type: None,
            location: HeaderValue::from_str(&self.location).ok(),
        }
    }

    fn from_raw(raw: RawAnswer) -> Result<Self, String> {
        let location = raw
            .location
            .ok_or_else(|| "the redirect has no `Location` header".to_owned())?;
        let location = location
            .to_str()
            .map_err(|_| "the redirect's `Location` is not visible ASCII".to_owned())?;
        Ok(Self {
            location: location.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trips() {
        let text = Text::from("héllo");
        assert_eq!(Text::from_raw(text.to_raw()).unwrap(), text);
        let bytes = Binary::new(vec![0, 255]).with_content_type(HeaderValue::from_static("a/b"));
        assert_eq!(Binary::from_raw(bytes.to_raw()).unwrap(), bytes);
        let redirect = Redirect::to("/x?y=1");
        assert_eq!(Redirect::from_raw(redirect.to_raw()).unwrap(), redirect);
        assert!(Redirect::from_raw(RawAnswer::default()).is_err());
        let bad = RawAnswer {
            body: Bytes::from_static(b"\xff"),
            ..RawAnswer::default()
        };
        assert!(Text::from_raw(bad).is_err());
    }

    #[test]
    #[should_panic(expected = "visible ASCII")]
    fn redirect_refuses_a_line_break() {
        let _ = Redirect::to("/x\r\nset-cookie: a=b");
    }
}
