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

use crate::contract::{BodyKind, Declared, EncodedBody, Slot};
use crate::error::Error;
#[cfg(feature = "pipeline")]
use {
    super::content_too_large,
    crate::body::Body,
    crate::contract::{BodyFuture, BodyInput},
    crate::error::Rejection,
    http_body::Body as _,
    http_body_util::{LengthLimitError, Limited},
    std::sync::Mutex,
    std::task::ready,
};

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
    /// `Mutex`: `Sync` (a contract's slot types are) without asking it of the body, which is
    /// only ever polled through `&mut` (`get_mut`, no locking). Without the `pipeline`
    /// feature there is no request body: the stream is the bytes it was made from.
    #[cfg(feature = "pipeline")]
    body: Mutex<Limited<Body>>,
    /// The bytes it was made from, if any: what the typed client sends.
    whole: Option<Bytes>,
    done: bool,
}

impl ByteStream {
    /// The stream of a request body, within `limit` bytes.
    #[cfg(feature = "pipeline")]
    pub(crate) fn limited(body: Body, limit: usize) -> Self {
        Self {
            body: Mutex::new(Limited::new(body, limit)),
            whole: None,
            done: false,
        }
    }

    /// A stream of any body (no limit), e.g. for calling a handler directly. The typed client
    /// cannot send it: make the stream [`from`](ByteStream::from) bytes for that.
    #[cfg(feature = "pipeline")]
    #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
    pub fn new(body: Body) -> Self {
        Self::limited(body, usize::MAX)
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
        let bytes = bytes.into();
        #[cfg(feature = "pipeline")]
        let mut stream = Self::new(Body::from(bytes.clone()));
        #[cfg(not(feature = "pipeline"))]
        let mut stream = Self {
            whole: None,
            done: false,
        };
        stream.whole = Some(bytes);
        stream
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

    #[cfg(not(feature = "pipeline"))]
    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // The bytes it was made from, in one chunk.
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        this.done = true;
        Poll::Ready(this.whole.clone().filter(|b| !b.is_empty()).map(Ok))
    }

    #[cfg(feature = "pipeline")]
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let body = this.body.get_mut().unwrap_or_else(|e| e.into_inner());
        loop {
            match ready!(Pin::new(&mut *body).poll_frame(cx)) {
                None => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => return Poll::Ready(Some(Ok(data))),
                    // Trailers, an empty chunk: nothing for the handler.
                    _ => continue,
                },
                Some(Err(e)) => {
                    this.done = true;
                    let error = if e.is::<LengthLimitError>() {
                        content_too_large()
                    } else {
                        Rejection::BodyUnreadable.error().with_source(e).into()
                    };
                    return Poll::Ready(Some(Err(error)));
                }
            }
        }
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

    #[cfg(feature = "pipeline")]
    fn read_body(input: BodyInput) -> BodyFuture<Self> {
        let read = if input
            .content_length
            .is_some_and(|len| len > input.limit as u64)
        {
            Err(content_too_large())
        } else {
            Ok(Self::limited(input.body, input.limit))
        };
        Box::pin(std::future::ready(read))
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
