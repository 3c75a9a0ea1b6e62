//! How a request body slot is read ([`BodyKind`]), and what a body type that is not JSON is
//! read from ([`BodyInput`]) and sent as ([`EncodedBody`]): the hidden hooks of
//! [`Slot`](super::Slot) behind [`Multipart`](crate::upload::Multipart) and
//! [`ByteStream`](crate::upload::ByteStream).

#[cfg(feature = "pipeline")]
use std::borrow::Cow;
#[cfg(feature = "pipeline")]
use std::future::Future;
#[cfg(feature = "pipeline")]
use std::pin::Pin;

use bytes::Bytes;
use http::HeaderValue;
#[cfg(feature = "pipeline")]
use http::{
    header::{CONTENT_LENGTH, CONTENT_TYPE},
    HeaderMap,
};

#[cfg(feature = "pipeline")]
use crate::body::Body;
#[cfg(feature = "pipeline")]
use crate::error::Error;

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

/// A body being read by a body type that is not JSON.
#[cfg(feature = "pipeline")]
#[doc(hidden)]
pub type BodyFuture<T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'static>>;

/// What a body type that is not JSON is read from: the body, its limit, the request's
/// `Content-Type` and `Content-Length`, and the contract's per-field limits.
#[cfg(feature = "pipeline")]
#[doc(hidden)]
#[derive(Debug)]
pub struct BodyInput {
    pub(crate) content_type: Option<HeaderValue>,
    pub(crate) content_length: Option<u64>,
    pub(crate) body: Body,
    pub(crate) limit: usize,
    pub(crate) field_limits: Vec<(Cow<'static, str>, usize)>,
}

#[cfg(feature = "pipeline")]
impl BodyInput {
    pub(crate) fn new(
        headers: &HeaderMap,
        body: Body,
        limit: usize,
        field_limits: &[(Cow<'static, str>, usize)],
    ) -> Self {
        Self {
            content_type: headers.get(CONTENT_TYPE).cloned(),
            content_length: headers
                .get(CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok()),
            body,
            limit,
            field_limits: field_limits.to_vec(),
        }
    }
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
