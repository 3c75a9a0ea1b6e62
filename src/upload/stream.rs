//! [`ByteStream`]: a request body handed to the handler as it arrives.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderValue;
use serde::de::{Deserialize, Deserializer, Error as _};
use serde::ser::{Error as _, Serialize, Serializer};
use validator::ValidationErrors;

use std::sync::{Mutex, PoisonError};

use crate::contract::{BodyKind, BodyReader, Chunks, Declared, EncodedBody, Slot};
use crate::error::Error;

/// A request body read as it arrives, for uploads too large to hold:
/// `.body::<ByteStream>()`. A [`Stream`] of `Result<Bytes, pactum::Error>` chunks.
///
/// The handler runs as soon as the head is in; the chunks come as the client sends them. The
/// body limit ([`body_limit`](crate::contract::EndpointBuilder::body_limit), 1 MiB by default: raise
/// it for large uploads) still applies: a declared `Content-Length` over it is a 413 before
/// the handler runs, and a body that grows past it ends the stream with a 413 error, which
/// the handler answers with by returning it (`?`). Any `Content-Type` is taken (the handler
/// can read `ctx.headers`); the OpenAPI document gives `application/octet-stream`.
///
/// The typed client sends a `ByteStream` made from bytes ([`ByteStream::from`]).
///
/// ```
/// use pactum::{handler, route, upload::ByteStream, Ctx, Endpoint, NoParams, NoQuery};
///
/// let put_blob = Endpoint::put(route!("/blob"))
///     .body::<ByteStream>()
///     .body_limit(1 << 30)
///     .build()?;
/// let h = handler(put_blob, |mut ctx: Ctx<NoParams, NoQuery, ByteStream>| async move {
///     let mut size = 0;
///     while let Some(chunk) = ctx.body.next_chunk().await {
///         size += chunk?.len();
///     }
///     assert_eq!(size, 5);
///     Ok(pactum::contract::NoContent)
/// });
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// h.execute(Ctx::new(NoParams, NoQuery, ByteStream::from("hello"))).await?;
/// # Ok::<(), pactum::Error>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ByteStream {
    /// A request body's chunks as the pipeline reads them (`ByteStream::new`, and the
    /// pipeline's reader); `None` for a stream made from bytes. `Mutex`: `Sync` (a
    /// contract's slot types are) without asking it of the stream, which is only ever polled
    /// through `&mut` (`get_mut`, no locking).
    chunks: Option<Mutex<Chunks>>,
    /// The bytes it was made from, if any: what the typed client sends.
    whole: Option<Bytes>,
    done: bool,
}

impl ByteStream {
    /// The stream of a request body's chunks.
    pub(crate) fn of_chunks(chunks: Chunks) -> Self {
        Self {
            chunks: Some(Mutex::new(chunks)),
            whole: None,
            done: false,
        }
    }

    /// The next chunk, `None` at the end: the [`Stream`] without `StreamExt`.
    ///
    /// # Errors
    ///
    /// As [`collect_bytes`](ByteStream::collect_bytes); the stream ends after an error.
    pub async fn next_chunk(&mut self) -> Option<Result<Bytes, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// Reads the rest of the stream into one buffer.
    ///
    /// # Errors
    ///
    /// The stream's error: 413 `Payload too large` past the body limit, 400 `Failed to read
    /// request body` when the connection failed.
    pub async fn collect_bytes(mut self) -> Result<Bytes, Error> {
        let mut buffer = bytes::BytesMut::new();
        while let Some(chunk) = self.next_chunk().await {
            buffer.extend_from_slice(&chunk?);
        }
        Ok(buffer.freeze())
    }
}

impl<B: Into<Bytes>> From<B> for ByteStream {
    /// A stream of these bytes, in one chunk; the typed client can send it.
    fn from(bytes: B) -> Self {
        Self {
            chunks: None,
            whole: Some(bytes.into()),
            done: false,
        }
    }
}

impl fmt::Debug for ByteStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByteStream")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Stream for ByteStream {
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let Some(chunks) = &mut this.chunks else {
            // The bytes it was made from, in one chunk.
            this.done = true;
            return Poll::Ready(this.whole.clone().filter(|b| !b.is_empty()).map(Ok));
        };
        let chunks = chunks.get_mut().unwrap_or_else(PoisonError::into_inner);
        let next = chunks.as_mut().poll_next(cx);
        if matches!(next, Poll::Ready(None | Some(Err(_)))) {
            this.done = true;
        }
        next
    }
}

/// Refused: a stream is not written as a value.
impl Serialize for ByteStream {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(S::Error::custom(
            "a byte stream is sent as the request body",
        ))
    }
}

/// Refused: a stream is read from the request body, not deserialised.
impl<'de> Deserialize<'de> for ByteStream {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(D::Error::custom(
            "a byte stream is read from the request body",
        ))
    }
}

#[diagnostic::do_not_recommend]
impl Slot for ByteStream {
    type Presence = Declared;
    const BODY: BodyKind = BodyKind::Stream;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn read_body<Rd: BodyReader>(reader: Rd) -> Rd::Read<Self> {
        reader.chunks(Self::of_chunks)
    }

    fn encode_body(&self) -> Result<EncodedBody, String> {
        let bytes = self.whole.clone().ok_or_else(|| {
            "the typed client sends a `ByteStream` made from bytes (`ByteStream::from`)".to_owned()
        })?;
        Ok(EncodedBody {
            content_type: HeaderValue::from_static("application/octet-stream"),
            bytes,
        })
    }
}
