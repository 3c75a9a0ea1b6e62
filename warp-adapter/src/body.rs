//! warp's request body stream as an `http_body::Body`, for [`pactum::pipeline::Body`].

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, Bytes};
use futures_core::Stream;
use http_body::Frame;

/// The stream of `warp::body::stream()` as a body of `Bytes` frames, read only when the
/// pipeline reads it (so its Content-Type check and size limits act before or while reading).
#[derive(Debug)]
pub(crate) struct StreamBody<S>(S);

impl<S> StreamBody<S> {
    pub(crate) fn new(stream: S) -> Self {
        Self(stream)
    }
}

impl<S, B> http_body::Body for StreamBody<S>
where
    S: Stream<Item = Result<B, warp::Error>> + Unpin,
    B: Buf,
{
    type Data = Bytes;
    type Error = warp::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, warp::Error>>> {
        Pin::new(&mut self.0).poll_next(cx).map(|item| {
            item.map(|chunk| {
                // `Bytes::copy_to_bytes` takes the chunk without copying.
                chunk.map(|mut buf| Frame::data(buf.copy_to_bytes(buf.remaining())))
            })
        })
    }
}
