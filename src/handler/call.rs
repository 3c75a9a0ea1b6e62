//! How the pipeline runs a handler: parse, validate, call, check, serialise, in one boxed
//! future per request with the function's own future inside it.
//!
//! The function is kept with its type ([`Bound`]) until the request is routed, so that its
//! future needs no box of its own; and the future is written out ([`HandlerCall`]) rather than as
//! an `async` block, so that the request head held while the body is read and the function's
//! future (which holds the head again, in its `Ctx`) share their space.

use std::future::{ready, Future};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use bytes::Bytes;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use http::StatusCode;

use crate::context::{Ctx, ResponseParts};
use crate::contract::{BodyInput, BodyKind, EndpointSpec, Format, Presence, Slot};
use crate::decode::{self, BodyRead};
use crate::error::{Error, Rejection};
use crate::request::{BoxFuture, CallHandler, Remote, Request, UrlCell};
use crate::response::{EndingOnShutdown, EndsOnShutdown, Response, ResponseBody};
use crate::validation::details_from_rules;

use super::answer_size::AnswerSize;
use super::error_answer::UndeclaredStatuses;
use super::pipeline_parts::PipelineParts;

/// A function bound to its contract, with its type.
pub(super) struct Bound<F> {
    pub(super) f: F,
    pub(super) spec: Arc<EndpointSpec>,
    /// The size of the function's last JSON answer.
    pub(super) answer_size: AnswerSize,
    /// The `HttpError` statuses the contract does not declare, once warned about.
    pub(super) undeclared: UndeclaredStatuses,
}

impl<F> Bound<F> {
    /// The function's error as its contract answers it (error path only): its declared
    /// error recognised, an undeclared typed error hidden, an undeclared status warned about.
    fn answer_error(&self, error: Error) -> Error {
        let error = self.spec.recognise(error);
        self.undeclared.check(&self.spec, &error);
        error
    }
}

/// The contract's types, carried without being held.
type Types<P, Q, B, R> = PhantomData<fn(Ctx<P, Q, B>) -> R>;

/// A [`Bound`] function as the pipeline calls it: with its contract's types, which routing
/// erased.
struct Typed<F, P, Q, B, R> {
    bound: Arc<Bound<F>>,
    types: Types<P, Q, B, R>,
}

/// What a [`Handler`](super::Handler) holds: its function, called directly
/// ([`Handler::execute`](super::Handler::execute)) or by the pipeline.
pub(super) trait Call<P, Q, B, R>: Send + Sync + 'static {
    fn execute(&self, ctx: Ctx<P, Q, B>) -> BoxFuture<Result<R, Error>>;

    fn for_pipeline(self: Arc<Self>) -> Arc<dyn CallHandler>
    where
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot;
}

impl<F, Fut, P, Q, B, R> Call<P, Q, B, R> for Bound<F>
where
    F: Fn(Ctx<P, Q, B>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, Error>> + Send + 'static,
{
    fn execute(&self, ctx: Ctx<P, Q, B>) -> BoxFuture<Result<R, Error>> {
        Box::pin((self.f)(ctx))
    }

    fn for_pipeline(self: Arc<Self>) -> Arc<dyn CallHandler>
    where
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot,
    {
        Arc::new(Typed {
            bound: self,
            types: PhantomData,
        })
    }
}

impl<F, Fut, P, Q, B, R> CallHandler for Typed<F, P, Q, B, R>
where
    F: Fn(Ctx<P, Q, B>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, Error>> + Send + 'static,
    P: Slot,
    Q: Slot,
    B: Slot,
    R: Slot,
{
    fn call(self: Arc<Self>, req: Request) -> BoxFuture<Result<Response, Error>> {
        let Request {
            head,
            url,
            params,
            body,
            body_limit,
            remote,
            ..
        } = req;
        let parsed = decode::params::<P>(&params)
            .and_then(|params| Ok((params, decode::query::<Q>(head.uri.query())?)));
        let (params, query) = match parsed {
            Ok(parsed) => parsed,
            Err(error) => return Box::pin(ready(Err(error))),
        };
        let response = PipelineParts::new();
        let stage = match B::absent() {
            // No body to wait for: the function runs now.
            Some(none) => {
                let ctx = Ctx::of_request(
                    params,
                    query,
                    (none, Bytes::new()),
                    head,
                    url,
                    remote,
                    response.handle(),
                );
                Stage::Running {
                    future: (self.bound.f)(ctx),
                }
            }
            // A body type that is not JSON (a constant per type: a JSON body's future is
            // untouched): read by the type's own reader, then the function, as below.
            None if !matches!(B::BODY, BodyKind::Json) => {
                let read = B::read_body(BodyInput::new(
                    &head.headers,
                    body,
                    body_limit,
                    &self.bound.spec.settings.field_limits,
                ));
                let head = Head {
                    params,
                    query,
                    head,
                    url,
                    remote,
                };
                return Box::pin(async move {
                    let body = read.await?;
                    let ctx = head.into_ctx((body, Bytes::new()), response.handle());
                    let future = (self.bound.f)(ctx);
                    let stage = Stage::Running { future };
                    HandlerCall {
                        stage,
                        typed: self,
                        response,
                    }
                    .await
                });
            }
            None => match decode::start_body(&head.headers, body, body_limit) {
                Ok(read) => Stage::Reading {
                    read,
                    head: Some(Head {
                        params,
                        query,
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

/// What the function's `Ctx` is made of, but the body.
struct Head<P, Q> {
    params: P,
    query: Q,
    head: http::request::Parts,
    url: UrlCell,
    remote: Remote,
}

impl<P, Q> Head<P, Q> {
    /// The context, with the body and the bytes it was parsed from.
    fn into_ctx<B>(self, body: (B, Bytes), response: ResponseParts) -> Ctx<P, Q, B> {
        Ctx::of_request(
            self.params,
            self.query,
            body,
            self.head,
            self.url,
            self.remote,
            response,
        )
    }
}

pin_project_lite::pin_project! {
    #[project = StageProj]
    enum Stage<Fut, P, Q> {
        /// Reading the JSON body; the head waits for it.
        Reading { read: BodyRead, head: Option<Head<P, Q>> },
        /// The function's future.
        Running { #[pin] future: Fut },
    }
}

pin_project_lite::pin_project! {
    /// A routed request past its middleware: body, function, answer.
    struct HandlerCall<F, Fut, P, Q, B, R> {
        #[pin]
        stage: Stage<Fut, P, Q>,
        typed: Arc<Typed<F, P, Q, B, R>>,
        response: PipelineParts,
    }
}

impl<F, Fut, P, Q, B, R> Future for HandlerCall<F, Fut, P, Q, B, R>
where
    F: Fn(Ctx<P, Q, B>) -> Fut,
    Fut: Future<Output = Result<R, Error>>,
    B: Slot,
    R: Slot,
{
    type Output = Result<Response, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        loop {
            match this.stage.as_mut().project() {
                StageProj::Reading { read, head } => {
                    let body = match decode::json_body::<B>(ready!(Pin::new(read).poll(cx))) {
                        Ok(body) => body,
                        Err(error) => return Poll::Ready(Err(error)),
                    };
                    let head = head.take().expect("`HandlerCall` polled after completion");
                    let future = (this.typed.bound.f)(head.into_ctx(body, this.response.handle()));
                    this.stage.set(Stage::Running { future });
                }
                StageProj::Running { future } => {
                    let value = match ready!(future.poll(cx)) {
                        Ok(value) => value,
                        Err(error) => {
                            return Poll::Ready(Err(this.typed.bound.answer_error(error)))
                        }
                    };
                    let spec = &this.typed.bound.spec;
                    // A constant per response type, as in `respond`.
                    return Poll::Ready(match R::FORMAT {
                        Format::EventStream => Ok(respond_streamed(spec, value, this.response)),
                        _ => respond(spec, &value, this.response, &this.typed.bound.answer_size),
                    });
                }
            }
        }
    }
}

/// Checks the response value's rules and serialises it, once, straight to bytes.
pub(super) fn respond<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    parts: &mut PipelineParts,
    size: &AnswerSize,
) -> Result<Response, Error> {
    // A constant per response type: the JSON path keeps no branch.
    if !matches!(R::FORMAT, Format::Json) {
        return respond_raw(spec, value, parts);
    }
    if let Err(errors) = value.check() {
        let details = details_from_rules(&errors);
        tracing::error!(route = %spec.route, ?details, "response failed its rules");
        return Err(Rejection::ResponseValidationFailed.error().into());
    }
    let parts = parts.take();
    let status = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    let has_body = <R::Presence as Presence>::DECLARED
        && status != StatusCode::NO_CONTENT
        && status != StatusCode::NOT_MODIFIED;
    let body = if has_body {
        let mut json = size.buffer();
        serde_json::to_writer(&mut json, value).map_err(|e| {
            Rejection::ResponseSerializationFailed
                .error()
                .with_source(e)
        })?;
        size.record(json.len());
        Bytes::from(json)
    } else {
        Bytes::new()
    };
    let mut response = http::Response::new(ResponseBody::from(body));
    *response.status_mut() = status;
    if has_body {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        response.headers_mut().extend(parts.headers);
    }
    Ok(response)
}

/// The answer of a streamed response type ([`Events`](crate::sse::Events)): its body, sent as the
/// stream makes it, ended early if the server shuts down; headers the handler set win.
fn respond_streamed<R: Slot>(spec: &EndpointSpec, value: R, parts: &mut PipelineParts) -> Response {
    let parts = parts.take();
    let ends = EndsOnShutdown::default();
    let mut response = http::Response::new(ResponseBody::streamed(EndingOnShutdown {
        body: value.into_streamed().unwrap_or_default(),
        ends: ends.clone(),
    }));
    *response.status_mut() = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    response.extensions_mut().insert(ends);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        headers.extend(parts.headers);
    }
    response
}

/// [`respond`] for a response type that is not JSON ([`Text`](crate::contract::Text),
/// [`Binary`](crate::contract::Binary), [`Redirect`](crate::contract::Redirect)): its own body, content type and
/// `Location`; headers the handler set win.
fn respond_raw<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    parts: &mut PipelineParts,
) -> Result<Response, Error> {
    let parts = parts.take();
    let status = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    let raw = value.to_raw();
    let has_body = status != StatusCode::NO_CONTENT && status != StatusCode::NOT_MODIFIED;
    let mut response = http::Response::new(if has_body {
        ResponseBody::from(raw.body)
    } else {
        ResponseBody::empty()
    });
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let (true, Some(content_type)) = (has_body, raw.content_type) {
        headers.insert(CONTENT_TYPE, content_type);
    }
    if let Some(location) = raw.location {
        headers.insert(LOCATION, location);
    }
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        headers.extend(parts.headers);
    }
    Ok(response)
}
