//! How the pipeline runs a handler: parse, validate, call, check, serialise, in one boxed
//! future per request with the function's own future inside it.
//!
//! A routed request, past its middleware, goes through these steps:
//!
//! 1. [`parse_input`]: the params and the query, parsed and validated (400 `Validation failed`
//!    ends the request here, before anything is boxed for it);
//! 2. [`BodyReading::start`]: a JSON body's content type and declared length checked (415,
//!    413) and its bytes collected; any other kind handed to its type's reader
//!    ([`Slot::read_body`]); skipped when the contract has no body;
//! 3. [`HandlerCall`], the state machine: `Reading` the body, then `Running` the function with
//!    its `Ctx`, then [`respond`] (the value's rules checked, serialised once) or the error as
//!    the contract answers it ([`Typed::answer_error`]).
//!
//! The function is kept with its type ([`Bound`]) until the request is routed, so that its
//! future needs no box of its own; and the future is written out ([`HandlerCall`]) rather than
//! as an `async` block, so that the request head held while the body is read and the
//! function's future (which holds the head again, in its `Ctx`) share their space.

use std::future::{ready, Future};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use bytes::Bytes;

use crate::context::{Ctx, ResponseParts};
use crate::body::Body;
use crate::contract::{BodyKind, EndpointSpec, Format, Slot};
use crate::decode::{self, BodyFuture, BodyInput, BodyRead};
use crate::error::Error;
use crate::request::{BoxFuture, CallHandler, RawParams, Remote, Request, UrlCell};
use crate::response::Response;

use super::answer_size::AnswerSize;
use super::error_answer::{DeclaredType, UndeclaredStatuses};
use super::pipeline_parts::PipelineParts;
use super::download_body::respond_download;
use super::respond::{respond, respond_streamed};

/// A function bound to its contract, with its type.
pub(super) struct Bound<F> {
    pub(super) f: F,
    pub(super) spec: Arc<EndpointSpec>,
    /// The size of the function's last JSON answer.
    pub(super) answer_size: AnswerSize,
    /// The `HttpError` statuses the contract does not declare, once warned about.
    pub(super) undeclared: UndeclaredStatuses,
}

/// The contract's types, carried without being held.
type Types<P, Q, B, R, H, C> = PhantomData<fn(Ctx<P, Q, B, H, C>) -> R>;

/// A [`Bound`] function as the pipeline calls it: with its contract's types, which routing
/// erased.
struct Typed<F, P, Q, B, R, H, C> {
    bound: Arc<Bound<F>>,
    /// The contract's declared error type, if any.
    declared: Option<DeclaredType>,
    types: Types<P, Q, B, R, H, C>,
}

impl<F, P, Q, B, R, H, C> Typed<F, P, Q, B, R, H, C> {
    /// The function's error as its contract answers it (error path only): its declared
    /// error recognised, an undeclared typed error hidden, an undeclared status warned about.
    fn answer_error(&self, error: Error) -> Error {
        let spec = &self.bound.spec;
        let error = spec.recognise(error, self.declared);
        self.bound.undeclared.check(spec, &error);
        error
    }
}

/// What a [`Handler`](super::Handler) holds: its function, called directly
/// ([`Handler::execute`](super::Handler::execute)) or by the pipeline.
pub(super) trait Call<P, Q, B, R, H, C>: Send + Sync + 'static {
    fn execute(&self, ctx: Ctx<P, Q, B, H, C>) -> BoxFuture<Result<R, Error>>;

    /// The function as the pipeline calls it, its contract declaring `declared`.
    fn for_pipeline(self: Arc<Self>, declared: Option<DeclaredType>) -> Arc<dyn CallHandler>
    where
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot,
        H: Slot,
        C: Slot;
}

impl<F, Fut, P, Q, B, R, H, C> Call<P, Q, B, R, H, C> for Bound<F>
where
    F: Fn(Ctx<P, Q, B, H, C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, Error>> + Send + 'static,
{
    fn execute(&self, ctx: Ctx<P, Q, B, H, C>) -> BoxFuture<Result<R, Error>> {
        Box::pin((self.f)(ctx))
    }

    fn for_pipeline(self: Arc<Self>, declared: Option<DeclaredType>) -> Arc<dyn CallHandler>
    where
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot,
        H: Slot,
        C: Slot,
    {
        Arc::new(Typed {
            bound: self,
            declared,
            types: PhantomData,
        })
    }
}

impl<F, Fut, P, Q, B, R, H, C> CallHandler for Typed<F, P, Q, B, R, H, C>
where
    F: Fn(Ctx<P, Q, B, H, C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, Error>> + Send + 'static,
    P: Slot,
    Q: Slot,
    B: Slot,
    R: Slot,
    H: Slot,
    C: Slot,
{
    /// The request's steps up to the function: params and query parsed now (a failure ends
    /// the request before anything is boxed for it), then the first stage — the body's
    /// reading, or the function at once when the contract has no body.
    fn call(self: Arc<Self>, req: Request) -> BoxFuture<Result<Response, Error>> {
        let Request {
            mut head,
            url,
            params,
            body,
            body_limit,
            remote,
            ..
        } = req;
        let spec = &self.bound.spec;
        let input = match parse_input::<P, Q, H, C>(&params, &head, spec) {
            Ok(parsed) => parsed,
            Err(error) => return Box::pin(ready(Err(error))),
        };
        let response = PipelineParts::new();
        let stage = match B::absent() {
            // No body to wait for: the function runs now.
            Some(none) => {
                let (body, parts) = ((none, Bytes::new()), response.handle());
                let ctx = Ctx::of_request(input, body, head, url, remote, parts);
                Stage::Running {
                    future: (self.bound.f)(ctx),
                }
            }
            None => match BodyReading::start(&mut head, body, body_limit, spec) {
                Ok(read) => Stage::Reading {
                    read,
                    head: Some(Head {
                        input,
                        head,
                        url,
                        remote,
                    }),
                },
                Err(error) => return Box::pin(ready(Err(error))),
            },
        };
        Box::pin(HandlerCall {
            stage,
            typed: self,
            response,
        })
    }
}

/// The routed request's params, query, header params and cookie params, parsed and
/// validated (400 `Validation failed`). Header and cookie params cost nothing to a contract
/// that declares none (a constant per type).
#[inline]
fn parse_input<P: Slot, Q: Slot, H: Slot, C: Slot>(
    params: &RawParams,
    head: &http::request::Parts,
    spec: &EndpointSpec,
) -> Result<(P, Q, H, C), Error> {
    Ok((
        decode::params::<P>(params)?,
        decode::query::<Q>(head.uri.query())?,
        decode::header_params::<H>(&head.headers, spec.header_names)?,
        decode::cookie_params::<C>(&head.headers, spec.cookie_names)?,
    ))
}

/// What the function's `Ctx` is made of, but the body.
struct Head<P, Q, H, C> {
    input: (P, Q, H, C),
    head: http::request::Parts,
    url: UrlCell,
    remote: Remote,
}

impl<P, Q, H, C> Head<P, Q, H, C> {
    /// The context, with the body and the bytes it was parsed from.
    fn into_ctx<B>(self, body: (B, Bytes), response: ResponseParts) -> Ctx<P, Q, B, H, C> {
        Ctx::of_request(self.input, body, self.head, self.url, self.remote, response)
    }
}

/// A request body being read, by its kind (a constant per body type, [`Slot::BODY`]).
enum BodyReading<B> {
    /// A JSON body: its bytes, collected within the limit, then parsed and validated here
    /// (the bytes are kept for [`Ctx::raw_body`]).
    Json(BodyRead),
    /// Any other kind (a multipart form, a byte stream): the type's own reader.
    Other(BodyFuture<B>),
}

impl<B: Slot> BodyReading<B> {
    /// Starts reading: a JSON body is refused here when its `Content-Type` is not JSON (415)
    /// or its declared length is over the limit (413).
    #[inline]
    fn start(
        head: &mut http::request::Parts,
        body: Body,
        limit: usize,
        spec: &EndpointSpec,
    ) -> Result<Self, Error> {
        if matches!(B::BODY, BodyKind::Json) {
            return decode::start_body(head, body, limit).map(Self::Json);
        }
        let input = BodyInput::new(&head.headers, body, limit, &spec.settings.field_limits);
        Ok(Self::Other(B::read_body(input)))
    }

    /// The body, with the bytes it was parsed from (none for a body that is not JSON).
    fn poll_body(&mut self, cx: &mut Context<'_>) -> Poll<Result<(B, Bytes), Error>> {
        Poll::Ready(match self {
            Self::Json(read) => decode::json_body::<B>(ready!(Pin::new(read).poll(cx))),
            Self::Other(read) => ready!(read.as_mut().poll(cx)).map(|body| (body, Bytes::new())),
        })
    }
}

pin_project_lite::pin_project! {
    /// Where a [`HandlerCall`] is: `Reading` → `Running` → done (the call has returned).
    #[project = StageProj]
    enum Stage<Fut, P, Q, B, H, C> {
        /// Reading the body; the parsed head waits for it (`None` once taken, when the body
        /// is read and the function is called).
        Reading { read: BodyReading<B>, head: Option<Head<P, Q, H, C>> },
        /// The function's future, whose `Ctx` now holds the head and the body.
        Running { #[pin] future: Fut },
    }
}

pin_project_lite::pin_project! {
    /// A routed request past its middleware: the body read, the function called, its value
    /// checked and answered — or the first error. One state machine, boxed once per
    /// request, with the function's future inline.
    struct HandlerCall<F, Fut, P, Q, B, R, H, C> {
        #[pin]
        stage: Stage<Fut, P, Q, B, H, C>,
        typed: Arc<Typed<F, P, Q, B, R, H, C>>,
        // What the handler sets through `ctx.response` (status, headers), read when it answers.
        response: PipelineParts,
    }
}

impl<F, Fut, P, Q, B, R, H, C> Future for HandlerCall<F, Fut, P, Q, B, R, H, C>
where
    F: Fn(Ctx<P, Q, B, H, C>) -> Fut,
    Fut: Future<Output = Result<R, Error>>,
    B: Slot,
    R: Slot,
{
    type Output = Result<Response, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        loop {
            match this.stage.as_mut().project() {
                // The body read (or refused): the function is called with it, and polled at
                // once in the next turn of the loop.
                StageProj::Reading { read, head } => {
                    let body = match ready!(read.poll_body(cx)) {
                        Ok(body) => body,
                        Err(error) => return Poll::Ready(Err(error)),
                    };
                    let head = head.take().expect("`HandlerCall` polled after completion");
                    let future = (this.typed.bound.f)(head.into_ctx(body, this.response.handle()));
                    this.stage.set(Stage::Running { future });
                }
                // The function's value checked and written, or its error as the contract
                // answers it.
            StageProj::Running { future } => {
                    let value = match ready!(future.poll(cx)) {
                        Ok(value) => value,
                        Err(error) => {
                            return Poll::Ready(Err(this.typed.answer_error(error)))
                        }
                    };
                    let spec = &this.typed.bound.spec;
                    // A constant per response type, as in `respond`.
                    return Poll::Ready(match R::FORMAT {
                        Format::EventStream => Ok(respond_streamed(spec, value, this.response)),
                        Format::Download => Ok(respond_download(spec, value, this.response)),
                        _ => respond(spec, &value, this.response, &this.typed.bound.answer_size),
                    });
                }
            }
        }
    }
}
