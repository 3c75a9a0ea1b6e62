//! How a request body slot is read ([`BodyKind`]) and what a body type that is not JSON is
//! sent as ([`EncodedBody`]): the data of [`Slot`](super::Slot)'s hidden hooks behind
//! [`Multipart`](crate::upload::Multipart) and [`ByteStream`](crate::upload::ByteStream).

use bytes::Bytes;
use http::HeaderValue;

/// How a request body travels (see `Slot::BODY`).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/json`, read whole and parsed by serde: every user type.
    Json,
    /// `multipart/form-data`, read field by field: [`Multipart`](crate::upload::Multipart).
    Multipart,
    /// Any bytes (`application/octet-stream`), handed over as they arrive:
    /// [`ByteStream`](crate::upload::ByteStream).
    Stream,
}

/// A request body as the typed client sends it: its `Content-Type` and bytes.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct EncodedBody {
    /// The `Content-Type` (with a multipart body's boundary).
    pub content_type: HeaderValue,
    /// The bytes.
    pub bytes: Bytes,
}
