//! Everyday handler ergonomics (issue 17 item 4), on the native server, the warp filter on
//! pactum's server and on warp's own: `?` on `anyhow::Error` and a boxed error (through
//! `ResultExt::into_pactum`), a nested handler list, the request id (from a trusted proxy's
//! `x-request-id` or generated, echoed on every answer), the error formatter that sees the
//! request, hidden 500 messages.

use anyhow::Context as _;
use pactum::{
    error::BoxError, error::ResultExt, handler, handler::nest, handler::AnyHandler,
    pipeline::PipelineBuilder, route, Ctx, Endpoint, HttpError, Pipeline,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::support::{self, TestServer};

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Id {
    id: String,
}

fn read_config() -> Result<String, BoxError> {
    Err("config missing".into())
}

fn query_db() -> anyhow::Result<String> {
    Err(std::io::Error::other("connection refused")).context("database down")
}

fn id_endpoint() -> Endpoint<pactum::NoParams, pactum::NoQuery, pactum::NoBody, Id> {
    Endpoint::get(route!("/id"))
        .response::<Id>()
        .build()
        .unwrap()
}

/// Four routes under `/api/v1`.
fn handlers() -> Vec<AnyHandler> {
    let id = id_endpoint();
    let from_anyhow = Endpoint::get(route!("/anyhow"))
        .response::<Id>()
        .build()
        .unwrap();
    let boxed = Endpoint::get(route!("/boxed"))
        .response::<Id>()
        .build()
        .unwrap();
    let forbidden = Endpoint::get(route!("/forbidden")).build().unwrap();
    let list = vec![
        handler(id, |ctx: Ctx| async move {
            Ok(Id {
                id: ctx.request_id().into_owned(),
            })
        })
        .into(),
        handler(from_anyhow, |_| async {
            let id = query_db().into_pactum()?;
            Ok(Id { id })
        })
        .into(),
        handler(boxed, |_| async {
            let id = read_config().into_pactum()?;
            Ok(Id { id })
        })
        .into(),
        handler(forbidden, |_| async {
            Err::<pactum::contract::NoContent, _>(HttpError::forbidden("No access").into())
        })
        .into(),
    ];
    nest("/api/v1", list).expect("a valid prefix")
}

/// The pipeline of `handlers()` echoing request ids.
fn echoing() -> PipelineBuilder {
    Pipeline::builder(handlers()).echo_request_id(true)
}

/// [`echoing`], believing the loopback peer (the tests' client) as a proxy.
fn trusting() -> PipelineBuilder {
    echoing().trusted_proxies(["127.0.0.1/32".parse().unwrap()])
}

/// An RFC 9457 body with `instance` and the request id.
fn problems(builder: PipelineBuilder) -> PipelineBuilder {
    builder.error_formatter_with(|error, request| {
        let body = json!({
            "title": error.to_body().error,
            "status": error.status().as_u16(),
            "instance": format!("{} {}", request.method(), request.path()),
            "request_id": request.request_id(),
        });
        let mut response = http::Response::new(body.to_string());
        *response.status_mut() = error.status();
        response.headers_mut().insert(
            "content-type",
            http::HeaderValue::from_static("application/problem+json"),
        );
        response
    })
}

async fn nested_routes_and_errors(app: &TestServer) {
    let ok = app.get("/api/v1/id").await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert!(
        ok.headers.get("x-request-id").is_none(),
        "not echoed by default"
    );
    let outside = app.get("/id").await;
    outside.assert(404, json!({"error": "Not found"}));
    let post = app.send(app.client.post(app.url("/api/v1/id"))).await;
    post.assert(405, json!({"error": "Method not allowed"}));
    assert_eq!(post.header("allow"), "GET, HEAD, OPTIONS");
    let options = app
        .send(
            app.client
                .request(reqwest::Method::OPTIONS, app.url("/api/v1/id")),
        )
        .await;
    assert_eq!(options.status, 204);
    assert_eq!(options.header("allow"), "GET, HEAD, OPTIONS");

    app.get("/api/v1/anyhow")
        .await
        .assert(500, json!({"error": "database down"}));
    app.get("/api/v1/boxed")
        .await
        .assert(500, json!({"error": "config missing"}));
    app.get("/api/v1/forbidden")
        .await
        .assert(403, json!({"error": "No access"}));
}

/// The typed client calls the contract's own route under a base URL ending in the prefix.
async fn the_typed_client_under_a_prefix(app: &TestServer) {
    let client = pactum_client::Client::new(format!("http://{}/api/v1", app.addr).as_str())
        .expect("valid base URL");
    let answer = client
        .call(&id_endpoint())
        .header("x-request-id", "from-client")
        .send()
        .await
        .expect("answered");
    assert_eq!(answer.id, "from-client");
}

/// The handler's id and the answer's `x-request-id` agree; a trusted peer's `x-request-id` is
/// the id, another peer's is not.
async fn request_ids(app: &TestServer, trusted: bool) {
    let id_of = |answer: support::Answer| {
        assert_eq!(answer.status, 200, "{}", answer.text);
        let id = answer.json()["id"].as_str().expect("an id").to_owned();
        assert_eq!(answer.header("x-request-id"), id, "echoed");
        id
    };
    let given = app
        .client
        .get(app.url("/api/v1/id"))
        .header("x-request-id", "req-7f3");
    let id = id_of(app.send(given).await);
    assert_eq!(id == "req-7f3", trusted, "{id}");

    let first = id_of(app.get("/api/v1/id").await);
    let second = id_of(app.get("/api/v1/id").await);
    assert_ne!(first, second);
    assert!(
        first.len() == 16 && u64::from_str_radix(&first, 16).is_ok(),
        "{first}"
    );
    // Errors and answers made before routing carry it too.
    for path in ["/api/v1/boxed", "/api/v1/forbidden", "/nowhere"] {
        let given = app
            .client
            .get(app.url(path))
            .header("x-request-id", "req-err");
        let answer = app.send(given).await;
        assert!(answer.status >= 400, "{path}");
        let echoed = answer.header("x-request-id");
        assert_eq!(echoed == "req-err", trusted, "{path}: {echoed}");
        assert!(!echoed.is_empty(), "{path}");
    }
    if !trusted {
        return;
    }

    // Not sane: a space, or over 200 bytes. A fresh id instead.
    let spaced = app
        .client
        .get(app.url("/api/v1/id"))
        .header("x-request-id", "a b");
    let replaced = id_of(app.send(spaced).await);
    assert_ne!(replaced, "a b");
    let long = "x".repeat(201);
    let too_long = app
        .client
        .get(app.url("/api/v1/id"))
        .header("x-request-id", &long);
    assert_ne!(id_of(app.send(too_long).await), long);
    let longest = "x".repeat(200);
    let at_limit = app
        .client
        .get(app.url("/api/v1/id"))
        .header("x-request-id", &longest);
    assert_eq!(id_of(app.send(at_limit).await), longest);
}

async fn hidden_messages(app: &TestServer) {
    let hidden = json!({"error": "Internal server error"});
    app.get("/api/v1/anyhow").await.assert(500, hidden.clone());
    app.get("/api/v1/boxed").await.assert(500, hidden);
    // HttpErrors and the pipeline's own answers are unchanged.
    app.get("/api/v1/forbidden")
        .await
        .assert(403, json!({"error": "No access"}));
    app.get("/nope")
        .await
        .assert(404, json!({"error": "Not found"}));
}

/// The formatter sees the request, for a routed request's error.
async fn the_formatter_sees_the_request(app: &TestServer) {
    let given = app
        .client
        .get(app.url("/api/v1/boxed"))
        .header("x-request-id", "req-500");
    let answer = app.send(given).await;
    assert_eq!(answer.status, 500);
    assert_eq!(answer.header("content-type"), "application/problem+json");
    assert_eq!(answer.header("x-request-id"), "req-500");
    assert_eq!(
        answer.json(),
        json!({
            "title": "config missing",
            "status": 500,
            "instance": "GET /api/v1/boxed",
            "request_id": "req-500",
        })
    );
    // A generated id, different each time.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let answer = app
            .send(app.client.post(app.url("/api/v1/forbidden")))
            .await;
        assert_eq!(answer.status, 405);
        assert_eq!(answer.json()["instance"], "POST /api/v1/forbidden");
        assert_eq!(answer.json()["request_id"], answer.header("x-request-id"));
        ids.push(answer.json()["request_id"].as_str().unwrap().to_owned());
    }
    assert!(!ids[0].is_empty());
    assert_ne!(ids[0], ids[1]);
}

/// ... and for a 404 made before routing (native server: on warp, a request no route matches
/// goes on to the next filter, here `pactum_warp::not_found`).
async fn the_formatter_sees_a_404(app: &TestServer) {
    let given = app
        .client
        .get(app.url("/api/v2/nothing?x=1"))
        .header("x-request-id", "req-404");
    let answer = app.send(given).await;
    assert_eq!(answer.header("x-request-id"), "req-404");
    assert_eq!(
        answer.json(),
        json!({
            "title": "Not found",
            "status": 404,
            "instance": "GET /api/v2/nothing",
            "request_id": "req-404",
        })
    );
}

#[tokio::test]
async fn native() {
    let app = support::native_with(handlers(), support::options()).await;
    nested_routes_and_errors(&app).await;
    request_ids(
        &support::native_with(echoing(), support::options()).await,
        false,
    )
    .await;
    let trusting_app = support::native_with(trusting(), support::options()).await;
    the_typed_client_under_a_prefix(&trusting_app).await;
    request_ids(&trusting_app, true).await;
    let hiding = Pipeline::builder(handlers()).hide_internal_messages(true);
    hidden_messages(&support::native_with(hiding, support::options()).await).await;
    let formatted = support::native_with(problems(trusting()), support::options()).await;
    the_formatter_sees_the_request(&formatted).await;
    the_formatter_sees_a_404(&formatted).await;
}

#[tokio::test]
async fn warp() {
    let app = support::warp_with(handlers()).await;
    nested_routes_and_errors(&app).await;
    request_ids(&support::warp_with(echoing()).await, false).await;
    let trusting_app = support::warp_with(trusting()).await;
    the_typed_client_under_a_prefix(&trusting_app).await;
    request_ids(&trusting_app, true).await;
    let hiding = Pipeline::builder(handlers()).hide_internal_messages(true);
    hidden_messages(&support::warp_with(hiding).await).await;
    let formatted = support::warp_with(problems(trusting())).await;
    the_formatter_sees_the_request(&formatted).await;
}

#[tokio::test]
async fn warp_own_server() {
    let app = support::warp_own_server_with(Pipeline::builder(handlers())).await;
    nested_routes_and_errors(&app).await;
    request_ids(&support::warp_own_server_with(echoing()).await, false).await;
    request_ids(&support::warp_own_server_with(trusting()).await, true).await;
    let hiding = Pipeline::builder(handlers()).hide_internal_messages(true);
    hidden_messages(&support::warp_own_server_with(hiding).await).await;
    let formatted = support::warp_own_server_with(problems(trusting())).await;
    the_formatter_sees_the_request(&formatted).await;
}
