//! How a request body slot is read ([`BodyKind`]), what reads a body type that is not JSON
//! ([`BodyReader`], the pipeline's) and what such a type is sent as ([`EncodedBody`]): the
//! hidden hooks of [`Slot`](super::Slot) behind [`Multipart`](crate::upload::Multipart) and
//! [`ByteStream`](crate::upload::ByteStream).
//!
//! The contract names only these traits and types; the pipeline implements [`BodyReader`]
//! (`request::read_upload`), so this layer depends on nothing of the pipeline's.

use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderValue;

use super::Slot;
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

/// A request body's chunks as they arrive, each checked against the body limit: what a
/// [`ByteStream`](crate::upload::ByteStream) reads.
#[doc(hidden)]
pub type Chunks = Pin<Box<dyn Stream<Item = Result<Bytes, Error>> + Send>>;

/// What reads a request body that is not JSON, for a body type's
/// [`Slot::read_body`](super::Slot::read_body): the pipeline's, with the request's body, its
/// limits and its headers. Each method ends with the value `wrap` makes of what was read.
#[doc(hidden)]
pub trait BodyReader {
    /// A body being read.
    type Read<O: Send + 'static>: Future<Output = Result<O, Error>> + Send + 'static;

    /// Reads a `multipart/form-data` body whole into a `T`, validated.
    fn form<T: Slot, O: Send + 'static>(self, wrap: fn(T) -> O) -> Self::Read<O>;

    /// Hands the body over as it arrives.
    fn chunks<O: Send + 'static>(self, wrap: fn(Chunks) -> O) -> Self::Read<O>;

    /// Refuses to read the body: a type that is read as JSON has no reader of its own.
    fn refuse<O: Send + 'static>(self) -> Self::Read<O>;
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
