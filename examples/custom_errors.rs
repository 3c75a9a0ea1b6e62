//! Replacing the built-in error body: every error — validation, 404, handler errors — goes
//! through one formatter. Here: RFC 9457 problem details, whose `instance` names the request
//! (the formatter sees its method, path and id), with the request id echoed in
//! `x-request-id` on every answer (`echo_request_id`). Plain errors' messages are hidden
//! (`Internal server error`).
//!
//! ```text
//! cargo run --example custom_errors
//! curl -i localhost:3000/nope
//! curl -i 'localhost:3000/square?n=abc'
//! ```

use pactum::http::header::{HeaderValue, CONTENT_TYPE};
use pactum::{
    error::RequestInfo, handler, pipeline::Response, route, Ctx, Endpoint, Error, NoParams,
    Pipeline, ServerOptions,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Square {
    #[validate(range(min = -1000, max = 1000))]
    n: i64,
}

#[derive(Serialize, Deserialize, Validate)]
struct Squared {
    result: i64,
}

/// `application/problem+json`, with the details as `errors`, the request as `instance` (its
/// path; the method and id go in extension members).
fn problem(error: &Error, request: &RequestInfo) -> Response {
    let body = error.to_body();
    let problem = serde_json::json!({
        "type": "about:blank",
        "title": body.error,
        "status": error.status().as_u16(),
        "errors": body.details,
        "instance": request.path(),
        "method": request.method().as_str(),
        "request_id": request.request_id(),
    });
    let mut response = pactum::http::Response::new(problem.to_string().into());
    *response.status_mut() = error.status();
    if let Some(http) = error.as_http() {
        response.headers_mut().extend(http.headers().clone());
    }
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    response
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt().with_env_filter("info").init();
    let square = Endpoint::get(route!("/square"))
        .query::<Square>()
        .response::<Squared>()
        .build()?;
    let handlers = vec![handler(square, |ctx: Ctx<NoParams, Square>| async move {
        Ok(Squared {
            result: ctx.query.n * ctx.query.n,
        })
    })
    .into()];
    // The error formatter is a pipeline setting: every adapter serving this pipeline uses it.
    let app = Pipeline::builder(handlers)
        .error_formatter_with(problem)
        .echo_request_id(true)
        .hide_internal_messages(true);
    let server = pactum::serve(app, ServerOptions::new()).await?;
    tracing::info!(addr = %server.local_addr(), "try /square?n=12 and /square?n=abc");
    server.shutdown_on_signal().await;
    Ok(())
}
