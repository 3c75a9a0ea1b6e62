//! Tower layers around the pipeline (`PipelineBuilder::layer`) see every answer — routed
//! requests, CORS preflights, 404s, 405s, errors — on the native server, the warp adapter (on
//! pactum's server and on warp's own) and in process; they read the route that matched
//! (`MatchedPath`). And a pactum service mounted in an axum app serves beside axum's routes.

use std::sync::{Arc, Mutex};

use http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CONTENT_TYPE, ORIGIN};
use http::{HeaderValue, Method};
use pactum::pipeline::{Body, MatchedPath};
use pactum::Pipeline;
use serde_json::json;
use tower_http::cors::CorsLayer;

use crate::support::{self, options, TestServer};

const APP_ORIGIN: &str = "https://app.example";

/// The conformance API with a CORS layer that allows one origin.
fn with_cors() -> Pipeline {
    Pipeline::builder(crate::api::handlers())
        .layer(
            CorsLayer::new()
                .allow_origin([HeaderValue::from_static(APP_ORIGIN)])
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([CONTENT_TYPE]),
        )
        .build()
        .expect("the pipeline builds")
}

/// A preflight, a routed request, a 404 and a 405 all carry the layer's header; another
/// origin gets none; the pipeline's answers are unchanged.
async fn cors_on_every_answer(app: &TestServer) {
    let preflight = app
        .send(
            app.client
                .request(Method::OPTIONS, app.url("/users"))
                .header(ORIGIN, APP_ORIGIN)
                .header("access-control-request-method", "POST")
                .header("access-control-request-headers", "content-type"),
        )
        .await;
    assert_eq!(preflight.status, 200, "{preflight:?}");
    assert_eq!(preflight.headers[ACCESS_CONTROL_ALLOW_ORIGIN], APP_ORIGIN);
    let methods = preflight.headers["access-control-allow-methods"]
        .to_str()
        .unwrap();
    assert!(methods.contains("POST"), "{methods}");

    let from_app = |method: Method, path: &str| {
        app.client
            .request(method, app.url(path))
            .header(ORIGIN, APP_ORIGIN)
    };
    let routed = app.send(from_app(Method::GET, "/health")).await;
    routed.assert(200, json!({"status": "ok"}));
    assert_eq!(routed.headers[ACCESS_CONTROL_ALLOW_ORIGIN], APP_ORIGIN);

    let missing = app.send(from_app(Method::GET, "/nowhere")).await;
    missing.assert(404, json!({"error": "Not found"}));
    assert_eq!(missing.headers[ACCESS_CONTROL_ALLOW_ORIGIN], APP_ORIGIN);

    let wrong_method = app.send(from_app(Method::DELETE, "/health")).await;
    wrong_method.assert(405, json!({"error": "Method not allowed"}));
    assert_eq!(
        wrong_method.headers[ACCESS_CONTROL_ALLOW_ORIGIN],
        APP_ORIGIN
    );
    assert_eq!(wrong_method.headers["allow"], "GET, HEAD, OPTIONS");

    let other = app
        .send(
            app.client
                .get(app.url("/health"))
                .header(ORIGIN, "https://evil.example"),
        )
        .await;
    assert_eq!(other.status, 200);
    assert!(other.headers.get(ACCESS_CONTROL_ALLOW_ORIGIN).is_none());
}

#[tokio::test]
async fn cors_on_the_native_server() {
    cors_on_every_answer(&support::native_with(with_cors(), options()).await).await;
}

#[tokio::test]
async fn cors_on_the_warp_adapter() {
    cors_on_every_answer(&support::warp_with(with_cors()).await).await;
}

#[tokio::test]
async fn cors_on_warps_own_server() {
    cors_on_every_answer(&support::warp_own_server_with(with_cors()).await).await;
}

#[tokio::test]
async fn cors_in_process() {
    let pipeline = with_cors();
    let request = http::Request::get("/nowhere")
        .header(ORIGIN, APP_ORIGIN)
        .body(Body::empty())
        .unwrap();
    let answer = pipeline.handle(request).await;
    assert_eq!(answer.status(), 404);
    assert_eq!(answer.headers()[ACCESS_CONTROL_ALLOW_ORIGIN], APP_ORIGIN);
}

/// A layer reads the matched route's template on the request (absent for a 404), and finds it
/// on the response too.
#[tokio::test]
async fn layers_read_the_route_that_matched() {
    let seen: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let record = {
        let seen = Arc::clone(&seen);
        tower::util::MapRequestLayer::new(move |request: http::Request<Body>| {
            let matched = request.extensions().get::<MatchedPath>();
            seen.lock()
                .unwrap()
                .push(matched.map(|m| m.as_str().to_owned()));
            request
        })
    };
    let pipeline = Pipeline::builder(crate::api::handlers())
        .layer(record)
        .build()
        .unwrap();
    for app in [
        support::native_with(pipeline.clone(), options()).await,
        support::warp_with(pipeline.clone()).await,
    ] {
        seen.lock().unwrap().clear();
        app.get("/health")
            .await
            .assert(200, json!({"status": "ok"}));
        assert_eq!(app.get("/users/12345").await.status, 404);
        assert_eq!(app.get("/nowhere").await.status, 404);
        assert_eq!(
            *seen.lock().unwrap(),
            [
                Some("/health".to_owned()),
                Some("/users/:id".to_owned()),
                None
            ]
        );
    }
    let request = http::Request::get("/users/1").body(Body::empty()).unwrap();
    let answer = pipeline.handle(request).await;
    assert_eq!(
        answer
            .extensions()
            .get::<MatchedPath>()
            .map(MatchedPath::as_str),
        Some("/users/:id")
    );
}

/// A layer whose service fails is answered 500 with the error body (logged), and the server
/// serves on.
#[tokio::test]
async fn a_failing_layer_is_a_500() {
    let refuse = tower::layer::layer_fn(|_inner: pactum::pipeline::PipelineService| {
        tower::service_fn(|_request: http::Request<Body>| async {
            Err::<http::Response<Body>, _>(std::io::Error::other("no capacity"))
        })
    });
    let pipeline = Pipeline::builder(crate::api::handlers())
        .layer(refuse)
        .build()
        .unwrap();
    let app = support::native_with(pipeline, options()).await;
    for _ in 0..2 {
        let answer = app.get("/health").await;
        assert_eq!(answer.status, 500, "{answer:?}");
        assert_eq!(answer.headers[CONTENT_TYPE], "application/json");
    }
}

/// A pactum service under axum's `Router::nest_service`: axum strips the prefix, pactum routes
/// the rest; both apps answer on one server.
#[tokio::test]
async fn a_pactum_service_nested_in_axum() {
    let api = pactum::server::service(crate::api::handlers()).expect("valid handlers");
    let app = axum::Router::new()
        .route("/axum", axum::routing::get(|| async { "from axum" }))
        .nest_service("/api", api);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = support::client();
    let get = |path: &str| client.get(format!("http://{addr}{path}")).send();

    let axum_route = get("/axum").await.unwrap();
    assert_eq!(axum_route.status(), 200);
    assert_eq!(axum_route.text().await.unwrap(), "from axum");

    let health = get("/api/health").await.unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(
        health.json::<serde_json::Value>().await.unwrap(),
        json!({"status": "ok"})
    );

    let created = client
        .post(format!("http://{addr}/api/users"))
        .json(&json!({"name": "Ada", "email": "ada@example.com", "age": 36}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);

    let invalid = client
        .post(format!("http://{addr}/api/users"))
        .json(&json!({"name": "", "email": "not an email"}))
        .send()
        .await
        .unwrap();
    assert_eq!(invalid.status(), 400);
    let body: serde_json::Value = invalid.json().await.unwrap();
    assert_eq!(body["error"], "Validation failed");

    let missing = get("/api/nowhere").await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(
        missing.json::<serde_json::Value>().await.unwrap(),
        json!({"error": "Not found"})
    );
}
