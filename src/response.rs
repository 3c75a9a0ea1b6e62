//! [`Response`] and its [`ResponseBody`]: what the pipeline answers.

use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;
use sync_wrapper::SyncWrapper;

/// `pactum::error::BoxError`, spelled out: the error module answers with a [`Response`], so this
/// module does not reach back into it.
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A response as the pipeline makes it: a buffered body (every answer but a stream of
/// events), or a streamed one ([`Events`](crate::sse::Events)).
pub type Response = http::Response<ResponseBody>;

/// Tells a streamed answer that the server is shutting down.
pub(crate) trait DrainSignal: Send + Sync {
    /// Whether the server has started shutting down; if not, `cx` is woken when it does.
    fn poll_draining(&self, cx: &mut Context<'_>) -> bool;
}

/// Marks a streamed answer that ends (cleanly) once the server starts shutting down, rather
/// than when its stream does: a stream of events may never end by itself. An extension of
/// the answer; the native server gives it its [`DrainSignal`] when the answer leaves
/// ([`EndingOnShutdown`] polls it), so that no other answer pays for it.
#[derive(Clone, Default)]
pub(crate) struct EndsOnShutdown(Arc<OnceLock<Box<dyn DrainSignal>>>);

impl EndsOnShutdown {
    /// Gives the answer the server's signal (once; later calls do nothing). Only the native
    /// server has one.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn set(&self, signal: Box<dyn DrainSignal>) {
        let _ = self.0.set(signal);
    }

    fn poll_draining(&self, cx: &mut Context<'_>) -> bool {
        self.0.get().is_some_and(|signal| signal.poll_draining(cx))
    }
}

pin_project_lite::pin_project! {
    /// A streamed body that ends (cleanly: no error, its last frame written) once the server
    /// signals its shutdown through `ends`. Generic, so that the stream's writer and this are
    /// boxed together, once, into a [`ResponseBody`].
    pub(crate) struct EndingOnShutdown<B> {
        #[pin]
        pub(crate) body: B,
        pub(crate) ends: EndsOnShutdown,
    }
}

impl<B: http_body::Body<Data = Bytes, Error = BoxError>> http_body::Body for EndingOnShutdown<B> {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.project();
        if this.ends.poll_draining(cx) {
            return Poll::Ready(None);
        }
        this.body.poll_frame(cx)
    }
}

/// The body of a [`Response`]: bytes held whole (JSON, text, errors), or a stream of frames
/// (a [`Events`](crate::sse::Events) answer). Implements [`http_body::Body`].
///
/// ```
/// use pactum::pipeline::ResponseBody;
///
/// let body = ResponseBody::from(r#"{"ok":true}"#);
/// assert_eq!(body.as_bytes().map(|b| b.as_ref()), Some(&br#"{"ok":true}"#[..]));
/// ```
pub struct ResponseBody(Kind);

enum Kind {
    /// Sent in one frame; empty once sent.
    Whole(Bytes),
    /// Frames as the stream makes them. `SyncWrapper`: the body is `Sync` (warp asks it)
    /// without asking it of the stream, which is only ever polled through `&mut`.
    Streamed(SyncWrapper<UnsyncBoxBody<Bytes, BoxError>>),
}

impl ResponseBody {
    /// An empty body.
    pub fn empty() -> Self {
        Self(Kind::Whole(Bytes::new()))
    }

    /// A streamed body: any `http_body::Body` of `Bytes`, sent frame by frame.
    pub fn streamed<B>(body: B) -> Self
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Self(Kind::Streamed(SyncWrapper::new(
            body.map_err(Into::into).boxed_unsync(),
        )))
    }

    /// The bytes of a whole body; `None` for a streamed one.
    pub fn as_bytes(&self) -> Option<&Bytes> {
        match &self.0 {
            Kind::Whole(bytes) => Some(bytes),
            Kind::Streamed(_) => None,
        }
    }

    /// The bytes of a whole body, or the streamed body back.
    ///
    /// # Errors
    ///
    /// The body itself when it is streamed.
    pub fn into_bytes(self) -> Result<Bytes, Self> {
        match self.0 {
            Kind::Whole(bytes) => Ok(bytes),
            streamed @ Kind::Streamed(_) => Err(Self(streamed)),
        }
    }

    /// Whether the body is streamed (not held whole).
    pub fn is_streamed(&self) -> bool {
        matches!(self.0, Kind::Streamed(_))
    }
}

impl Default for ResponseBody {
    fn default() -> Self {
        Self::empty()
    }
}

impl fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Whole(bytes) => f.debug_tuple("ResponseBody").field(bytes).finish(),
            Kind::Streamed(_) => f.write_str("ResponseBody(<streamed>)"),
        }
    }
}

macro_rules! from_whole {
    ($($ty:ty),*) => {$(
        impl From<$ty> for ResponseBody {
            fn from(value: $ty) -> Self {
                Self(Kind::Whole(Bytes::from(value)))
            }
        }
    )*};
}
from_whole!(Bytes, Vec<u8>, String, &'static str, &'static [u8]);

/// A whole body equals the bytes it holds; a streamed one equals nothing.
impl PartialEq<[u8]> for ResponseBody {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes().is_some_and(|bytes| bytes == other)
    }
}

/// A whole body equals the text it holds; a streamed one equals nothing.
impl PartialEq<str> for ResponseBody {
    fn eq(&self, other: &str) -> bool {
        self == other.as_bytes()
    }
}

impl PartialEq<&str> for ResponseBody {
    fn eq(&self, other: &&str) -> bool {
        self == other.as_bytes()
    }
}

impl http_body::Body for ResponseBody {
    type Data = Bytes;
    type Error = BoxError;

    #[inline]
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.0 {
            Kind::Whole(bytes) if bytes.is_empty() => Poll::Ready(None),
            Kind::Whole(bytes) => Poll::Ready(Some(Ok(Frame::data(std::mem::take(bytes))))),
            Kind::Streamed(body) => Pin::new(body.get_mut()).poll_frame(cx),
        }
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Kind::Whole(bytes) => bytes.is_empty(),
            Kind::Streamed(_) => false,
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Kind::Whole(bytes) => SizeHint::with_exact(bytes.len() as u64),
            Kind::Streamed(_) => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use http_body::Body as _;
    use http_body_util::{BodyExt, StreamBody};

    use super::*;

    #[tokio::test]
    async fn a_whole_body_is_one_frame_then_ends() {
        let mut body = ResponseBody::from("hello");
        assert_eq!(body.size_hint().exact(), Some(5));
        let frame = body.frame().await.unwrap().unwrap();
        assert_eq!(frame.into_data().unwrap(), "hello");
        assert!(body.is_end_stream());
        assert!(body.frame().await.is_none());
        assert!(ResponseBody::empty().is_end_stream());
    }

    #[tokio::test]
    async fn a_streamed_body_yields_its_frames() {
        let frames = ["a", "b"].map(|s| Ok::<_, BoxError>(Frame::data(Bytes::from(s))));
        let body = ResponseBody::streamed(StreamBody::new(futures_util::stream::iter(frames)));
        assert!(body.is_streamed() && body.as_bytes().is_none());
        let body = body.into_bytes().unwrap_err();
        assert_eq!(body.collect().await.unwrap().to_bytes(), "ab");
    }
}
