//! Tower layers around a pipeline ([`PipelineBuilder::layer`](super::PipelineBuilder::layer)):
//! they see every request the pipeline answers — routed ones, CORS preflights, 404s, 405s —
//! on every adapter, since every adapter answers through the pipeline.
//!
//! The request is routed before the layers run, so that they can read the route that matched
//! ([`MatchedPath`]); what routing found rides along in an extension, and the pipeline inside
//! the layers dispatches it without routing again. Layers are type-erased, one boxed future
//! per layer and request; a pipeline without layers pays one branch.

use std::any::Any;
use std::convert::Infallible;
use std::fmt;
use std::future::{poll_fn, Future};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};

use bytes::Bytes;

use super::catch_panic::CatchPanic;
use super::future::{DispatchFuture, HandleFuture, Work};
use super::{AnswerMode, Inner, Pipeline, Routed};
use crate::body::Body;
use crate::error::{BoxError, Error, HttpError};
use crate::request::{BoxFuture, PeerAddr};
use crate::response::{Response, ResponseBody};
use crate::route::RouteName;

/// The template of the route that matched a request (`/users/:id`), as written in its
/// contract: a request extension that the pipeline's layers
/// ([`PipelineBuilder::layer`](super::PipelineBuilder::layer)) can read, for metrics or logs
/// per route (the label that does not grow with ids), like axum's `MatchedPath`. Absent when no
/// route matched (a 404). Also on the response's extensions, from the pipeline inside the
/// layers out, for layers that look there (tower-http's `TraceLayer::on_response`).
///
/// ```
/// use pactum::pipeline::MatchedPath;
///
/// fn route_label(request: &http::Request<pactum::pipeline::Body>) -> &str {
///     request
///         .extensions()
///         .get::<MatchedPath>()
///         .map_or("unmatched", MatchedPath::as_str)
/// }
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct MatchedPath(RouteName);

impl MatchedPath {
    /// The route template.
    pub fn as_str(&self) -> &str {
        self.0.as_ref()
    }
}

impl fmt::Debug for MatchedPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MatchedPath").field(&self.as_str()).finish()
    }
}

impl fmt::Display for MatchedPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What routing found (`None`: no route, a 404), carried through the layers to the pipeline
/// inside them. A request without it (a layer made a new one) is routed again.
#[derive(Clone)]
struct RoutedBy(Option<Routed>);

/// The service the pipeline's layers wrap, and the type each layer must give back: pactum's
/// request and response, type-erased. A layer whose service answers another body type, or
/// fails, is adapted by [`PipelineBuilder::layer`](super::PipelineBuilder::layer).
#[derive(Clone)]
pub struct PipelineService(pub(super) Arc<dyn Call>);

impl fmt::Debug for PipelineService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PipelineService")
    }
}

/// The future of [`PipelineService`].
pub type PipelineServiceFuture = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

impl tower_service::Service<http::Request<Body>> for PipelineService {
    type Response = Response;
    type Error = Infallible;
    type Future = PipelineServiceFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        self.0.call(request)
    }
}

/// A service called through a shared reference.
pub(super) trait Call: Send + Sync {
    fn call(&self, request: http::Request<Body>) -> PipelineServiceFuture;
}

/// The innermost service: the pipeline itself (held weakly: the pipeline holds its layers).
struct Unlayered(Weak<Inner>);

impl Call for Unlayered {
    fn call(&self, request: http::Request<Body>) -> PipelineServiceFuture {
        let Some(inner) = self.0.upgrade() else {
            // The pipeline is gone: only a request that outlived every handle to it.
            let error: Error = HttpError::service_unavailable("Server shutting down").into();
            return Box::pin(std::future::ready(Ok(error.to_response())));
        };
        let pipeline = Pipeline { inner };
        let (mut head, body) = request.into_parts();
        let routed = match head.extensions.remove::<RoutedBy>() {
            Some(RoutedBy(routed)) => routed,
            None => pipeline.route(&head.method, head.uri.path()),
        };
        let peer = head.extensions.get::<PeerAddr>().map(|peer| peer.0);
        // On the answer from here out, so that every layer sees it on the way back.
        let matched = head.extensions.get::<MatchedPath>().cloned();
        let answer: HandleFuture = pipeline.handle_unlayered(routed, head, body, peer);
        Box::pin(async move {
            let mut response = answer.await;
            if let Some(matched) = matched {
                response.extensions_mut().insert(matched);
            }
            Ok(response)
        })
    }
}

/// A layer's service, called as tower asks: a clone per request, ready before called.
pub(super) struct Layered<S> {
    pub(super) service: S,
    /// The pipeline's error answers, for a layer that fails (weak, as for [`Unlayered`]).
    pub(super) pipeline: Weak<Inner>,
}

impl<S, B> Call for Layered<S>
where
    S: tower_service::Service<http::Request<Body>, Response = http::Response<B>>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    fn call(&self, request: http::Request<Body>) -> PipelineServiceFuture {
        let mut service = self.service.clone();
        let pipeline = self.pipeline.clone();
        Box::pin(async move {
            let ready = poll_fn(|cx| service.poll_ready(cx)).await.map_err(Into::into);
            let answer = match ready {
                Ok(()) => service.call(request).await.map_err(Into::into),
                Err(error) => Err(error),
            };
            Ok(match answer {
                Ok(response) => response.map(into_response_body),
                Err(error) => {
                    let error = Error::from_boxed(error);
                    error.log();
                    match pipeline.upgrade() {
                        Some(inner) => Pipeline { inner }.error_response(&error),
                        None => error.to_response(),
                    }
                }
            })
        })
    }
}

/// `body` as pactum's body: as it is when it is one already (most layers keep the body type),
/// else streamed.
fn into_response_body<B>(body: B) -> ResponseBody
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let mut slot = Some(body);
    if let Some(same) = (&mut slot as &mut dyn Any).downcast_mut::<Option<ResponseBody>>() {
        if let Some(body) = same.take() {
            return body;
        }
    }
    match slot {
        Some(body) => ResponseBody::streamed(body),
        None => ResponseBody::empty(),
    }
}

/// One layer's application, kept until the pipeline is built.
pub(super) type ApplyLayer = Box<dyn FnOnce(PipelineService, Weak<Inner>) -> PipelineService + Send>;

/// The layers applied in order around the pipeline `inner` will be.
pub(super) fn stack(layers: Vec<ApplyLayer>, inner: &Weak<Inner>) -> Option<PipelineService> {
    if layers.is_empty() {
        return None;
    }
    let innermost = PipelineService(Arc::new(Unlayered(inner.clone())));
    Some(
        layers
            .into_iter()
            .fold(innermost, |service, apply| apply(service, inner.clone())),
    )
}

impl DispatchFuture {
    /// A request answered by the pipeline's layers, which answer it whole (errors formatted
    /// inside; a layer's panic is a 500, as a handler's). No deadline or span of its own: the
    /// pipeline inside the layers has them.
    pub(super) fn layered(answer: PipelineServiceFuture) -> Self {
        let answer: BoxFuture<Result<Response, Error>> = Box::pin(async move {
            match answer.await {
                Ok(response) => Ok(response),
                Err(never) => match never {},
            }
        });
        Self {
            work: Some(Work::Run(CatchPanic::new(|| answer))),
            deadline: None,
            traced: None,
            request_info: None,
            echo: None,
        }
    }
}

impl Pipeline {
    /// [`Pipeline::handle`]'s future for a request answered through the layers.
    #[cold]
    #[inline(never)]
    pub(super) fn handle_layered(
        &self,
        layers: &PipelineService,
        routed: Option<Routed>,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> HandleFuture {
        let mode = AnswerMode::of(&head.method);
        let answer = self.through_layers(layers, routed, head, body, peer);
        HandleFuture {
            dispatched: Some(DispatchFuture::layered(answer)),
            pipeline: self.clone(),
            mode,
        }
    }

    /// Runs the request through the layers, routed already (`routed`: `None` for a 404).
    #[cold]
    #[inline(never)]
    pub(super) fn through_layers(
        &self,
        layers: &PipelineService,
        routed: Option<Routed>,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> PipelineServiceFuture {
        let mut request = http::Request::from_parts(head, body);
        let extensions = request.extensions_mut();
        if let Some(routed) = &routed {
            let template = self.inner.table.routes[routed.route].template.clone();
            extensions.insert(MatchedPath(template));
        }
        extensions.insert(RoutedBy(routed));
        if let Some(peer) = peer {
            extensions.insert(PeerAddr(peer));
        }
        layers.0.call(request)
    }
}
