//! Two handler lists as warp filters under `/api/v1` and `/api/v2`, with CORS, request
//! logging, a JSON catch-all 404 and a `recover` that formats v2's errors — served with the
//! native server's hardened connection settings.
//!
//! ```text
//! cargo run --example warp_adapter
//! curl -i 'localhost:3000/api/v1/greet?name=Ada'
//! curl -i 'localhost:3000/api/v2/greet?name='          # v2 errors as text/plain via recover
//! curl -i localhost:3000/elsewhere                      # the catch-all: JSON 404
//! ```

use pactum::{handler, handler::AnyHandler, route, Ctx, Endpoint, NoParams, ServerOptions};
use serde::{Deserialize, Serialize};
use validator::Validate;
use warp::Filter;

#[derive(Serialize, Deserialize, Validate)]
struct Name {
    #[validate(length(min = 1, max = 20))]
    name: String,
}

#[derive(Serialize, Deserialize, Validate)]
struct Greeting {
    message: String,
    version: u8,
}

fn greeting(version: u8) -> Vec<AnyHandler> {
    let greet = Endpoint::get(route!("/greet"))
        .query::<Name>()
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    vec![handler(greet, move |ctx: Ctx<NoParams, Name>| async move {
        Ok(Greeting {
            message: format!("hello, {}", ctx.query.name),
            version,
        })
    })
    .into()]
}

/// v2's errors as plain text, to show that a `recover` can take over error formatting.
async fn plain_text(rejection: warp::Rejection) -> Result<warp::reply::Response, warp::Rejection> {
    use warp::Reply;
    match rejection.find::<pactum_warp::PactumRejection>() {
        Some(error) => {
            let body = error.error().to_body();
            let text = format!("{} ({} problems)", body.error, body.details.len());
            Ok(warp::reply::with_status(text, error.status()).into_response())
        }
        None => Err(rejection),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter("info,api=info")
        .init();

    let v1 = warp::path("v1").and(pactum_warp::filter(greeting(1))?);
    let v2 = warp::path("v2").and(
        pactum_warp::Options::new()
            .reject_errors(true)
            .filter(greeting(2))?
            .recover(plain_text)
            .unify(),
    );
    let app = warp::path("api")
        .and(v1.or(v2).unify())
        .or(pactum_warp::not_found())
        .with(warp::cors().allow_any_origin().allow_methods(["GET"]))
        .with(warp::log("api"));

    // warp's own server sets no header read timeout; pactum's does (10 s by default).
    let server = pactum_warp::serve(
        app,
        ServerOptions::new()
            .on_listen(|port, host| tracing::info!("http://{host}:{port}/api/v1/greet?name=Ada")),
    )
    .await?;
    server.shutdown_on_signal().await;
    Ok(())
}
