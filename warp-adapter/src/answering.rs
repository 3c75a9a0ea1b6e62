//! [`Answering`]: the filter's last step, written out — the dispatched request, answered (or
//! rejected) — so that warp's chain holds only the pipeline's future and what answering needs.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use pactum::{pipeline::AnswerMode, Error, Pipeline};
use warp::reject::Rejection;
use warp::reply::Response;

use crate::rejection::PactumRejection;

pin_project_lite::pin_project! {
    /// A routed request being answered: its pipeline future, or the error that stopped it
    /// before dispatch.
    pub(crate) struct Answering<F> {
        #[pin]
        dispatched: Option<F>,
        failed: Option<Error>,
        pipeline: Pipeline,
        mode: AnswerMode,
        reject_errors: bool,
    }
}

impl<F> Answering<F> {
    /// `dispatched` (or the error that prevented it), answered with `pipeline`'s answer for
    /// `mode`; with `reject_errors`, an error is a [`PactumRejection`] instead.
    pub(crate) fn new(
        dispatched: Result<F, Error>,
        pipeline: Pipeline,
        mode: AnswerMode,
        reject_errors: bool,
    ) -> Self {
        let (dispatched, failed) = match dispatched {
            Ok(future) => (Some(future), None),
            Err(error) => (None, Some(error)),
        };
        Self {
            dispatched,
            failed,
            pipeline,
            mode,
            reject_errors,
        }
    }
}

impl<F> Future for Answering<F>
where
    F: Future<Output = Result<pactum::pipeline::Response, Error>>,
{
    type Output = Result<Response, Rejection>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = match this.dispatched.as_pin_mut() {
            Some(dispatched) => ready!(dispatched.poll(cx)),
            None => Err(this
                .failed
                .take()
                .expect("`Answering` polled after completion")),
        };
        Poll::Ready(match result {
            Err(error) if *this.reject_errors => Err(warp::reject::custom(PactumRejection::new(
                error,
                this.pipeline.clone(),
                *this.mode,
            ))),
            result => Ok(crate::reply::into_warp(
                this.pipeline.answer(*this.mode, result),
            )),
        })
    }
}
