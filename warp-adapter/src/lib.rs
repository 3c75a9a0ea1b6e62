//! Serve [pactum] contracts as [warp] 0.4 filters.
//!
//! [`filter`] turns a handler list into a warp [`Filter`] that runs pactum's one request
//! pipeline — routing, middleware, body reading and limits, validation, the handler, the
//! response check and the error answers — so a request gets the same answer here as from
//! pactum's native server. The adapter only converts warp's request into the pipeline's input
//! and the pipeline's response into warp's reply.
//!
//! The filter composes like any warp filter:
//!
//! - it matches relative to where it is mounted: `warp::path("api").and(filter)` serves the
//!   contract `/users/:id` at `/api/users/:id`;
//! - a request whose path no route of the list has is rejected with
//!   [`warp::reject::not_found()`], so `.or()`, a catch-all and other filters come next;
//! - it reads the body itself, as a stream: no `warp::body::json()` step, the pipeline's
//!   `Content-Type` check (415) and size limits (413) apply;
//! - errors are answered with pactum's JSON body, or, with
//!   [`Options::reject_errors`], turned into a [`PactumRejection`] for a later `.recover()`
//!   ([`recover`] is a ready-made one).
//!
//! # Example
//!
//! ```no_run
//! use pactum::{handler, route, Endpoint};
//! use warp::Filter;
//!
//! #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
//! struct Health {
//!     status: String,
//! }
//!
//! # #[cfg(feature = "server")]
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let health = Endpoint::get(route!("/health")).response::<Health>().build()?;
//!     let api = pactum_warp::filter(vec![
//!         handler(health, |_| async { Ok(Health { status: "ok".into() }) }).into(),
//!     ])?;
//!
//!     // GET /api/health → 200 {"status":"ok"}; anything else under /api → 404.
//!     let app = warp::path("api")
//!         .and(api)
//!         .with(warp::cors().allow_any_origin())
//!         .with(warp::log("api"));
//!
//!     // warp's own server sets no header read timeout; pactum's native server does.
//!     let server = pactum_warp::serve(app, pactum::ServerOptions::new().port(3000)).await?;
//!     server.shutdown_on_signal().await;
//!     Ok(())
//! }
//! # #[cfg(not(feature = "server"))]
//! # fn main() {}
//! ```
//!
//! # Settings
//!
//! Server-wide middleware, the body limit and the error formatter are settings of the
//! [`Pipeline`]: build one with [`Pipeline::builder`] and pass it to [`filter_with`].
//!
//! # Features
//!
//! - `server` (default): `serve`, a filter on pactum's native server with its hardened
//!   connection settings (enables `pactum/server`).
//! - `http2` (default): HTTP/2 under `serve` (enables `pactum/http2`).
//! - `tls`: HTTPS for `serve`, with `pactum::ServerOptions::https` (enables `pactum/tls`).
//!
//! [pactum]: https://docs.rs/pactum
//! [warp]: https://docs.rs/warp
#![cfg_attr(docsrs, feature(doc_cfg))]

mod answering;
mod body;
mod rejection;
mod reply;
#[cfg(feature = "server")]
mod serve;

use std::net::SocketAddr;
use std::sync::OnceLock;

use http::uri::Scheme;
use http::{HeaderMap, Method};
use pactum::{error::ConfigError, pipeline::Body, pipeline::Routed, Error, HttpError, Pipeline};
use warp::filters::path::{FullPath, Tail};
use warp::reject::Rejection;
use warp::reply::Response;
use warp::Filter;

use answering::Answering;

pub use rejection::{recover, PactumRejection};
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub use serve::serve;

/// Builds the pipeline for `handlers` and returns it as a warp filter that answers errors
/// with pactum's JSON body.
///
/// The filter extracts one [`Response`]. It rejects with [`warp::reject::not_found()`] when
/// no route of `handlers` has the request's path (relative to where the filter is mounted);
/// every other request — including 405 and `OPTIONS` for a known path, and `HEAD` for a
/// `GET` route — is answered by the pipeline.
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::NoContent};
/// use warp::Filter;
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let api = pactum_warp::filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()])?;
/// let app = warp::path("api").and(api); // GET /api/ping → 204
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
///
/// # Errors
///
/// The [`ConfigError`] of [`Pipeline::new`]: two handlers with the same method and route,
/// routes that cannot be told apart, or a declared security scheme that nothing verifies
/// ([`ConfigError::UnverifiedSecurity`]).
pub fn filter(
    handlers: impl IntoIterator<Item = pactum::handler::AnyHandler>,
) -> Result<
    impl Filter<Extract = (Response,), Error = Rejection> + Clone + Send + Sync + 'static,
    ConfigError,
> {
    Options::new().filter(handlers)
}

/// Like [`filter`], for a pipeline built with settings: server-wide middleware, a body
/// limit, an error formatter ([`Pipeline::builder`]).
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::NoContent, Pipeline};
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let pipeline = Pipeline::builder(vec![handler(ping, |_| async { Ok(NoContent) }).into()])
///     .body_limit(64 * 1024)
///     .build()?;
/// let api = pactum_warp::filter_with(pipeline);
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
pub fn filter_with(
    pipeline: Pipeline,
) -> impl Filter<Extract = (Response,), Error = Rejection> + Clone + Send + Sync + 'static {
    Options::new().filter_with(pipeline)
}

/// How the filter answers errors; [`Options::filter`] / [`Options::filter_with`] build it.
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::NoContent};
/// use warp::Filter;
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let api = pactum_warp::Options::new()
///     .reject_errors(true)
///     .filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()])?
///     .recover(pactum_warp::recover); // or your own recover, see `PactumRejection`
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use = "call `.filter(..)` or `.filter_with(..)` to get the filter"]
pub struct Options {
    reject_errors: bool,
}

impl Options {
    /// The defaults: errors are answered with the pipeline's JSON body (or its configured
    /// error formatter's).
    pub fn new() -> Self {
        Self::default()
    }

    /// When `true`, an error of a request that a route of the list matched — validation,
    /// 405, 413, 415, middleware or handler errors, a panic — is not answered but rejected
    /// with a [`PactumRejection`] carrying the [`pactum::Error`], for a `.recover()` placed
    /// after the filter. [`recover`] answers it with the built-in body.
    ///
    /// Place the `.recover()` before any `.or()` branch that would accept the request (such
    /// as a catch-all 404): warp tries the next branch on every rejection.
    pub fn reject_errors(mut self, yes: bool) -> Self {
        self.reject_errors = yes;
        self
    }

    /// Builds the pipeline for `handlers` and returns the filter; see [`filter`].
    ///
    /// # Errors
    ///
    /// The [`ConfigError`] of [`Pipeline::new`].
    pub fn filter(
        self,
        handlers: impl IntoIterator<Item = pactum::handler::AnyHandler>,
    ) -> Result<
        impl Filter<Extract = (Response,), Error = Rejection> + Clone + Send + Sync + 'static,
        ConfigError,
    > {
        Ok(self.filter_with(Pipeline::new(handlers)?))
    }

    /// Returns the filter for a built pipeline; see [`filter_with`].
    pub fn filter_with(
        self,
        pipeline: Pipeline,
    ) -> impl Filter<Extract = (Response,), Error = Rejection> + Clone + Send + Sync + 'static {
        let router = pipeline.clone();
        let reject_errors = self.reject_errors;
        // Route first, on the path relative to the mount point, and take nothing from the
        // request before a route matched: a rejection leaves the body to the next filter.
        //
        // The filters are nested to the right (`a.and(b.and(c))`) and what routing found is
        // boxed: warp moves every extract, and every future before it, along its `And` chain,
        // and a right-nested chain with small extracts moves the least (peer_load: about 250
        // instructions per request fewer than the same filters one after the other).
        warp::method()
            .and(warp::path::full().and(warp::path::tail()))
            .and_then(move |method: Method, path: FullPath, tail: Tail| {
                let routed = router.route(&method, &mount_relative(&path, &tail));
                std::future::ready(match routed {
                    Some(routed) => Ok(Box::new(Matched {
                        method,
                        routed,
                        path,
                    })),
                    None => Err(warp::reject::not_found()),
                })
            })
            // The request's other parts: the query, the scheme and peer (warp's own server's
            // peer, else the `PeerAddr` extension pactum's native server inserts, `serve`),
            // the body as a stream and the headers.
            .and(
                raw_query().and(
                    warp::ext::optional::<Scheme>().and(
                        warp::addr::remote().and(
                            warp::ext::optional::<pactum::pipeline::PeerAddr>()
                                .and(warp::body::stream().and(warp::header::headers_cloned())),
                        ),
                    ),
                ),
            )
            .and_then(
                move |matched: Box<Matched>,
                      query: Option<String>,
                      scheme: Option<Scheme>,
                      remote: Option<SocketAddr>,
                      native: Option<pactum::pipeline::PeerAddr>,
                      stream,
                      headers: HeaderMap| {
                    let Matched {
                        method,
                        routed,
                        path,
                    } = *matched;
                    let peer = remote.or(native.map(|pactum::pipeline::PeerAddr(addr)| addr));
                    let mode = routed.answer_mode();
                    let request = build_request(
                        method,
                        &path,
                        query,
                        headers,
                        scheme,
                        Body::new(body::StreamBody::new(stream)),
                    );
                    let dispatched =
                        request.map(|request| pipeline.dispatch_with_peer(routed, request, peer));
                    Answering::new(dispatched, pipeline.clone(), mode, reject_errors)
                },
            )
    }
}

/// A request a route matched: what routing took from it (boxed along the chain).
struct Matched {
    method: Method,
    routed: Routed,
    path: FullPath,
}

/// A catch-all that answers every request `404` with pactum's JSON body,
/// `{"error":"Not found"}` (headers only for `HEAD`) — what the native server answers when no
/// route matches. Put it last, after every `.or()` branch.
///
/// The filters of this crate reject a request that no route of their list matches, so that
/// other filters get it; warp's own answer for an unhandled not-found rejection is an empty
/// 404. This filter makes the answer the same as the native server's. It uses the built-in
/// body: to answer through a pipeline's error formatter and layers, use [`not_found_with`].
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::NoContent};
/// use warp::Filter;
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let api = pactum_warp::filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()])?;
/// let app = warp::path("api").and(api).or(pactum_warp::not_found());
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
pub fn not_found(
) -> impl Filter<Extract = (Response,), Error = std::convert::Infallible> + Clone + Send + Sync + 'static
{
    not_found_with(no_routes())
}

/// [`not_found`] answered as `pipeline` answers a path it has no route for: through its
/// error formatter and its layers (`PipelineBuilder::layer`: a CORS layer's headers on the
/// 404, as on the native server). The request is not routed by `pipeline`: a path that
/// reached the catch-all means nothing here, even one a route of `pipeline` would match
/// under another mount point.
///
/// ```
/// use pactum::{handler, route, Endpoint, Pipeline, contract::NoContent};
/// use warp::Filter;
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let pipeline = Pipeline::builder(vec![handler(ping, |_| async { Ok(NoContent) }).into()])
///     .layer(tower_http::cors::CorsLayer::permissive())
///     .build()?;
/// let app = pactum_warp::filter_with(pipeline.clone()).or(pactum_warp::not_found_with(&pipeline));
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
pub fn not_found_with(
    pipeline: &Pipeline,
) -> impl Filter<Extract = (Response,), Error = std::convert::Infallible> + Clone + Send + Sync + 'static
{
    let pipeline = pipeline.clone();
    // The peer, as the routed filter finds it: warp's own server's, else the one pactum's
    // server inserts (for the client in the access log).
    let peer = warp::addr::remote()
        .and(warp::ext::optional::<pactum::pipeline::PeerAddr>())
        .map(
            |remote: Option<SocketAddr>, native: Option<pactum::pipeline::PeerAddr>| {
                remote.map(pactum::pipeline::PeerAddr).or(native)
            },
        );
    warp::method()
        .and(warp::path::full().and(warp::header::headers_cloned().and(peer)))
        .then(
            move |method: Method,
                  path: FullPath,
                  headers: HeaderMap,
                  peer: Option<pactum::pipeline::PeerAddr>| {
                let mut request = http::Request::new(Body::empty());
                *request.method_mut() = method;
                if let Ok(uri) = path.as_str().parse() {
                    *request.uri_mut() = uri;
                }
                *request.headers_mut() = headers;
                if let Some(peer) = peer {
                    request.extensions_mut().insert(peer);
                }
                let answer = pipeline.not_found(request);
                async move { reply::into_warp(answer.await) }
            },
        )
}

/// A pipeline without routes: it answers every request with its JSON 404.
pub(crate) fn no_routes() -> &'static Pipeline {
    static NO_ROUTES: OnceLock<Pipeline> = OnceLock::new();
    NO_ROUTES.get_or_init(|| Pipeline::new(Vec::new()).expect("a pipeline without routes builds"))
}

/// The raw query string, `None` when the URI has no `?`.
fn raw_query() -> impl Filter<Extract = (Option<String>,), Error = std::convert::Infallible> + Copy
{
    warp::query::raw()
        .map(Some)
        .or(warp::any().map(|| None))
        .unify()
}

/// The request's path relative to where the filter is mounted: the unmatched `tail` after a
/// `/`. Borrowed from the full path when it ends with `/` and the tail (a filter mounted at the
/// root, or a prefix ending in `/`): no allocation for the usual mounts.
fn mount_relative<'a>(path: &'a FullPath, tail: &Tail) -> std::borrow::Cow<'a, str> {
    let (full, tail) = (path.as_str(), tail.as_str());
    match full.strip_suffix(tail) {
        Some(head) if head.ends_with('/') => std::borrow::Cow::Borrowed(&full[head.len() - 1..]),
        // `OPTIONS *` (the asterisk form: no path at all), which the pipeline answers.
        _ if full == "*" => std::borrow::Cow::Borrowed(full),
        _ => std::borrow::Cow::Owned(format!("/{tail}")),
    }
}

/// The longest URI `http` parses (its own `MAX_LEN`).
const MAX_URI_LEN: usize = u16::MAX as usize - 1;

/// The pipeline's request: the full URI (not the mount-relative path), so that `ctx.url()` is
/// the URL the client asked for.
fn build_request(
    method: Method,
    path: &FullPath,
    query: Option<String>,
    headers: HeaderMap,
    scheme: Option<Scheme>,
    body: Body,
) -> Result<http::Request<Body>, Error> {
    // Written out rather than with `format!`, and handed over without a copy.
    let path = path.as_str();
    let mut uri = String::with_capacity(path.len() + query.as_ref().map_or(0, |q| q.len() + 1));
    uri.push_str(path);
    if let Some(query) = query {
        uri.push('?');
        uri.push_str(&query);
    }
    // An origin-form target (the usual case) is parsed as a path and query only: what
    // `Uri::try_from` does for it, without its checks for the other forms first.
    let uri = if uri.len() > 1 && uri.len() <= MAX_URI_LEN && uri.starts_with('/') {
        http::uri::PathAndQuery::from_maybe_shared(bytes::Bytes::from(uri)).map(http::Uri::from)
    } else {
        http::Uri::try_from(uri)
    }
    .map_err(|_| Error::from(HttpError::from(pactum::error::Rejection::InvalidUri)))?;
    let mut request = http::Request::new(body);
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.headers_mut() = headers;
    if let Some(scheme) = scheme {
        request.extensions_mut().insert(scheme);
    }
    Ok(request)
}
