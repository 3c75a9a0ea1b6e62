//! [`create_handler`]: the pipeline as a `tower::Service` and hyper service.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;

use crate::body::Body;
use crate::error::{BoxError, ConfigError, Error, HttpError};
use crate::handler::AnyHandler;
use crate::pipeline::Pipeline;

/// The pipeline as a `tower::Service<http::Request<B>>`: what the native server runs, and
/// what tower-http layers wrap (CORS, compression, tracing, timeouts) or tests call without
/// a socket. Cheap to clone.
///
/// ```
/// use pactum::{create_handler, handler, route, Endpoint};
/// use tower::ServiceExt;
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let ping = Endpoint::get(route::static_path("/ping")).build()?;
/// let service = create_handler(vec![handler(ping, |_| async { Ok(pactum::NoContent) }).into()])?;
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
    request_timeout: Option<Duration>,
}

/// Builds the pipeline for `handlers` and returns it as a service.
///
/// # Errors
///
/// [`ConfigError`] when two handlers share a method and route or routes conflict.
pub fn create_handler(
    handlers: impl IntoIterator<Item = AnyHandler>,
) -> Result<PactumService, ConfigError> {
    Ok(PactumService::new(Pipeline::new(handlers)?))
}

impl PactumService {
    /// Serves an already-built pipeline (for server-wide middleware, limits or error
    /// formatting, see [`Pipeline::builder`]).
    pub fn new(pipeline: Pipeline) -> Self {
        Self {
            pipeline,
            request_timeout: None,
        }
    }

    /// Answers `503 Request timeout` when a request takes longer than `timeout`.
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The pipeline behind the service.
    pub fn pipeline(&self) -> &Pipeline {
        &self.pipeline
    }
}

/// The future of [`PactumService`]: a response, never an error.
pub type ResponseFuture =
    Pin<Box<dyn Future<Output = Result<http::Response<Full<Bytes>>, Infallible>> + Send>>;

impl<B> tower_service::Service<http::Request<B>> for PactumService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let request = request.map(Body::new);
        let answer = self.pipeline.handle(request);
        match self.request_timeout {
            None => Box::pin(Answer(answer)),
            Some(limit) => {
                let pipeline = self.pipeline.clone();
                Box::pin(async move {
                    let response = match tokio::time::timeout(limit, answer).await {
                        Ok(response) => response,
                        Err(_) => {
                            let error: Error =
                                HttpError::service_unavailable("Request timeout").into();
                            error.log();
                            pipeline.error_response(&error)
                        }
                    };
                    Ok(response.map(Full::new))
                })
            }
        }
    }
}

/// The pipeline's answer as the service's response: an `Unpin` wrapper, so that the boxed
/// future holds the (small) pipeline future once, not twice as an `async` block would.
struct Answer<F>(F);

impl<F: Future<Output = crate::response::Response> + Unpin> Future for Answer<F> {
    type Output = Result<http::Response<Full<Bytes>>, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|response| Ok(response.map(Full::new)))
    }
}
