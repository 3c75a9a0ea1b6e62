//! [`service`]: the pipeline as a `tower::Service` and hyper service.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;

use crate::body::Body;
use crate::error::{BoxError, ConfigError};
use crate::pipeline::{HandleFuture, IntoPipeline, Pipeline};
use crate::response::Response;

/// The pipeline as a `tower::Service<http::Request<B>>`: what the native server runs, and
/// what tower-http layers wrap (CORS, compression, tracing, timeouts) or tests call without
/// a socket. Cheap to clone.
///
/// ```
/// use pactum::{handler, route, Endpoint};
/// use tower::ServiceExt;
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let service = pactum::server::service(vec![handler(ping, |_| async { Ok(pactum::contract::NoContent) }).into()])?;
///
/// let request = http::Request::get("/ping").body(http_body_util::Empty::<bytes::Bytes>::new())?;
/// let response = service.oneshot(request).await?;
/// assert_eq!(response.status(), 204);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PactumService {
    pipeline: Pipeline,
}

/// The application — a handler list, or a [`Pipeline`] with its settings (middleware, body
/// limit, error formatter, request timeout) — as a `tower::Service`.
///
/// # Errors
///
/// [`ConfigError`] when two handlers share a method and route or routes conflict.
pub fn service(app: impl IntoPipeline) -> Result<PactumService, ConfigError> {
    Ok(PactumService::new(app.into_pipeline()?))
}

impl PactumService {
    /// Serves an already-built pipeline.
    pub fn new(pipeline: Pipeline) -> Self {
        Self { pipeline }
    }

    /// The pipeline behind the service.
    pub fn pipeline(&self) -> &Pipeline {
        &self.pipeline
    }
}

/// The future of [`PactumService`]: the pipeline's answer, never an error. Not boxed: the
/// connection holds it in place.
pub struct ResponseFuture(HandleFuture);

impl fmt::Debug for ResponseFuture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResponseFuture")
    }
}

impl Future for ResponseFuture {
    type Output = Result<Response, Infallible>;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(Ok)
    }
}

impl<B> tower_service::Service<http::Request<B>> for PactumService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        self.respond(request, None)
    }
}

impl PactumService {
    /// The answer to `request`, from `peer`: what `call` returns (with no peer), from a
    /// shared reference (the native server calls it so, without a clone of the service per
    /// request, with its connection's peer).
    // Inlined into the connection's call: a call of its own, with the request passed by
    // value, measured 35 instructions more per request (peer_load, `GET /hello`).
    #[inline(always)]
    pub(super) fn respond<B>(
        &self,
        request: http::Request<B>,
        peer: Option<SocketAddr>,
    ) -> ResponseFuture
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let (head, body) = request.into_parts();
        ResponseFuture(self.pipeline.handle_parts(head, Body::new(body), peer))
    }
}
