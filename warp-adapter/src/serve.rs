//! [`serve`]: a filter on pactum's native server.

use warp::reply::Reply;
use warp::Filter;

/// Serves a warp filter (pactum's or any other) on pactum's native server, with its hardened
/// connection settings: header read timeout (warp's own server sets no timer, so hyper's is
/// off), request-head size and header count limits (431), connection limit, HTTP/1.1 and
/// HTTP/2, TLS with the `tls` feature, and graceful shutdown.
///
/// Returns once the address is bound; the [`pactum::Server`] handle gives the bound address
/// and the graceful shutdown.
///
/// Only the connection settings of `options` apply. Middleware, the body limit, the error
/// formatter and the request timeout belong to the pipeline: set them with
/// [`Pipeline::builder`](pactum::Pipeline::builder) and [`filter_with`](crate::filter_with).
///
/// `warp::addr::remote()` yields `None` under this server (warp's own server supplies it).
///
/// ```no_run
/// use pactum::{handler, route, Endpoint, NoContent, ServerOptions};
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
pub async fn serve<F>(filter: F, options: pactum::ServerOptions) -> std::io::Result<pactum::Server>
where
    F: Filter + Clone + Send + Sync + 'static,
    F::Extract: Reply,
{
    pactum::serve_service(warp::service(filter), options).await
}
