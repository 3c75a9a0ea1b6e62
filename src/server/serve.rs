//! [`serve`]: a pactum application on the native server, and [`Serve`], the future it returns.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::error_answers::ErrorAnswers;
use super::options::ServerOptions;
use super::run::{listen, ServeError, Server};
use super::service::PactumService;
use crate::pipeline::IntoPipeline;

/// Serves an application — a handler list, or a [`Pipeline`](crate::Pipeline) (or its builder) with its
/// settings — on hyper 1.x with the connection settings of `options`: HTTP/1.1 (keep-alive,
/// pipelining) and HTTP/2 (h2c, or ALPN with TLS). The answers hyper gives itself to an
/// HTTP/1.1 head it cannot parse or that is over the limits (400, 431, 414) go through the
/// pipeline's error formatter too.
///
/// Resolves once the socket is bound (after `on_listen` ran), with a handle to stop it.
///
/// ```no_run
/// use pactum::{handler, route, serve, Endpoint, ServerOptions};
///
/// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
/// # struct Health { status: String }
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let health = Endpoint::get(route!("/health")).response::<Health>().build()?;
///     let server = serve(
///         vec![handler(health, |_| async { Ok(Health { status: "ok".into() }) }).into()],
///         ServerOptions::new().port(3000),
///     )
///     .await?;
///     server.shutdown_on_signal().await;
///     Ok(())
/// }
/// ```
///
/// # Errors
///
/// [`ServeError::Config`] for a handler list that cannot be routed, [`ServeError::Bind`] when
/// the address cannot be bound (or, with a header read or HTTP/2 idle timeout, when the process's thread
/// that keeps it cannot start: the system is out of threads).
pub fn serve(app: impl IntoPipeline, options: ServerOptions) -> Serve {
    let pipeline = app.into_pipeline();
    Serve(Box::pin(async move {
        let pipeline = pipeline?;
        let answers = ErrorAnswers::of(&pipeline);
        listen(PactumService::new(pipeline), options, answers)
            .await
            .map_err(ServeError::Bind)
    }))
}

/// The future [`serve`] returns: resolves once the socket is bound, to the running
/// [`Server`]. (A type of its own, not generic over the application, so that passing
/// something that is not one is reported once.)
#[must_use = "the server starts when this is awaited"]
pub struct Serve(pub(super) Pin<Box<dyn Future<Output = Result<Server, ServeError>> + Send>>);

impl Future for Serve {
    type Output = Result<Server, ServeError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.as_mut().poll(cx)
    }
}

impl fmt::Debug for Serve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Serve").finish_non_exhaustive()
    }
}
