//! The pipeline's settings — request timeout, error formatter, server-wide middleware, body
//! limit — set once on `Pipeline::builder` and honoured the same by every adapter: the native
//! server, the warp filter on pactum's server, and the warp filter on warp's own server.

use std::time::{Duration, Instant};

use pactum::{middleware, pipeline::PipelineBuilder, Pipeline};
use serde_json::json;

use crate::support::{self, TestServer};

/// The conformance API with every pipeline setting changed from its default.
fn app() -> PipelineBuilder {
    Pipeline::builder(crate::api::handlers())
        .request_timeout(Duration::from_millis(200))
        .body_limit(64)
        .middleware(middleware::from_fn(|req, next| async move {
            let mut response = next.run(req).await?;
            response
                .headers_mut()
                .insert("x-server-wide", "yes".parse().unwrap());
            Ok(response)
        }))
}

fn formatted(builder: PipelineBuilder) -> PipelineBuilder {
    builder.error_formatter(|error| {
        let text = format!("oops: {}", error.to_body().error);
        let mut response = pactum::http::Response::new(bytes::Bytes::from(text));
        *response.status_mut() = error.status();
        response
    })
}

async fn request_timeout_answers_503(app: &TestServer) {
    let started = Instant::now();
    app.get("/slow?ms=3000")
        .await
        .assert(503, json!({"error": "Request timeout"}));
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "answered after {:?}",
        started.elapsed()
    );
    let fast = app.get("/slow?ms=10").await;
    fast.assert(200, json!({"slept": 10}));
    assert_eq!(fast.header("x-server-wide"), "yes");
    let big = format!(r#"{{"name":"{}","email":"a@b.co"}}"#, "x".repeat(100));
    let answer = app.post_json("/users", big).await;
    answer.assert(413, json!({"error": "Payload too large"}));
}

async fn the_timeout_goes_through_the_formatter(app: &TestServer) {
    let answer = app.get("/slow?ms=2000").await;
    assert_eq!(
        (answer.status, answer.text.as_str()),
        (503, "oops: Request timeout")
    );
}

#[tokio::test]
async fn native() {
    request_timeout_answers_503(&support::native_with(app(), support::options()).await).await;
    let app = support::native_with(formatted(app()), support::options()).await;
    the_timeout_goes_through_the_formatter(&app).await;
}

#[tokio::test]
async fn warp() {
    request_timeout_answers_503(&support::warp_with(app()).await).await;
    the_timeout_goes_through_the_formatter(&support::warp_with(formatted(app())).await).await;
}

#[tokio::test]
async fn warp_own_server() {
    request_timeout_answers_503(&support::warp_own_server_with(app()).await).await;
    the_timeout_goes_through_the_formatter(&support::warp_own_server_with(formatted(app())).await)
        .await;
}
