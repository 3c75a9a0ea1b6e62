//! The parts of a streamed byte answer ([`Download`](crate::contract::Download)): what a
//! response type hands the pipeline (`Slot::into_streamed`) and what the typed client makes
//! one from (`Slot::from_streamed`). Its own file, so that `slot.rs` and `download.rs` both
//! name it without importing each other.

use std::fmt;
use std::pin::Pin;

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderValue;

use crate::error::BoxError;

/// The chunks of a streamed byte answer, in order; an `Err` breaks the answer off.
#[doc(hidden)]
pub type ByteChunks = Pin<Box<dyn Stream<Item = Result<Bytes, BoxError>> + Send>>;

/// A streamed byte answer's parts: its chunks, `Content-Type`, `Content-Length` (when known)
/// and `Content-Disposition` (when set).
#[doc(hidden)]
pub struct StreamedAnswer {
    /// The body, as it comes.
    pub chunks: ByteChunks,
    /// The `Content-Type`.
    pub content_type: HeaderValue,
    /// The `Content-Length`, when known: exactly this many bytes are sent.
    pub length: Option<u64>,
    /// The `Content-Disposition`, if any.
    pub disposition: Option<HeaderValue>,
}

impl fmt::Debug for StreamedAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamedAnswer")
            .field("content_type", &self.content_type)
            .field("length", &self.length)
            .field("disposition", &self.disposition)
            .finish_non_exhaustive()
    }
}
