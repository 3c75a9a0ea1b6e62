//! The request pipeline every adapter shares: route → middleware → parse → validate →
//! handler → response check → serialise, and the mapping of every error to its answer.

mod catch_panic;
mod table;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http::header::{HeaderValue, ALLOW, CONTENT_LENGTH, HOST};
use http::uri::Scheme;
use http::{Method, StatusCode};
use url::Url;

use crate::body::Body;
use crate::error::{ConfigError, Error, HttpError};
use crate::handler::AnyHandler;
use crate::middleware::{Middleware, Next};
use crate::request::{BoxFuture, Request};
use crate::response::Response;

use catch_panic::CatchPanic;
pub use table::Routed;
use table::{RouteTable, Target};

/// The default request body limit: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

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
/// use pactum::{handler, route, Body, Endpoint, Pipeline};
///
/// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
/// # struct Health { status: String }
/// let health = Endpoint::get(route::static_path("/health")).response::<Health>().build()?;
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
    formatter: Option<ErrorFormatter>,
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

/// Settings of a [`Pipeline`]: server-wide middleware, body limit, error formatting.
#[must_use = "call `.build()` to get the pipeline"]
pub struct PipelineBuilder {
    handlers: Vec<AnyHandler>,
    middleware: Vec<Middleware>,
    body_limit: usize,
    formatter: Option<ErrorFormatter>,
}

impl fmt::Debug for PipelineBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipelineBuilder")
            .field("handlers", &self.handlers)
            .field("body_limit", &self.body_limit)
            .finish_non_exhaustive()
    }
}

impl PipelineBuilder {
    /// Adds server-wide middleware: it wraps every contract's own middleware, the first added
    /// outermost.
    pub fn middleware(mut self, middleware: Middleware) -> Self {
        self.middleware.push(middleware);
        self
    }

    /// The body limit for contracts that set none (default [`DEFAULT_BODY_LIMIT`]).
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Replaces the built-in error body: `f` makes the answer for every error.
    pub fn error_formatter<F>(mut self, f: F) -> Self
    where
        F: Fn(&Error) -> Response + Send + Sync + 'static,
    {
        self.formatter = Some(Arc::new(f));
        self
    }

    /// Builds the route table.
    ///
    /// # Errors
    ///
    /// [`ConfigError::DuplicateRoute`] when two handlers share a method and route,
    /// [`ConfigError::ConflictingRoutes`] when two routes cannot be told apart
    /// (`/users/:id` and `/users/:name`).
    pub fn build(self) -> Result<Pipeline, ConfigError> {
        let table = RouteTable::new(self.handlers, &self.middleware, self.body_limit)?;
        Ok(Pipeline {
            inner: Arc::new(Inner {
                table,
                formatter: self.formatter,
            }),
        })
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
            formatter: None,
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
    /// [`Scheme`] extension when the adapter inserted one (HTTPS servers do).
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
        self.dispatched(routed, request)
    }

    fn dispatched(&self, routed: Routed, request: http::Request<Body>) -> Dispatched {
        let entry = &self.inner.table.routes[routed.route];
        let span = tracing::info_span!(
            "request",
            method = %request.method(),
            route = %entry.template,
            status = tracing::field::Empty,
            latency_us = tracing::field::Empty,
        );
        // The latency is only for the span: no clock reads when nobody listens.
        let started = (!span.is_disabled()).then(Instant::now);
        // What needs no waiting is done now, so that the future holds only what it awaits
        // (futures are moved as they are wrapped: the smaller, the cheaper).
        let work = {
            // Entering a disabled span only logs (tracing's `log` feature); not worth it here.
            let _entered = (!span.is_disabled()).then(|| span.enter());
            match routed.target {
                Target::Options => {
                    let mut response = http::Response::new(Bytes::new());
                    *response.status_mut() = StatusCode::NO_CONTENT;
                    response.headers_mut().insert(ALLOW, entry.allow.clone());
                    Work::Done(Ok(response))
                }
                Target::MethodNotAllowed => {
                    Work::Done(Err(HttpError::method_not_allowed("Method not allowed")
                        .with_header(ALLOW, entry.allow.clone())
                        .into()))
                }
                Target::Handler(index) => {
                    let method = &entry.methods[index];
                    let (parts, body) = request.into_parts();
                    let request = Request {
                        url: request_url(&parts),
                        head: parts,
                        route: Arc::clone(&entry.template),
                        params: routed.params,
                        body,
                        body_limit: method.body_limit,
                    };
                    let next = Next::new(Arc::clone(&method.chain), Arc::clone(&method.handler));
                    Work::Run(CatchPanic::new(|| next.run(request)))
                }
            }
        };
        Dispatched {
            work: Some(work),
            started,
            span,
        }
    }

    /// Answers a whole request: 404 when no route matches, every error formatted.
    pub fn handle(
        &self,
        request: http::Request<Body>,
    ) -> impl Future<Output = Response> + Send + 'static {
        let method = request.method().clone();
        let dispatched = match self.route(request.method(), request.uri().path()) {
            Some(routed) => Some(self.dispatched(routed, request)),
            None => {
                tracing::debug!(path = request.uri().path(), "no route");
                None
            }
        };
        Handled {
            dispatched,
            pipeline: self.clone(),
            method,
        }
    }

    /// The answer to a request made with `method`: the response, or the error formatted by
    /// [`Pipeline::error_response`]; for HEAD, headers and length without the body.
    pub fn answer(&self, method: &Method, result: Result<Response, Error>) -> Response {
        let mut response = result.unwrap_or_else(|error| self.error_response(&error));
        if *method == Method::HEAD {
            strip_body(&mut response);
        }
        response
    }

    /// The answer for `error`: the configured formatter's, else the built-in JSON body.
    pub fn error_response(&self, error: &Error) -> Response {
        match &self.inner.formatter {
            Some(format) => format(error),
            None => error.to_response(),
        }
    }
}

/// A dispatched request: answered already, or running its middleware and handler.
enum Work {
    Done(Result<Response, Error>),
    Run(CatchPanic<BoxFuture<Result<Response, Error>>>),
}

/// The future of [`Pipeline::dispatch`]: polls the work inside the request's span, then logs
/// an error and records the status and latency on the span.
///
/// Written out rather than as an `async` block wrapped in `Instrumented`: it is `Unpin` and
/// small, so the futures around it hold it without copies of a large state machine.
struct Dispatched {
    work: Option<Work>,
    started: Option<Instant>,
    span: tracing::Span,
}

impl Future for Dispatched {
    type Output = Result<Response, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let _entered = this.span.enter();
        let result = match this
            .work
            .as_mut()
            .expect("`Dispatched` polled after completion")
        {
            Work::Done(_) => match this.work.take() {
                Some(Work::Done(result)) => result,
                _ => unreachable!("matched `Work::Done` above"),
            },
            Work::Run(future) => {
                let polled = ready!(Pin::new(future).poll(cx));
                this.work = None;
                polled.unwrap_or_else(|panic| {
                    tracing::error!(panic = %panic, "handler panicked");
                    Err(HttpError::internal("Internal server error").into())
                })
            }
        };
        if let Err(error) = &result {
            error.log();
        }
        if let Some(started) = this.started {
            let status = match &result {
                Ok(response) => response.status(),
                Err(error) => error.status(),
            };
            this.span.record("status", status.as_u16());
            this.span
                .record("latency_us", started.elapsed().as_micros() as u64);
        }
        Poll::Ready(result)
    }
}

impl Drop for Dispatched {
    fn drop(&mut self) {
        // A request dropped before it finished: its middleware and handler are dropped
        // inside its span, as `Instrumented` would.
        if self.work.is_some() {
            let _entered = self.span.enter();
            self.work = None;
        }
    }
}

/// The future of [`Pipeline::handle`]: the dispatched request (or a 404), answered.
struct Handled {
    dispatched: Option<Dispatched>,
    pipeline: Pipeline,
    method: Method,
}

impl Future for Handled {
    type Output = Response;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = &mut *self;
        let result = match &mut this.dispatched {
            Some(dispatched) => ready!(Pin::new(dispatched).poll(cx)),
            None => Err(HttpError::not_found("Not found").into()),
        };
        Poll::Ready(this.pipeline.answer(&this.method, result))
    }
}

/// A HEAD answer: the GET's headers and length, no body.
fn strip_body(response: &mut Response) {
    let len = response.body().len();
    if len > 0 {
        response
            .headers_mut()
            .insert(CONTENT_LENGTH, HeaderValue::from(len));
        *response.body_mut() = Bytes::new();
    }
}

/// The full URL of a request: scheme from the URI or the adapter's [`Scheme`] extension,
/// authority from the URI or the `Host` header.
fn request_url(parts: &http::request::Parts) -> Url {
    let scheme = parts
        .uri
        .scheme_str()
        .or_else(|| parts.extensions.get::<Scheme>().map(Scheme::as_str))
        .unwrap_or("http");
    let host = parts
        .uri
        .authority()
        .map(|a| a.as_str())
        .or_else(|| parts.headers.get(HOST).and_then(|h| h.to_str().ok()))
        .unwrap_or("localhost");
    let path = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    if parts.uri.authority().is_none() {
        if let Some(url) = BaseUrl::join(scheme, host, path) {
            return url;
        }
    }
    parse_url(scheme, host, path)
}

/// The URL `{scheme}://{host}{path}`, with `localhost` for a host that does not parse.
fn parse_url(scheme: &str, host: &str, path: &str) -> Url {
    Url::parse(&format!("{scheme}://{host}{path}"))
        .or_else(|_| Url::parse(&format!("{scheme}://localhost{path}")))
        .unwrap_or_else(|_| Url::parse("http://localhost/").expect("static URL parses"))
}

/// The last `{scheme}://{host}/` parsed on this thread: the requests of a connection (and
/// usually of a server) share it, and parsing only the path and query against it skips the
/// host parsing (IDNA, IP addresses), the costliest part of a URL.
struct BaseUrl {
    scheme: String,
    host: String,
    url: Url,
    /// The input of `join`, reused: the path, then spaces (trimmed by the parser) whose only
    /// effect is a large enough capacity for the URL's serialisation, which the parser sizes
    /// by its input — without them, it grows twice per request.
    input: String,
}

thread_local! {
    static BASE_URL: std::cell::RefCell<Option<BaseUrl>> = const { std::cell::RefCell::new(None) };
}

impl BaseUrl {
    /// [`parse_url`]'s answer, from the cached base, where the result is the same: an
    /// `http`/`https` scheme, a host of plain name or address characters (nothing that would
    /// end the authority early or change it, like `/`, `?`, `#`, `@`, `%`), and an absolute
    /// path (not `//…`, which would be read as another authority). `None` otherwise.
    fn join(scheme: &str, host: &str, path: &str) -> Option<Url> {
        let absolute_path =
            path.starts_with('/') && !matches!(path.as_bytes().get(1), Some(b'/' | b'\\'));
        if !absolute_path {
            return None;
        }
        BASE_URL.with(|cell| {
            let mut cached = cell.borrow_mut();
            // Only a scheme and host that passed the checks below are ever cached.
            let hit = matches!(&*cached, Some(b) if b.host == host && b.scheme == scheme);
            if !hit {
                let plain_host = !host.is_empty()
                    && host.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
                    });
                if !matches!(scheme, "http" | "https") || !plain_host {
                    return None;
                }
                *cached = Some(BaseUrl {
                    scheme: scheme.to_owned(),
                    host: host.to_owned(),
                    url: Url::parse(&format!("{scheme}://{host}/")).ok()?,
                    input: String::new(),
                });
            }
            let base = cached.as_mut()?;
            const SPACES: &str = "                                                                ";
            // Room for the base's `scheme://host` (each space costs the parser's trim a
            // little; a reallocation costs far more).
            let room = base.url.as_str().len();
            base.input.clear();
            base.input.push_str(path);
            for _ in 0..room / SPACES.len() {
                base.input.push_str(SPACES);
            }
            base.input.push_str(&SPACES[..room % SPACES.len()]);
            base.url.join(&base.input).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_base_urls_give_the_parsed_url() {
        let hosts = [
            "localhost",
            "127.0.0.1:8080",
            "[::1]:3000",
            "Example.COM",
            "EXAMPLE.com:80",
            "xn--nxasmq6b.com",
            "0x7f.1",
            "a..b",
            "host:99999",
            "host:",
            "[::1",
            "bad host",
            "a/b",
            "a@b",
            "a?b",
            "a#b",
            "a%41",
            "",
        ];
        let paths = [
            "/",
            "/hello",
            "/users/7/posts?limit=10&offset=0",
            "/a/../b/./c/..",
            "/%7e/%2F?x=%20&y",
            "/caf%C3%A9?q=caf\u{e9}",
            "/a b?c d",
            "/?",
            "/a?b#c",
            "//evil.example/x",
            "/\\evil.example/x",
            "*",
            "",
        ];
        for _ in 0..2 {
            for scheme in ["http", "https", "ftp"] {
                for host in hosts {
                    for path in paths {
                        if let Some(fast) = BaseUrl::join(scheme, host, path) {
                            assert_eq!(
                                fast,
                                parse_url(scheme, host, path),
                                "{scheme}://{host}{path}"
                            );
                        }
                    }
                }
            }
        }
        assert!(BaseUrl::join("http", "localhost", "/x").is_some());
    }
}
