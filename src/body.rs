//! [`Body`]: the request body the pipeline reads, whatever the adapter.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full};

use crate::error::BoxError;

/// A streaming request body: any `http_body::Body` of `Bytes`, boxed.
///
/// Adapters wrap their framework's body in it; tests build one from bytes or a string.
///
/// ```
/// let body = pactum::pipeline::Body::from(r#"{"name":"Ada"}"#);
/// ```
#[derive(Debug)]
pub struct Body(Inner);

#[derive(Debug)]
enum Inner {
    /// A body known to be over (a GET's, most often): no allocation.
    Empty,
    Boxed(UnsyncBoxBody<Bytes, BoxError>),
}

impl Body {
    /// Wraps any body whose chunks are `Bytes`.
    pub fn new<B>(body: B) -> Self
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        // A body at its end yields nothing more (no data, no trailers): no need to keep it.
        if body.is_end_stream() {
            return Self::empty();
        }
        Self(Inner::Boxed(body.map_err(Into::into).boxed_unsync()))
    }

    /// An empty body.
    pub fn empty() -> Self {
        Self(Inner::Empty)
    }
}

impl Default for Body {
    fn default() -> Self {
        Self::empty()
    }
}

macro_rules! from_bytes {
    ($($ty:ty),*) => {$(
        impl From<$ty> for Body {
            fn from(value: $ty) -> Self {
                Self::new(Full::new(Bytes::from(value)))
            }
        }
    )*};
}
from_bytes!(Bytes, Vec<u8>, String, &'static str, &'static [u8]);

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.0 {
            Inner::Empty => Poll::Ready(None),
            Inner::Boxed(body) => Pin::new(body).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Inner::Empty => true,
            Inner::Boxed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Inner::Empty => SizeHint::with_exact(0),
            Inner::Boxed(body) => body.size_hint(),
        }
    }
}
