//! [`serve`]: a filter on pactum's native server.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use pactum::{error::Rejection, pipeline::AnswerMode, HttpError};
use warp::reply::Reply;
use warp::Filter;

/// Serves a warp filter (pactum's or any other) on pactum's native server, with its hardened
/// connection settings: header read timeout (warp's own server sets no timer, so hyper's is
/// off), request-head size and header count limits (431), connection limit, HTTP/1.1 and
/// HTTP/2, TLS with the `tls` feature, and graceful shutdown.
///
/// Returns once the address is bound; the [`pactum::server::Server`] handle gives the bound address
/// and the graceful shutdown.
///
/// Only the connection settings of `options` apply. Middleware, the body limit, the error
/// formatter and the request timeout belong to the pipeline: set them with
/// [`Pipeline::builder`](pactum::Pipeline::builder) and [`filter_with`](crate::filter_with).
///
/// `warp::addr::remote()` yields `None` under this server (warp keeps its own server's
/// extension private); pactum's filters read the peer from the [`pactum::pipeline::PeerAddr`]
/// extension this server inserts instead, so `ctx.peer_addr()` works under both servers.
///
/// ```no_run
/// use pactum::{handler, route, Endpoint, contract::NoContent, ServerOptions};
/// use warp::Filter;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let api = pactum_warp::filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()])?;
/// let app = warp::path("api").and(api).with(warp::log("api"));
///
/// let server = pactum_warp::serve(app, ServerOptions::new().port(0).hostname("127.0.0.1")).await?;
/// println!("listening on {}", server.local_addr());
/// server.shutdown_on_signal().await;
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// The bind error.
pub async fn serve<F>(
    filter: F,
    options: pactum::ServerOptions,
) -> std::io::Result<pactum::server::Server>
where
    F: Filter + Clone + Send + Sync + 'static,
    F::Extract: Reply,
{
    pactum::server::serve_service(OriginForm(warp::service(filter)), options).await
}

/// Answers a request whose target is neither origin-form nor `*` (`GET users`, authority-form)
/// with pactum's JSON 404 — what the native server answers — before warp sees it: warp's path
/// filters panic on such a target (`PathAndQuery::from_static("")`). The asterisk form goes to
/// warp: the pipeline answers `OPTIONS *`.
#[derive(Clone)]
struct OriginForm<S>(S);

impl<S, B> tower_service::Service<http::Request<B>> for OriginForm<S>
where
    S: tower_service::Service<http::Request<B>, Response = warp::reply::Response>,
{
    type Response = warp::reply::Response;
    type Error = S::Error;
    type Future = OriginFormFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let path = request.uri().path();
        if path.starts_with('/') || path == "*" {
            return OriginFormFuture::Warp {
                future: self.0.call(request),
            };
        }
        let mode = AnswerMode::of(request.method());
        let answer =
            crate::no_routes().answer(mode, Err(HttpError::from(Rejection::NotFound).into()));
        OriginFormFuture::NotFound {
            answer: Some(crate::reply::into_warp(answer)),
        }
    }
}

pin_project_lite::pin_project! {
    /// [`OriginForm`]'s future: warp's, or the 404 at once.
    #[project = Projected]
    enum OriginFormFuture<F> {
        Warp { #[pin] future: F },
        NotFound { answer: Option<warp::reply::Response> },
    }
}

impl<F, E> Future for OriginFormFuture<F>
where
    F: Future<Output = Result<warp::reply::Response, E>>,
{
    type Output = Result<warp::reply::Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            Projected::Warp { future } => future.poll(cx),
            Projected::NotFound { answer } => Poll::Ready(Ok(answer
                .take()
                .expect("`OriginFormFuture` polled after completion"))),
        }
    }
}
