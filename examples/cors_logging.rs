//! Wrapping the pipeline in tower-http layers (CORS, request logging) and serving it with the
//! native server's hardened settings.
//!
//! ```text
//! cargo run --example cors_logging
//! curl -i -X OPTIONS localhost:3000/hello -H 'origin: https://example.com' \
//!      -H 'access-control-request-method: GET'
//! ```

use pactum::{handler, route, Endpoint, ServerOptions};
use serde::{Deserialize, Serialize};
use tower::ServiceBuilder;
use tower_http::cors::CorsLayer;
use tower_http::trace::TraceLayer;
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Hello {
    message: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter("info,tower_http=debug")
        .init();
    let hello = Endpoint::get(route!("/hello"))
        .response::<Hello>()
        .build()?;
    let api = pactum::server::service(vec![handler(hello, |_| async {
        Ok(Hello {
            message: "hello".into(),
        })
    })
    .into()])?;

    // The CORS layer answers preflights before the pipeline sees them.
    let service = ServiceBuilder::new()
        .layer(TraceLayer::new_for_http())
        .layer(CorsLayer::permissive())
        .service(api);

    let server = pactum::server::serve_service(service, ServerOptions::new()).await?;
    tracing::info!(addr = %server.local_addr(), "serving /hello with CORS and request logs");
    server.shutdown_on_signal().await;
    Ok(())
}
