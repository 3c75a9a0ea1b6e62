//! The futures of [`Pipeline::dispatch`](super::Pipeline::dispatch) and
//! [`Pipeline::handle`](super::Pipeline::handle).

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_LENGTH};

use super::catch_panic::CatchPanic;
use super::deadline::Deadline;
use super::{AnswerMode, Pipeline};
use crate::error::{Error, Rejection, RequestInfo};
use crate::request::{BoxFuture, EchoedId};
use crate::response::{Response, ResponseBody};

/// A dispatched request: answered already, or running its middleware and handler.
pub(super) enum Work {
    /// Answered at routing (OPTIONS, 405): rare, so boxed to keep the future small.
    Done(Result<Box<Response>, Error>),
    Run(CatchPanic<BoxFuture<Result<Response, Error>>>),
}

/// The future of [`Pipeline::dispatch`]: polls the work inside the request's span, then logs
/// an error and records the status and latency on the span.
///
/// Written out rather than as an `async` block wrapped in `Instrumented`: it is `Unpin` and
/// small, so the futures around it hold it without copies of a large state machine.
pub(super) struct DispatchFuture {
    pub(super) work: Option<Work>,
    /// The request timeout, when the pipeline has one.
    pub(super) deadline: Option<Deadline>,
    /// The request's span and start, when a subscriber listens (boxed: the futures around
    /// this one stay small when none does).
    pub(super) traced: Option<Box<Traced>>,
    /// The request's view, for an error formatter that asks for it.
    pub(super) request_info: Option<Box<RequestInfo>>,
    /// The id the answer echoes ([`PipelineBuilder::echo_request_id`](super::PipelineBuilder::echo_request_id)).
    /// (Boxed: only a pipeline that echoes pays for the room.)
    pub(super) echo: Option<Box<EchoedId>>,
}

/// A request's span, and when it started (for its latency).
pub(super) struct Traced {
    pub(super) span: tracing::Span,
    pub(super) started: Instant,
    /// Whether the answer is logged ([`PipelineBuilder::access_log`](super::PipelineBuilder::access_log)).
    pub(super) access_log: bool,
}

/// The access log line of a request answered with `status` after `latency_us`, its body
/// `bytes` long when held whole: in the request's `span`, which holds the rest.
#[cold]
fn access_line(span: &tracing::Span, status: u16, latency_us: u64, bytes: Option<usize>) {
    match bytes {
        Some(bytes) => tracing::info!(
            target: "pactum::access",
            parent: span,
            status,
            latency_us,
            bytes,
            "answered"
        ),
        None => tracing::info!(
            target: "pactum::access",
            parent: span,
            status,
            latency_us,
            "answered"
        ),
    }
}

impl Future for DispatchFuture {
    type Output = Result<Response, Error>;

    // Inlined into `HandleFuture::poll`: one call and one move of the answer fewer per request.
    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let _entered = this.traced.as_ref().map(|t| t.span.enter());
        let result = match this
            .work
            .as_mut()
            .expect("`DispatchFuture` polled after completion")
        {
            Work::Done(_) => match this.work.take() {
                Some(Work::Done(result)) => result.map(|response| *response),
                _ => unreachable!("matched `Work::Done` above"),
            },
            Work::Run(future) => match Pin::new(future).poll(cx) {
                Poll::Ready(polled) => {
                    this.work = None;
                    polled.unwrap_or_else(|panic| {
                        tracing::error!(panic = %panic, "handler panicked");
                        Err(Rejection::Panicked.error().into())
                    })
                }
                Poll::Pending => {
                    let passed = this.deadline.as_mut().is_some_and(|d| d.passed(cx));
                    if !passed {
                        return Poll::Pending;
                    }
                    // Out of time: the middleware and handler are dropped (inside the span).
                    this.work = None;
                    Err(Rejection::RequestTimeout.error().into())
                }
            },
        };
        let result = match result {
            Ok(mut response) => {
                if let Some(echo) = this.echo.take() {
                    (*echo).echo(response.headers_mut());
                }
                Ok(response)
            }
            Err(error) => {
                error.log();
                // The view for the formatter, else (to echo the id) a view of the id alone:
                // the formatter sees only whole views, the pipeline reads the id from either.
                let info = this.request_info.take().or_else(|| {
                    let echo = this.echo.take()?;
                    Some(Box::new(RequestInfo {
                        request_id: echo.to_text(),
                        ..RequestInfo::UNKNOWN
                    }))
                });
                Err(match info {
                    Some(info) => error.for_request(info),
                    None => error,
                })
            }
        };
        if let Some(traced) = &this.traced {
            let (status, bytes) = match &result {
                Ok(response) => (response.status(), response.body().as_bytes().map(Bytes::len)),
                // Formatted after this (`Pipeline::answer`): its size is not known here.
                Err(error) => (error.status(), None),
            };
            let latency_us = traced.started.elapsed().as_micros() as u64;
            if traced.access_log {
                access_line(&traced.span, status.as_u16(), latency_us, bytes);
            }
            traced.span.record("status", status.as_u16());
            traced.span.record("latency_us", latency_us);
        }
        Poll::Ready(result)
    }
}

impl Drop for DispatchFuture {
    fn drop(&mut self) {
        // A request dropped before it finished: its middleware and handler are dropped
        // inside its span, as `Instrumented` would.
        if self.work.is_some() {
            let _entered = self.traced.as_ref().map(|t| t.span.enter());
            self.work = None;
        }
    }
}

/// The future of [`Pipeline::handle`]: the dispatched request (or a plain 404), answered.
pub(crate) struct HandleFuture {
    pub(super) dispatched: Option<DispatchFuture>,
    pub(super) pipeline: Pipeline,
    pub(super) mode: AnswerMode,
}

impl Future for HandleFuture {
    type Output = Response;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = &mut *self;
        let result = match &mut this.dispatched {
            Some(dispatched) => ready!(Pin::new(dispatched).poll(cx)),
            None => Err(Rejection::NotFound.error().into()),
        };
        Poll::Ready(this.pipeline.answer(this.mode, result))
    }
}

/// A HEAD answer: the GET's headers and length (when held whole), no body. A streamed body
/// is dropped unread.
pub(super) fn strip_body(response: &mut Response) {
    match response.body().as_bytes().map(Bytes::len) {
        Some(0) => {}
        Some(len) => {
            response
                .headers_mut()
                .insert(CONTENT_LENGTH, HeaderValue::from(len));
            *response.body_mut() = ResponseBody::empty();
        }
        None => *response.body_mut() = ResponseBody::empty(),
    }
}
