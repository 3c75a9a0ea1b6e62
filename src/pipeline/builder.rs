//! [`PipelineBuilder`]: a pipeline's settings.

use std::fmt;
use std::sync::Arc;
#[cfg(feature = "server")]
use std::time::Duration;

use bytes::Bytes;

use super::formatting::{ErrorFormatting, Formatter};
use super::layers::{self, ApplyLayer, Layered};
use super::{Inner, Pipeline, PipelineService, RouteTable};
use crate::body::Body;
use crate::contract::{Security, SecurityScheme};
use crate::error::{BoxError, ConfigError, Error, RequestInfo};
use crate::handler::AnyHandler;
use crate::middleware::Middleware;
use crate::request::{IpNet, TrustedProxies};
use crate::response::ResponseBody;

/// Settings of a [`Pipeline`] — what every adapter gets: server-wide middleware, body limit,
/// error formatting, request timeout. (Connection settings are the server's:
/// `ServerOptions`.)
#[must_use = "call `.build()` to get the pipeline"]
pub struct PipelineBuilder {
    pub(super) handlers: Vec<AnyHandler>,
    pub(super) middleware: Vec<Middleware>,
    pub(super) body_limit: usize,
    pub(super) error_formatting: ErrorFormatting,
    pub(super) request_timeout: Option<std::time::Duration>,
    pub(super) trusted: Vec<IpNet>,
    /// Schemes verified before the pipeline sees the request.
    pub(super) verified_elsewhere: Vec<SecurityScheme>,
    /// Tower layers around every answer, innermost first.
    pub(super) layers: Vec<ApplyLayer>,
    /// [`PipelineBuilder::access_log`].
    pub(super) access_log: bool,
    /// [`PipelineBuilder::echo_request_id`].
    pub(super) echo_request_id: bool,
}

impl fmt::Debug for PipelineBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipelineBuilder")
            .field("handlers", &self.handlers)
            .field("body_limit", &self.body_limit)
            .field("request_timeout", &self.request_timeout)
            .field("trusted_proxies", &self.trusted)
            .field("verified_elsewhere", &self.verified_elsewhere)
            .field("layers", &self.layers.len())
            .finish_non_exhaustive()
    }
}

impl PipelineBuilder {
    /// Wraps the pipeline in a tower layer — tower-http's `CorsLayer`, `CompressionLayer`,
    /// `TraceLayer`, `SetResponseHeaderLayer`, a rate limit, your own — that sees every
    /// request the pipeline answers and every answer: routed requests, CORS preflights, 404s
    /// and 405s, errors included. Every adapter answers through the pipeline, so the layer
    /// holds on the native server, on the warp adapter and in the typed client's in-process
    /// transport alike. Each call wraps what the earlier ones built (the last added is
    /// outermost), as axum's `Router::layer` does.
    ///
    /// The request is routed before the layers run: a layer reads the route that matched
    /// from the request's [`MatchedPath`](super::MatchedPath) extension (absent for a 404),
    /// and a layer that rewrites the path does not change where the request goes. The layer's
    /// service answers any body of `Bytes` (a body of another type is streamed); when it
    /// fails (a `tower::timeout` elapsed, a `load_shed` refusal), the error is logged and
    /// answered `500` through the error formatter. The native server's own answers to heads
    /// it cannot parse (400, 431, 414) come before any request exists and do not pass through
    /// the layers. Layers cost one boxed future each per request; a pipeline without any
    /// pays nothing.
    ///
    /// ```
    /// use pactum::{handler, route, contract::NoContent, pipeline::Body, Endpoint, Pipeline};
    /// use tower_http::cors::CorsLayer;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let ping = Endpoint::get(route!("/ping")).build()?;
    /// let pipeline = Pipeline::builder(vec![handler(ping, |_| async { Ok(NoContent) }).into()])
    ///     .layer(CorsLayer::permissive())
    ///     .build()?;
    ///
    /// // A 404 carries the CORS headers too.
    /// let request = http::Request::get("/nowhere")
    ///     .header("origin", "https://app.example")
    ///     .body(Body::empty())?;
    /// let answer = pipeline.handle(request).await;
    /// assert_eq!(answer.status(), 404);
    /// assert_eq!(answer.headers()["access-control-allow-origin"], "*");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layer<L, B>(mut self, layer: L) -> Self
    where
        L: tower_layer::Layer<PipelineService> + Send + 'static,
        L::Service: tower_service::Service<http::Request<Body>, Response = http::Response<B>>
            + Clone
            + Send
            + Sync
            + 'static,
        <L::Service as tower_service::Service<http::Request<Body>>>::Future: Send + 'static,
        <L::Service as tower_service::Service<http::Request<Body>>>::Error: Into<BoxError>,
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        self.layers.push(Box::new(move |inner, pipeline| {
            PipelineService(Arc::new(Layered {
                service: layer.layer(inner),
                pipeline,
            }))
        }));
        self
    }

    /// Whether each request is logged once answered: one `tracing` event at INFO, target
    /// `pactum::access`, inside the request's span — which carries the method, the route
    /// template (`unmatched` for a 404 no route had), the client's address and the request id —
    /// with the `status`, the `latency_us` and, for an answer held whole, its body's `bytes`.
    /// Every request has one: routed ones, 404s, 405s, rejections, errors. On by default:
    /// `false` turns it off (the request span stays). Like every log, it costs nothing until a
    /// subscriber is set and its filter lets the `request` span through
    /// (`tracing-subscriber`; the server chapter shows plain and JSON output).
    ///
    /// The line is written when the answer's head is ready: a streamed body (events, a
    /// download) is still being sent, and its `bytes` are not known.
    pub fn access_log(mut self, on: bool) -> Self {
        self.access_log = on;
        self
    }

    /// Whether every answer carries the request's id in `x-request-id`
    /// ([`REQUEST_ID_HEADER`](super::REQUEST_ID_HEADER)), as tower-http's `PropagateRequestId`
    /// and dropshot do: the id a trusted proxy sent
    /// ([`trusted_proxies`](Self::trusted_proxies)), else the one generated for the request —
    /// the id on its span and access log line, so that a client's report finds the log.
    /// Routed requests, 404s, 405s, rejections and errors (through any error formatter) all
    /// carry it; an answer that sets `x-request-id` itself keeps its own. The server's own
    /// answers to heads it cannot parse come before any request (and id) exists.
    ///
    /// Off by default, for its cost: one more header to make, hash in and write costs about
    /// 900 instructions per request (8 % of the cheapest `GET`; `benches/README.md`), and
    /// pactum keeps the default path as cheap as a hand-written hyper server.
    ///
    /// ```
    /// use pactum::{pipeline::Body, Pipeline};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let pipeline = Pipeline::builder(vec![]).echo_request_id(true).build()?;
    /// let answer = pipeline.handle(http::Request::get("/nowhere").body(Body::empty())?).await;
    /// assert_eq!(answer.status(), 404);
    /// assert_eq!(answer.headers()["x-request-id"].len(), 16);
    ///
    /// let quiet = Pipeline::new(vec![])?;
    /// let answer = quiet.handle(http::Request::get("/nowhere").body(Body::empty())?).await;
    /// assert!(!answer.headers().contains_key("x-request-id"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn echo_request_id(mut self, on: bool) -> Self {
        self.echo_request_id = on;
        self
    }

    /// Adds server-wide middleware: it wraps every contract's own middleware, the first added
    /// outermost.
    pub fn middleware(mut self, middleware: Middleware) -> Self {
        self.middleware.push(middleware);
        self
    }

    /// The body limit for contracts that set none (default [`DEFAULT_BODY_LIMIT`](super::DEFAULT_BODY_LIMIT)).
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Replaces the built-in error body: `f` makes the answer for every error but a
    /// contract's declared errors ([`ErrorAnswer`](crate::error::ErrorAnswer)), which keep the body
    /// their contract promises. Its body is anything that makes a [`ResponseBody`]: `Bytes`,
    /// `String`, `Vec<u8>`, `&'static str`.
    pub fn error_formatter<F, B>(mut self, f: F) -> Self
    where
        F: Fn(&Error) -> http::Response<B> + Send + Sync + 'static,
        B: Into<ResponseBody>,
    {
        self.error_formatting.formatter = Some(Formatter::Plain(Arc::new(move |error: &Error| {
            f(error).map(Into::into)
        })));
        self
    }

    /// [`error_formatter`](Self::error_formatter) that also sees the request it answers: its
    /// method, path and id ([`RequestInfo`]) — for an RFC 9457 `instance`, or the request id
    /// in the error body (for the header, [`echo_request_id`](Self::echo_request_id) sets it
    /// on every answer). Every error answer gets it, a 404 made before routing too. Replaces
    /// an `error_formatter`, and is replaced by one.
    ///
    /// The view is copied out of each routed request (method, path, id) when this is set: a
    /// pipeline without it pays nothing.
    ///
    /// ```
    /// use pactum::{pipeline::Body, Pipeline};
    ///
    /// let pipeline = Pipeline::builder(vec![])
    ///     .error_formatter_with(|error, request| {
    ///         let mut answer = http::Response::new(format!(
    ///             "{} {}: {} (request {})",
    ///             request.method(),
    ///             request.path(),
    ///             error.to_body().error,
    ///             request.request_id(),
    ///         ));
    ///         *answer.status_mut() = error.status();
    ///         answer
    ///     })
    ///     .echo_request_id(true)
    ///     .build()?;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let request = http::Request::get("/nowhere").body(Body::empty())?;
    /// let response = pipeline.handle(request).await;
    /// assert_eq!(response.status(), 404);
    /// let id = response.headers()["x-request-id"].to_str()?;
    /// let text = format!("GET /nowhere: Not found (request {id})");
    /// assert_eq!(response.body().as_bytes(), Some(&text.into()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn error_formatter_with<F, B>(mut self, f: F) -> Self
    where
        F: Fn(&Error, &RequestInfo) -> http::Response<B> + Send + Sync + 'static,
        B: Into<ResponseBody>,
    {
        self.error_formatting.formatter = Some(Formatter::WithRequest(Arc::new(
            move |error: &Error, request: &RequestInfo| f(error, request).map(Into::into),
        )));
        self
    }

    /// With `true`, a plain error — anything a handler or middleware returned that is not an
    /// [`HttpError`](crate::HttpError) or a declared error, answered 500 — is answered
    /// `Internal server error` instead of its own message, which may tell too much (a SQL
    /// error, a file path). It is still logged in full, with its source chain. An error
    /// formatter then sees that replacement, not the original. `HttpError`s (a 500 made with
    /// [`HttpError::internal`](crate::HttpError::internal) too) and the pipeline's own
    /// answers are unchanged. Default `false`: the message is sent.
    ///
    /// ```
    /// use pactum::{handler, route, pipeline::Body, Endpoint, contract::NoContent, Pipeline};
    ///
    /// let save = Endpoint::post(route!("/save")).build()?;
    /// let failing = handler(save, |_| async {
    ///     Err::<NoContent, _>(std::io::Error::other("/var/db locked").into())
    /// });
    /// let pipeline = Pipeline::builder(vec![failing.into()])
    ///     .hide_internal_messages(true)
    ///     .build()?;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let response = pipeline.handle(http::Request::post("/save").body(Body::empty())?).await;
    /// assert_eq!(response.status(), 500);
    /// assert_eq!(response.body(), r#"{"error":"Internal server error"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hide_internal_messages(mut self, hide: bool) -> Self {
        self.error_formatting.hide_internal = hide;
        self
    }

    /// Answers `503 Request timeout` ([`Rejection::RequestTimeout`](crate::error::Rejection::RequestTimeout), through the error
    /// formatter) when a routed request — its middleware, body reading and handler — takes
    /// longer than `timeout`; the handler's future is dropped then. A body that never
    /// arrives, a handler that never answers, is answered at this timeout. Default
    /// [`DEFAULT_REQUEST_TIMEOUT`](super::DEFAULT_REQUEST_TIMEOUT) (30 s); `None` turns it off. Needs feature `server`
    /// (tokio's timer).
    ///
    /// The timer is set only when a request first waits, and counts the whole timeout from
    /// then: a request answered without waiting costs none.
    #[cfg(feature = "server")]
    #[cfg_attr(docsrs, doc(cfg(feature = "server")))]
    pub fn request_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.request_timeout = timeout.into();
        self
    }

    /// Believes the `Forwarded` and `X-Forwarded-For` headers of requests whose peer is one
    /// of `proxies` (addresses or ranges: `10.0.0.0/8`, `::1/128`): for them,
    /// [`Ctx::client_ip`](crate::Ctx::client_ip) is the rightmost forwarded address that is
    /// not itself a trusted proxy (`Forwarded`'s `for=` when that header is present, else
    /// `X-Forwarded-For`). Off by default — anyone can send these headers — and for every
    /// other peer: the client is the peer. A trusted proxy's `x-request-id` is the request's
    /// id too ([`echo_request_id`](Self::echo_request_id)); another peer's is replaced by a
    /// generated one. Calls add up.
    ///
    /// ```
    /// use pactum::{pipeline::IpNet, Pipeline};
    ///
    /// let lb: IpNet = "10.0.0.0/8".parse()?;
    /// let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    /// let pipeline = Pipeline::builder(vec![]).trusted_proxies([lb, loopback.into()]).build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trusted_proxies(mut self, proxies: impl IntoIterator<Item = IpNet>) -> Self {
        self.trusted.extend(proxies);
        self
    }

    /// Says that the credential of `security`'s scheme is verified before the pipeline sees
    /// the request — by a gateway, a tower layer around [`service`](crate::server::service),
    /// a warp filter before pactum's — so that contracts declaring it need no verifying
    /// middleware of their own.
    ///
    /// Without it, [`build`](Self::build) refuses a contract that declares a [`Security`]
    /// scheme unless a middleware or provider around its handler is marked as verifying it
    /// ([`Middleware::verifies`](crate::middleware::Middleware::verifies),
    /// [`Provider::verifies`](crate::middleware::Provider::verifies)):
    /// [`ConfigError::UnverifiedSecurity`]. It holds for every route of the pipeline that
    /// declares the scheme (matched by how the credential travels, not by name); the
    /// pipeline still answers 401 to a request that carries no credential.
    ///
    /// ```
    /// use pactum::{handler, route, contract::NoContent, Endpoint, Pipeline, Security};
    ///
    /// let me = Endpoint::get(route!("/me")).security(Security::bearer()).build()?;
    /// let me = handler(me, |_| async { Ok(NoContent) });
    ///
    /// // Nothing verifies the token: the pipeline does not start.
    /// let refused = Pipeline::new(vec![me.clone().into()]).unwrap_err();
    /// assert!(refused.to_string().contains("`GET /me`"));
    ///
    /// // The gateway in front of this service verifies it.
    /// let pipeline = Pipeline::builder(vec![me.into()])
    ///     .security_verified_elsewhere(Security::bearer())
    ///     .build()?;
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn security_verified_elsewhere(mut self, security: Security) -> Self {
        if !self.verified_elsewhere.contains(security.scheme()) {
            self.verified_elsewhere.push(security.scheme().clone());
        }
        self
    }

    /// Builds the route table.
    ///
    /// # Errors
    ///
    /// [`ConfigError::DuplicateRoute`] when two handlers share a method and route,
    /// [`ConfigError::ConflictingRoutes`] when two routes cannot be told apart
    /// (`/users/:id` and `/users/:name`), [`ConfigError::UnverifiedSecurity`] when a contract
    /// declares a security scheme that nothing verifies
    /// ([`security_verified_elsewhere`](Self::security_verified_elsewhere)).
    pub fn build(self) -> Result<Pipeline, ConfigError> {
        let table = RouteTable::new(
            self.handlers,
            &self.middleware,
            &self.verified_elsewhere,
            self.body_limit,
        )?;
        let layers = self.layers;
        Ok(Pipeline {
            inner: Arc::new_cyclic(|pipeline| Inner {
                table,
                error_formatting: self.error_formatting,
                request_timeout: self.request_timeout,
                trusted: (!self.trusted.is_empty()).then_some(TrustedProxies(self.trusted)),
                layers: layers::stack(layers, pipeline),
                access_log: self.access_log,
                echo_request_id: self.echo_request_id,
            }),
        })
    }
}
