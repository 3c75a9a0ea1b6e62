//! Wrapping the pipeline in tower-http layers (CORS, request logging) that see every answer —
//! preflights, 404s and 405s included — and serving it with the native server's hardened
//! settings.
//!
//! ```text
//! cargo run --example cors_logging
//! curl -i -X OPTIONS localhost:3000/hello -H 'origin: https://example.com' \
//!      -H 'access-control-request-method: GET'
//! ```

use pactum::{handler, route, Endpoint, Pipeline, ServerOptions};
use serde::{Deserialize, Serialize};
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
    let app = Pipeline::builder(vec![handler(hello, |_| async {
        Ok(Hello {
            message: "hello".into(),
        })
    })
    .into()])
    // The CORS layer answers preflights before the pipeline sees them, and adds its headers
    // to every other answer; the trace layer, added last, is outermost.
    .layer(CorsLayer::permissive())
    .layer(TraceLayer::new_for_http())
    .build()?;

    let server = pactum::serve(app, ServerOptions::new()).await?;
    tracing::info!(addr = %server.local_addr(), "serving /hello with CORS and request logs");
    server.shutdown_on_signal().await;
    Ok(())
}
