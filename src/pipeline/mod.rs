//! The request pipeline every adapter shares: route → middleware → parse → validate →
//! handler → response check → serialise, and the mapping of every error to its answer.

mod builder;
mod catch_panic;
mod deadline;
mod formatting;
mod future;
mod layers;
mod path_index;
mod security_check;
mod table;

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use http::header::ALLOW;
use http::{Method, StatusCode};

pub use crate::body::Body;
use crate::error::{ConfigError, Error, Rejection, RequestInfo};
use crate::handler::AnyHandler;
use crate::middleware::Next;
use crate::request::{next_serial, request_id, EchoedId, Remote, Request, TrustedProxies};
pub use crate::response::{Response, ResponseBody};

#[doc(no_inline)]
pub use crate::request::IpNet;
pub use crate::request::{PeerAddr, REQUEST_ID_HEADER};
pub use builder::PipelineBuilder;
pub use layers::{MatchedPath, PipelineService, PipelineServiceFuture};
use catch_panic::CatchPanic;
use deadline::Deadline;
use formatting::ErrorFormatting;
pub use formatting::RequestErrorFormatter;
pub(crate) use future::HandleFuture;
use future::{strip_body, DispatchFuture, Traced, Work};
pub use table::Routed;
use table::{RouteTable, Target};

/// What [`serve`](crate::serve) and the other entry points accept as an application: a
/// handler list (a pipeline with default settings), a [`PipelineBuilder`], or a [`Pipeline`].
#[diagnostic::on_unimplemented(
    message = "not a pactum application: pass handlers, a `PipelineBuilder` or a `Pipeline`",
    label = "not a pactum application",
    note = "a warp filter is served with `pactum_warp::serve(filter, options)`, not `pactum::serve`"
)]
pub trait IntoPipeline {
    /// The pipeline.
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of [`PipelineBuilder::build`].
    fn into_pipeline(self) -> Result<Pipeline, ConfigError>;
}

impl IntoPipeline for Pipeline {
    fn into_pipeline(self) -> Result<Pipeline, ConfigError> {
        Ok(self)
    }
}

impl IntoPipeline for PipelineBuilder {
    fn into_pipeline(self) -> Result<Pipeline, ConfigError> {
        self.build()
    }
}

impl IntoPipeline for Vec<AnyHandler> {
    fn into_pipeline(self) -> Result<Pipeline, ConfigError> {
        Pipeline::new(self)
    }
}

/// Whether an answer carries its body. A `HEAD` request's does not: it gets the `GET`
/// answer's status, headers and `Content-Length`, without the body. Routing knows which
/// ([`Routed::answer_mode`]); [`Pipeline::answer`] applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerMode {
    /// The whole answer.
    WithBody,
    /// Status and headers only (`HEAD`).
    HeadersOnly,
}

impl AnswerMode {
    /// The mode for a request made with `method`.
    pub fn of(method: &Method) -> Self {
        if *method == Method::HEAD {
            Self::HeadersOnly
        } else {
            Self::WithBody
        }
    }
}

/// The route an unmatched request is logged with (its span's and access line's `route`).
const UNMATCHED: &str = "unmatched";

/// The default request body limit: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// The default request timeout: 30 s ([`PipelineBuilder::request_timeout`]; feature
/// `server`).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Formats every error answer in place of the built-in JSON body.
pub type ErrorFormatter = Arc<dyn Fn(&Error) -> Response + Send + Sync>;

/// The request pipeline, shared by every adapter: built once from a handler list, then cheap
/// to clone.
///
/// Adapters call [`Pipeline::handle`] (the whole request, errors answered), or
/// [`Pipeline::route`] then [`Pipeline::dispatch`] when they must tell "no route here" apart
/// (the warp adapter rejects it so that `.or()` composes).
///
/// ```
/// use pactum::{handler, route, pipeline::Body, Endpoint, Pipeline};
///
/// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
/// # struct Health { status: String }
/// let health = Endpoint::get(route!("/health")).response::<Health>().build()?;
/// let pipeline = Pipeline::new(vec![
///     handler(health, |_| async { Ok(Health { status: "ok".into() }) }).into(),
/// ])?;
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let request = http::Request::get("/health").body(Body::empty())?;
/// let response = pipeline.handle(request).await;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.body(), r#"{"status":"ok"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Pipeline {
    inner: Arc<Inner>,
}

struct Inner {
    table: RouteTable,
    error_formatting: ErrorFormatting,
    request_timeout: Option<Duration>,
    /// `None` unless proxies are trusted: then each request's forwarded client is resolved.
    trusted: Option<TrustedProxies>,
    /// [`PipelineBuilder::access_log`].
    access_log: bool,
    /// [`PipelineBuilder::echo_request_id`].
    echo_request_id: bool,
    /// The tower layers every request goes through ([`PipelineBuilder::layer`]).
    layers: Option<PipelineService>,
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let routes: Vec<_> = self
            .inner
            .table
            .routes
            .iter()
            .map(|r| (&*r.template, r.allow.clone()))
            .collect();
        f.debug_struct("Pipeline").field("routes", &routes).finish()
    }
}

impl Pipeline {
    /// A pipeline with default settings.
    ///
    /// # Errors
    ///
    /// See [`PipelineBuilder::build`].
    pub fn new(handlers: impl IntoIterator<Item = AnyHandler>) -> Result<Self, ConfigError> {
        Self::builder(handlers).build()
    }

    /// A pipeline with settings.
    pub fn builder(handlers: impl IntoIterator<Item = AnyHandler>) -> PipelineBuilder {
        PipelineBuilder {
            handlers: handlers.into_iter().collect(),
            middleware: Vec::new(),
            body_limit: DEFAULT_BODY_LIMIT,
            error_formatting: ErrorFormatting::default(),
            request_timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            trusted: Vec::new(),
            verified_elsewhere: Vec::new(),
            layers: Vec::new(),
            access_log: true,
            echo_request_id: false,
        }
    }

    /// Routes `method` and `path` (exact, case-sensitive, still percent-encoded). `None` when
    /// no route has this path: the caller answers 404 or, in a composable framework, passes.
    pub fn route(&self, method: &Method, path: &str) -> Option<Routed> {
        self.inner.table.lookup(method, path)
    }

    /// Runs a routed request: 405 / OPTIONS, then middleware → parse → validate → handler →
    /// response check → serialise. A panic becomes a 500 `Internal server error`. A HEAD runs
    /// the GET handler; finish every request with [`Pipeline::answer`], which formats errors
    /// and drops a HEAD answer's body.
    ///
    /// The request URL is rebuilt from the URI, the `Host` header, and a
    /// [`Scheme`](http::uri::Scheme) extension when the adapter inserted one (HTTPS servers do).
    ///
    /// # Errors
    ///
    /// Every failure as an [`Error`], for [`Pipeline::error_response`] or the adapter's own
    /// formatting. It has been logged already.
    pub fn dispatch(
        &self,
        routed: Routed,
        request: http::Request<Body>,
    ) -> impl Future<Output = Result<Response, Error>> + Send + 'static {
        let (head, body) = request.into_parts();
        self.dispatch_parts(routed, head, body, None)
    }

    /// [`Pipeline::dispatch`] for a request from `peer` ([`Ctx::peer_addr`](crate::Ctx::peer_addr)),
    /// when the adapter knows it: handed over as it is, without an extension to allocate.
    /// With `None`, a [`PeerAddr`] extension is looked for when asked.
    ///
    /// # Errors
    ///
    /// See [`Pipeline::dispatch`].
    pub fn dispatch_with_peer(
        &self,
        routed: Routed,
        request: http::Request<Body>,
        peer: Option<SocketAddr>,
    ) -> impl Future<Output = Result<Response, Error>> + Send + 'static {
        let (head, body) = request.into_parts();
        self.dispatch_parts(routed, head, body, peer)
    }

    /// [`Pipeline::dispatch_with_peer`] from the request's parts: through the layers when
    /// the pipeline has any.
    #[inline]
    fn dispatch_parts(
        &self,
        routed: Routed,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> DispatchFuture {
        match &self.inner.layers {
            None => self.dispatch_unlayered(routed, head, body, peer),
            Some(layers) => {
                DispatchFuture::layered(self.through_layers(layers, Some(routed), head, body, peer))
            }
        }
    }

    /// A routed request, dispatched inside the layers (or with none), its future nameable.
    fn dispatch_unlayered(
        &self,
        routed: Routed,
        mut head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> DispatchFuture {
        let entry = &self.inner.table.routes[routed.route];
        let (remote, request_info) = self.remote(&mut head, peer);
        let echo = self.echoed(&head.headers, &remote);
        // Until a subscriber is set, nobody can listen: no span (it would only feed tracing's
        // `log` fallback, which records span lifecycles at trace level), no clock read.
        let traced = if tracing::dispatcher::has_been_set() {
            self.traced(&head, &entry.template, &remote)
        } else {
            None
        };
        // What needs no waiting is done now, so that the future holds only what it awaits
        // (futures are moved as they are wrapped: the smaller, the cheaper).
        let work = {
            let _entered = traced.as_ref().map(|t| t.span.enter());
            match routed.target {
                Target::Options => {
                    let mut response = http::Response::new(ResponseBody::empty());
                    *response.status_mut() = StatusCode::NO_CONTENT;
                    response.headers_mut().insert(ALLOW, entry.allow.clone());
                    Work::Done(Ok(Box::new(response)))
                }
                Target::MethodNotAllowed => Work::Done(Err(Rejection::MethodNotAllowed
                    .error()
                    .with_header(ALLOW, entry.allow.clone())
                    .into())),
                Target::Handler(index) => {
                    let method = &entry.methods[index];
                    let request = Request {
                        url: OnceLock::new(),
                        head,
                        route: entry.template.clone(),
                        params: routed.params,
                        body,
                        body_limit: method.body_limit,
                        remote,
                    };
                    let handler = Arc::clone(&method.handler);
                    Work::Run(if method.chain.is_empty() {
                        CatchPanic::new(|| handler.call(request))
                    } else {
                        let next = Next::new(Arc::clone(&method.chain), handler);
                        CatchPanic::new(|| next.run(request))
                    })
                }
            }
        };
        let deadline = match work {
            Work::Run(_) => Deadline::start(self.inner.request_timeout),
            Work::Done(_) => None,
        };
        DispatchFuture {
            work: Some(work),
            deadline,
            traced,
            request_info,
            echo,
        }
    }

    /// Who sent the request (the forwarded client when the peer is a trusted proxy) with its
    /// serial, and the request's view when the error formatter asks for it.
    #[inline(always)]
    fn remote(
        &self,
        head: &mut http::request::Parts,
        peer: Option<SocketAddr>,
    ) -> (Remote, Option<Box<RequestInfo>>) {
        let mut remote = match &self.inner.trusted {
            None => Remote::new(peer, false),
            Some(trusted) => trusted.resolve(
                peer.or_else(|| Remote::default().peer(&head.extensions)),
                head,
            ),
        };
        remote.set_serial(next_serial());
        let request_info = self
            .inner
            .error_formatting
            .keeps_request()
            .then(|| info(head, &remote));
        (remote, request_info)
    }

    /// The id the answer echoes, when the pipeline echoes ids
    /// ([`PipelineBuilder::echo_request_id`]).
    #[inline]
    fn echoed(&self, headers: &http::HeaderMap, remote: &Remote) -> Option<Box<EchoedId>> {
        self.inner
            .echo_request_id
            .then(|| Box::new(EchoedId::of(headers, remote)))
    }

    /// The request's span (method, route, client, request id; status and latency once
    /// answered) and its start, when the subscriber wants the span.
    #[inline(never)]
    fn traced(
        &self,
        head: &http::request::Parts,
        route: &str,
        remote: &Remote,
    ) -> Option<Box<Traced>> {
        let span = tracing::info_span!(
            "request",
            method = %head.method,
            route = %route,
            client = tracing::field::Empty,
            request_id = %request_id(&head.headers, remote),
            status = tracing::field::Empty,
            latency_us = tracing::field::Empty,
        );
        if let Some(client) = remote.client_ip(&head.extensions) {
            span.record("client", tracing::field::display(client));
        }
        (!span.is_disabled()).then(|| {
            Box::new(Traced {
                span,
                started: Instant::now(),
                access_log: self.inner.access_log,
            })
        })
    }

    /// A request no route matched: answered 404 through the same future as a routed one, so
    /// that it has its span and its access log line (when a subscriber is set), its id
    /// echoed, and its view for the error formatter.
    #[cold]
    #[inline(never)]
    fn unmatched(
        &self,
        mut head: http::request::Parts,
        peer: Option<SocketAddr>,
        mode: AnswerMode,
    ) -> HandleFuture {
        let (remote, request_info) = self.remote(&mut head, peer);
        let traced = tracing::dispatcher::has_been_set()
            .then(|| self.traced(&head, UNMATCHED, &remote))
            .flatten();
        let echo = self.echoed(&head.headers, &remote);
        let error: Error = Rejection::NotFound.error().into();
        HandleFuture {
            dispatched: Some(DispatchFuture {
                work: Some(Work::Done(Err(error))),
                deadline: None,
                traced,
                request_info,
                echo,
            }),
            pipeline: self.clone(),
            mode,
        }
    }

    /// Answers a whole request: 404 when no route matches, every error formatted.
    pub fn handle(
        &self,
        request: http::Request<Body>,
    ) -> impl Future<Output = Response> + Send + 'static {
        let (head, body) = request.into_parts();
        self.handle_parts(head, body, None)
    }

    /// [`Pipeline::handle`] from the request's parts and its peer, its future nameable (the
    /// native service holds it unboxed).
    #[inline]
    pub(crate) fn handle_parts(
        &self,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> HandleFuture {
        let routed = self.route(&head.method, head.uri.path());
        self.handle_routed(routed, head, body, peer)
    }

    /// Answers `404` as this pipeline answers a path it has no route for — through its
    /// layers ([`PipelineBuilder::layer`]) and its error formatter — without routing
    /// `request`: for an adapter's catch-all after other routes (the warp adapter's
    /// `not_found_with`), where the path may mean something else to this pipeline.
    pub fn not_found(
        &self,
        request: http::Request<Body>,
    ) -> impl Future<Output = Response> + Send + 'static {
        let (head, body) = request.into_parts();
        self.handle_routed(None, head, body, None)
    }

    /// A request routed already (`None`: no route), through the layers when there are any.
    #[inline]
    fn handle_routed(
        &self,
        routed: Option<Routed>,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> HandleFuture {
        match &self.inner.layers {
            None => self.handle_unlayered(routed, head, body, peer),
            Some(layers) => self.handle_layered(layers, routed, head, body, peer),
        }
    }

    /// [`Pipeline::handle_parts`] once routed, inside the layers (or with none).
    #[inline]
    pub(super) fn handle_unlayered(
        &self,
        routed: Option<Routed>,
        head: http::request::Parts,
        body: Body,
        peer: Option<SocketAddr>,
    ) -> HandleFuture {
        let mode = AnswerMode::of(&head.method);
        let dispatched = match routed {
            Some(routed) => Some(self.dispatch_unlayered(routed, head, body, peer)),
            None if self.inner.echo_request_id
                || self.inner.error_formatting.keeps_request()
                || tracing::dispatcher::has_been_set() =>
            {
                return self.unmatched(head, peer, mode);
            }
            // Nothing to know of the request: the plain 404.
            None => None,
        };
        HandleFuture {
            dispatched,
            pipeline: self.clone(),
            mode,
        }
    }

    /// The answer to a request: the response, or the error formatted by
    /// [`Pipeline::error_response`]; with [`AnswerMode::HeadersOnly`] (a `HEAD` request, as
    /// [`Routed::answer_mode`] says), headers and length without the body.
    #[inline]
    pub fn answer(&self, mode: AnswerMode, result: Result<Response, Error>) -> Response {
        let mut response = result.unwrap_or_else(|error| self.error_response(&error));
        if mode == AnswerMode::HeadersOnly {
            strip_body(&mut response);
        }
        response
    }

    /// The answer for `error`: the configured formatter's, else the built-in JSON body. A
    /// contract's declared error ([`Error::is_declared`]) is always answered with its own
    /// body: clients and the API's documentation rely on it. With
    /// [`PipelineBuilder::hide_internal_messages`], a plain error (not an
    /// [`HttpError`](crate::HttpError)) is answered as `500 Internal server error`.
    pub fn error_response(&self, error: &Error) -> Response {
        let mut response = self.inner.error_formatting.response(error);
        if self.inner.echo_request_id {
            echo_in_error(error, &mut response);
        }
        response
    }
}

/// The error formatter's view of a request ([`RequestInfo`]).
fn info(head: &http::request::Parts, remote: &Remote) -> Box<RequestInfo> {
    Box::new(RequestInfo {
        method: head.method.clone(),
        path: head.uri.path().to_owned(),
        request_id: request_id(&head.headers, remote).into_owned(),
    })
}

/// Sets the request id an error carries ([`Error::request`]) on its formatted answer, unless
/// the formatter set one.
fn echo_in_error(error: &Error, response: &mut Response) {
    let id = error.request().map_or("", RequestInfo::request_id);
    if id.is_empty() || response.headers().contains_key(REQUEST_ID_HEADER) {
        return;
    }
    if let Ok(value) = http::HeaderValue::from_str(id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
}
