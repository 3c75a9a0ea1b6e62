//! [`Refusable`]: the body of a service that is not pactum's, or the connection's refusal of a
//! request that broke an HTTP rule the service never saw (`conn/request_rules.rs`). pactum's
//! own service answers refusals in its own body type; any other service's body is wrapped in
//! this, since the connection cannot make one of an unknown type.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};

pin_project_lite::pin_project! {
    /// A foreign service's answer body, or the connection's refusal.
    #[project = RefusableProj]
    pub(crate) enum Refusable<B> {
        /// The service's own body.
        Service { #[pin] body: B },
        /// The connection's refusal, sent in one frame.
        Refusal { bytes: Option<Bytes> },
    }
}

impl<B> Refusable<B> {
    /// The refusal `bytes`.
    pub(crate) fn refusal(bytes: Bytes) -> Self {
        Self::Refusal {
            bytes: (!bytes.is_empty()).then_some(bytes),
        }
    }
}

impl<B: Body<Data: From<Bytes>>> Body for Refusable<B> {
    type Data = B::Data;
    type Error = B::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        match self.project() {
            RefusableProj::Service { body } => body.poll_frame(cx),
            RefusableProj::Refusal { bytes } => {
                Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes.into()))))
            }
        }
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match self {
            Self::Service { body } => body.is_end_stream(),
            Self::Refusal { bytes } => bytes.is_none(),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match self {
            Self::Service { body } => body.size_hint(),
            Self::Refusal { bytes } => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |bytes| bytes.len() as u64))
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// A foreign service's future, its answer's body made [`Refusable`].
    pub(crate) struct RefusableAnswer<F> {
        #[pin]
        future: F,
    }
}

impl<F> RefusableAnswer<F> {
    pub(crate) fn new(future: F) -> Self {
        Self { future }
    }
}

impl<F, B, E> Future for RefusableAnswer<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<Refusable<B>>, E>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let answer = ready!(self.project().future.poll(cx));
        Poll::Ready(answer.map(|response| response.map(|body| Refusable::Service { body })))
    }
}
