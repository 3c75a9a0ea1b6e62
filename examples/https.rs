//! Serving HTTPS (HTTP/1.1 and HTTP/2 by ALPN) with rustls.
//!
//! This demo makes a self-signed certificate for `localhost` at start-up; give
//! `TlsConfig::from_pem_files` your real chain and key instead.
//!
//! ```text
//! cargo run --example https
//! curl -k https://localhost:3443/health
//! ```

use pactum::{handler, route, server::TlsConfig, Endpoint, ServerOptions};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Health {
    status: String,
    scheme: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt().with_env_filter("info").init();
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])?;
    let tls = TlsConfig::from_pem(
        certified.cert.pem().as_bytes(),
        certified.signing_key.serialize_pem().as_bytes(),
    )?;

    let health = Endpoint::get(route!("/health"))
        .response::<Health>()
        .build()?;
    let handlers = vec![handler(health, |ctx| async move {
        Ok(Health {
            status: "ok".into(),
            scheme: ctx.url().scheme().to_owned(),
        })
    })
    .into()];

    let server = pactum::serve(
        handlers,
        ServerOptions::new()
            .port(3443)
            .https(tls)
            .on_listen(|port, host| tracing::info!("https://{host}:{port}/health")),
    )
    .await?;
    server.shutdown_on_signal().await;
    Ok(())
}
