//! `pactum::server::service` / `Pipeline` as a `tower::Service`, without a socket: routing errors,
//! start-up errors, middleware order and powers, error formatting, HEAD, and
//! `Handler::execute`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use pactum::http::header::{HeaderName, HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use pactum::http::{Method, Request, StatusCode};
use pactum::{
    error::ConfigError, handler, handler::AnyHandler, middleware, route, server::PactumService,
    Ctx, Endpoint, Error, HttpError, NoBody, NoParams, NoQuery, Pipeline,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tower::{Layer, Service, ServiceExt};
use validator::Validate;

use crate::api;

/// A response read whole.
struct Reply {
    status: StatusCode,
    headers: pactum::http::HeaderMap,
    body: Bytes,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
            .to_str()
            .expect("text header")
    }

    #[track_caller]
    fn assert(&self, status: u16, body: Value) {
        assert_eq!(self.status, status, "status of {:?}", self.body);
        assert_eq!(self.header("content-type"), "application/json");
        assert_eq!(self.json(), body);
    }
}

/// Sends one request through any service answering `http::Response<B>`.
async fn call<S, B>(service: S, request: Request<Full<Bytes>>) -> Reply
where
    S: Service<Request<Full<Bytes>>, Response = pactum::http::Response<B>>,
    S::Error: std::fmt::Debug,
    B: http_body::Body<Data = Bytes>,
    B::Error: std::fmt::Debug,
{
    let response = service.oneshot(request).await.expect("the service answers");
    let (parts, body) = response.into_parts();
    let body = body.collect().await.expect("body collected").to_bytes();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

fn get(uri: &str) -> Request<Full<Bytes>> {
    request(Method::GET, uri, "")
}

fn request(method: Method, uri: &str, body: &'static str) -> Request<Full<Bytes>> {
    let mut builder = Request::builder().method(method).uri(uri);
    if !body.is_empty() {
        builder = builder.header(CONTENT_TYPE, "application/json");
    }
    builder
        .body(Full::new(Bytes::from_static(body.as_bytes())))
        .expect("request builds")
}

fn conformance() -> PactumService {
    pactum::server::service(api::handlers()).expect("the conformance handlers build")
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Text {
    text: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct IdPath {
    id: u64,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct NamePath {
    name: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct UidPath {
    uid: u64,
}

fn text_endpoint(path: &'static str) -> Endpoint<NoParams, NoQuery, NoBody, Text> {
    Endpoint::get(route::static_path(path))
        .response::<Text>()
        .build()
        .expect("contract builds")
}

fn text_handler(path: &'static str, text: &'static str) -> AnyHandler {
    handler(text_endpoint(path), move |_| async move {
        Ok(Text { text: text.into() })
    })
    .into()
}

// ---------------------------------------------------------------------------------------
// The service answers like the server.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn service_answers_like_the_server() {
    let service = conformance();
    call(service.clone(), get("/health"))
        .await
        .assert(200, json!({"status": "ok"}));
    let user = json!({"id": 1, "name": "Ada", "email": "ada@example.com", "age": null,
                      "tags": [], "active": true});
    call(
        service.clone(),
        request(
            Method::POST,
            "/users",
            r#"{"name":"Ada","email":"ada@example.com"}"#,
        ),
    )
    .await
    .assert(201, user.clone());
    // The clone shares the pipeline (and the store behind it).
    call(service.clone(), get("/users/1"))
        .await
        .assert(200, user);
    call(service.clone(), get("/users/2"))
        .await
        .assert(404, json!({"error": "User not found"}));
    call(service.clone(), get("/nope"))
        .await
        .assert(404, json!({"error": "Not found"}));
    call(
        service.clone(),
        request(
            Method::POST,
            "/users",
            r#"{"name":"","email":"x@example.com"}"#,
        ),
    )
    .await
    .assert(
        400,
        json!({"error": "Validation failed", "details": [
            {"path": ["name"], "message": "length must be between 1 and 50"}]}),
    );
    let wrong = call(service.clone(), request(Method::DELETE, "/users", "")).await;
    wrong.assert(405, json!({"error": "Method not allowed"}));
    assert_eq!(wrong.header("allow"), "GET, HEAD, POST, OPTIONS");
    let options = call(service.clone(), request(Method::OPTIONS, "/users/1", "")).await;
    assert_eq!(options.status, 204);
    assert_eq!(
        options.header("allow"),
        "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
    );
    call(service.clone(), get("/errors/panic"))
        .await
        .assert(500, json!({"error": "Internal server error"}));
    call(service, get("/errors/plain"))
        .await
        .assert(500, json!({"error": "boom"}));
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Where {
    scheme: String,
    url: String,
}

#[tokio::test]
async fn ctx_url_is_rebuilt_from_the_uri_and_host() {
    let endpoint = Endpoint::get(route::static_path("/where"))
        .response::<Where>()
        .build()
        .expect("contract builds");
    let service = pactum::server::service(vec![handler(endpoint, |ctx: Ctx| async move {
        Ok(Where {
            scheme: ctx.url().scheme().to_owned(),
            url: ctx.url().to_string(),
        })
    })
    .into()])
    .expect("service builds");
    let host = Request::get("/where?x=1")
        .header("host", "api.example.com:8080")
        .body(Full::new(Bytes::new()))
        .expect("request builds");
    call(service.clone(), host).await.assert(
        200,
        json!({"scheme": "http", "url": "http://api.example.com:8080/where?x=1"}),
    );
    call(service.clone(), get("https://secure.example.com/where"))
        .await
        .assert(
            200,
            json!({"scheme": "https", "url": "https://secure.example.com/where"}),
        );
    call(service, get("/where")).await.assert(
        200,
        json!({"scheme": "http", "url": "http://localhost/where"}),
    );
}

#[tokio::test]
async fn a_cors_layer_answers_preflights() {
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([CONTENT_TYPE]);
    let service = cors.layer(conformance());
    let preflight = Request::builder()
        .method(Method::OPTIONS)
        .uri("/users")
        .header("origin", "https://app.example.com")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Full::new(Bytes::new()))
        .expect("request builds");
    let answer = call(service.clone(), preflight).await;
    assert!(answer.status.is_success(), "preflight: {}", answer.status);
    assert_eq!(answer.header("access-control-allow-origin"), "*");
    let methods = answer.header("access-control-allow-methods");
    assert!(methods.contains("POST"), "{methods}");
    assert_eq!(
        answer.header("access-control-allow-headers"),
        "content-type"
    );
    // The layer answered it, not the pipeline (which would say 204 with `Allow`).
    assert!(
        answer.headers.get("allow").is_none(),
        "{:?}",
        answer.headers
    );

    // A simple cross-origin request reaches the pipeline and gets the CORS header added.
    let simple = Request::get("/health")
        .header("origin", "https://app.example.com")
        .body(Full::new(Bytes::new()))
        .expect("request builds");
    let answer = call(service.clone(), simple).await;
    answer.assert(200, json!({"status": "ok"}));
    assert_eq!(answer.header("access-control-allow-origin"), "*");

    // Without the layer, the pipeline answers OPTIONS itself.
    let options = call(conformance(), request(Method::OPTIONS, "/users", "")).await;
    assert_eq!(options.status, 204);
    assert_eq!(options.header("allow"), "GET, HEAD, POST, OPTIONS");
}

// ---------------------------------------------------------------------------------------
// Start-up errors.
// ---------------------------------------------------------------------------------------

#[test]
fn duplicate_method_and_route_is_a_startup_error() {
    let err = pactum::server::service(vec![text_handler("/dup", "a"), text_handler("/dup", "b")])
        .unwrap_err();
    assert_eq!(
        err,
        ConfigError::DuplicateRoute {
            method: Method::GET,
            route: "/dup".into(),
        }
    );
    assert_eq!(err.to_string(), "two handlers for `GET /dup`");
    // The same path with another method is fine.
    let post = Endpoint::post(route::static_path("/dup"))
        .build()
        .expect("contract builds");
    pactum::server::service(vec![
        text_handler("/dup", "a"),
        handler(post, |_| async { Ok(pactum::contract::NoContent) }).into(),
    ])
    .expect("GET and POST on one path");
}

#[test]
fn routes_differing_only_in_param_names_conflict() {
    let by_id = Endpoint::get(route::pattern("/users/:id"))
        .params::<IdPath>()
        .build()
        .expect("contract builds");
    let by_name = Endpoint::delete(route::pattern("/users/:name"))
        .params::<NamePath>()
        .build()
        .expect("contract builds");
    let err = pactum::server::service(vec![
        handler(by_id, |_| async { Ok(pactum::contract::NoContent) }).into(),
        handler(by_name, |_| async { Ok(pactum::contract::NoContent) }).into(),
    ])
    .unwrap_err();
    match &err {
        ConfigError::ConflictingRoutes { route, reason } => {
            assert_eq!(route, "/users/:name");
            assert!(!reason.is_empty());
        }
        other => panic!("expected ConflictingRoutes, got {other:?}"),
    }
    assert!(err.to_string().contains("/users/:name"), "{err}");
    // `serve` reports it too, before binding.
    let served = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(pactum::serve(
            vec![text_handler("/x", "a"), text_handler("/x", "b")],
            crate::support::options(),
        ));
    assert!(
        matches!(
            served,
            Err(pactum::server::ServeError::Config(
                ConfigError::DuplicateRoute { .. }
            ))
        ),
        "{served:?}"
    );
}

#[test]
fn params_fields_must_be_the_route_names() {
    let err = Endpoint::get(route::pattern("/users/:id"))
        .params::<UidPath>()
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        ConfigError::RouteParamsMismatch {
            route: "/users/:id".into(),
            route_names: vec!["id".into()],
            params_fields: vec!["uid".into()],
        }
    );
    let message = err.to_string();
    assert!(
        message.contains("/users/:id") && message.contains("uid"),
        "{message}"
    );
    // A malformed route is reported when built, with the route in the message.
    let invalid = Endpoint::get(route::static_path("/users/:id"))
        .build()
        .unwrap_err();
    assert!(
        matches!(&invalid, ConfigError::InvalidRoute { route, .. } if route == "/users/:id"),
        "{invalid:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Middleware.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn server_wide_middleware_wraps_contract_middleware() {
    let pipeline = Pipeline::builder(api::handlers())
        .middleware(api::tracer("server-a"))
        .middleware(api::tracer("server-b"))
        .build()
        .expect("pipeline builds");
    let answer = call(PactumService::new(pipeline), get("/trace")).await;
    answer.assert(
        200,
        json!({"trace": ["server-a:before", "server-b:before", "outer:before",
                         "inner:before", "handler"]}),
    );
    assert_eq!(
        answer.header("x-trace-after"),
        "inner,outer,server-b,server-a"
    );
}

#[tokio::test]
async fn server_wide_middleware_runs_on_every_route_but_not_on_404() {
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&seen);
    let recorder = middleware::from_fn(move |req, next| {
        let log = Arc::clone(&log);
        async move {
            log.lock()
                .unwrap()
                .push(format!("{} {}", req.method(), req.route()));
            next.run(req).await
        }
    });
    let pipeline = Pipeline::builder(api::handlers())
        .middleware(recorder)
        .build()
        .expect("pipeline builds");
    let service = PactumService::new(pipeline);
    assert_eq!(call(service.clone(), get("/health")).await.status, 200);
    assert_eq!(call(service.clone(), get("/users/7")).await.status, 404);
    assert_eq!(call(service, get("/nope")).await.status, 404);
    assert_eq!(*seen.lock().unwrap(), ["GET /health", "GET /users/:id"]);
}

#[tokio::test]
async fn middleware_can_answer_early_with_a_response() {
    let called = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&called);
    let endpoint = Endpoint::post(route::static_path("/notes"))
        .body::<Text>()
        .response::<Text>()
        .middleware(middleware::from_fn(|req, next| async move {
            if req.headers().contains_key("x-maintenance") {
                let response = pactum::http::Response::builder()
                    .status(StatusCode::IM_A_TEAPOT)
                    .header("x-early", "yes")
                    .body("short and stout".into())
                    .expect("response builds");
                return Ok(response);
            }
            next.run(req).await
        }))
        .build()
        .expect("contract builds");
    let service = pactum::server::service(vec![handler(
        endpoint,
        move |ctx: Ctx<NoParams, NoQuery, Text>| {
            let flag = Arc::clone(&flag);
            async move {
                flag.store(true, Ordering::SeqCst);
                Ok(ctx.body)
            }
        },
    )
    .into()])
    .expect("service builds");
    // The body is not even valid JSON: the middleware answers before it is parsed.
    let early = Request::post("/notes")
        .header("x-maintenance", "1")
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from_static(b"not json")))
        .expect("request builds");
    let answer = call(service.clone(), early).await;
    assert_eq!(answer.status, StatusCode::IM_A_TEAPOT);
    assert_eq!(answer.header("x-early"), "yes");
    assert_eq!(answer.body, "short and stout");
    assert!(!called.load(Ordering::SeqCst), "the handler ran");

    call(service, request(Method::POST, "/notes", r#"{"text":"hi"}"#))
        .await
        .assert(201, json!({"text": "hi"}));
    assert!(called.load(Ordering::SeqCst));
}

#[tokio::test]
async fn middleware_can_catch_an_error_and_return_it_again() {
    let caught = Arc::new(Mutex::new(Vec::<u16>::new()));
    let log = Arc::clone(&caught);
    let catcher = middleware::from_fn(move |req, next| {
        let log = Arc::clone(&log);
        async move {
            match next.run(req).await {
                Ok(response) => Ok(response),
                Err(error) => {
                    log.lock().unwrap().push(error.status().as_u16());
                    if error.status() == StatusCode::NOT_FOUND {
                        let body = error.to_body();
                        let again = HttpError::not_found(body.error)
                            .with_code("missing")
                            .with_header(
                                HeaderName::from_static("x-caught"),
                                HeaderValue::from_static("404"),
                            );
                        return Err(again.into());
                    }
                    Err(error)
                }
            }
        }
    });
    let pipeline = Pipeline::builder(api::handlers())
        .middleware(catcher)
        .build()
        .expect("pipeline builds");
    let service = PactumService::new(pipeline);
    let missing = call(service.clone(), get("/users/9")).await;
    missing.assert(404, json!({"error": "User not found", "code": "missing"}));
    assert_eq!(missing.header("x-caught"), "404");
    // Other errors are returned unchanged, with their details.
    let invalid = call(service.clone(), get("/users/abc")).await;
    assert_eq!(invalid.status, 400);
    assert_eq!(invalid.json()["details"][0]["path"], json!(["id"]));
    assert!(invalid.headers.get("x-caught").is_none());
    call(service.clone(), get("/errors/plain"))
        .await
        .assert(500, json!({"error": "boom"}));
    // A panic is not an error `next` returns: it unwinds past the middleware and is answered
    // 500 outside the chain.
    call(service.clone(), get("/errors/panic"))
        .await
        .assert(500, json!({"error": "Internal server error"}));
    assert_eq!(*caught.lock().unwrap(), [404, 400, 500]);
}

#[tokio::test]
async fn middleware_can_change_the_response() {
    let stamp = middleware::from_fn(|req, next| async move {
        let mut response = next.run(req).await?;
        *response.status_mut() = StatusCode::ACCEPTED;
        response
            .headers_mut()
            .insert("x-stamped", HeaderValue::from_static("1"));
        Ok(response)
    });
    let pipeline = Pipeline::builder(api::handlers())
        .middleware(stamp)
        .build()
        .expect("pipeline builds");
    let answer = call(PactumService::new(pipeline), get("/health")).await;
    answer.assert(202, json!({"status": "ok"}));
    assert_eq!(answer.header("x-stamped"), "1");
}

// ---------------------------------------------------------------------------------------
// Error formatting, HEAD, execute.
// ---------------------------------------------------------------------------------------

fn plain_text_errors(error: &Error) -> pactum::pipeline::Response {
    let text = format!("{} {}", error.status().as_u16(), error.to_body().error);
    let mut response = pactum::http::Response::new(text.into());
    *response.status_mut() = error.status();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    if let Some(http) = error.as_http() {
        response.headers_mut().extend(http.headers().clone());
    }
    response
}

#[tokio::test]
async fn a_custom_error_formatter_answers_every_error() {
    let pipeline = Pipeline::builder(api::handlers())
        .error_formatter(plain_text_errors)
        .build()
        .expect("pipeline builds");
    let service = PactumService::new(pipeline);
    for (req, status, text) in [
        (get("/nope"), 404, "404 Not found"),
        (get("/users/3"), 404, "404 User not found"),
        (get("/users/abc"), 400, "400 Validation failed"),
        (get("/errors/plain"), 500, "500 boom"),
        (get("/errors/panic"), 500, "500 Internal server error"),
        (
            request(Method::DELETE, "/users", ""),
            405,
            "405 Method not allowed",
        ),
        (
            request(Method::POST, "/users", "{"),
            400,
            "400 Invalid JSON",
        ),
    ] {
        let answer = call(service.clone(), req).await;
        assert_eq!(answer.status, status, "{text}");
        assert_eq!(answer.header("content-type"), "text/plain");
        assert_eq!(answer.body, text);
    }
    let wrong = call(service.clone(), request(Method::DELETE, "/users", "")).await;
    assert_eq!(wrong.header("allow"), "GET, HEAD, POST, OPTIONS");
    // Successes are untouched.
    call(service, get("/health"))
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn head_on_a_get_route_has_the_gets_headers_and_no_body() {
    let service = conformance();
    let full = call(service.clone(), get("/health")).await;
    let head = call(service.clone(), request(Method::HEAD, "/health", "")).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "{:?}", head.body);
    assert_eq!(head.header("content-type"), "application/json");
    assert_eq!(
        head.header("content-length"),
        full.body.len().to_string().as_str()
    );
    assert_eq!(head.header("content-length"), "15");
    // Errors on HEAD have no body either.
    let missing = call(service.clone(), request(Method::HEAD, "/users/1", "")).await;
    assert_eq!(missing.status, 404);
    assert!(missing.body.is_empty(), "{:?}", missing.body);
    assert_eq!(
        missing
            .headers
            .get(CONTENT_LENGTH)
            .map(|v| v.to_str().unwrap()),
        Some(r#"{"error":"User not found"}"#.len().to_string().as_str())
    );
    // HEAD on a route without GET is a 405.
    let no_get = call(service, request(Method::HEAD, "/me/notes", "")).await;
    assert_eq!(no_get.status, 405);
    assert!(no_get.body.is_empty());
}

#[tokio::test]
async fn handler_execute_runs_without_http_or_middleware() {
    let endpoint = Endpoint::get(route::pattern("/users/:id"))
        .params::<IdPath>()
        .response::<Text>()
        // Execute bypasses middleware: this one would reject every request.
        .middleware(middleware::from_fn(|_req, _next| async {
            Err(HttpError::forbidden("never").into())
        }))
        .build()
        .expect("contract builds");
    let h = handler(endpoint, |ctx: Ctx<IdPath>| async move {
        match ctx.params.id {
            0 => Err(HttpError::not_found("User not found").into()),
            1 => Err(std::io::Error::other("disk on fire").into()),
            id => Ok(Text {
                text: format!("user {id} via {}", ctx.url()),
            }),
        }
    });
    let ok = h
        .execute(Ctx::new(IdPath { id: 7 }, NoQuery, NoBody))
        .await
        .expect("handler succeeds");
    assert_eq!(ok.text, "user 7 via http://localhost/");

    let not_found = h
        .execute(Ctx::new(IdPath { id: 0 }, NoQuery, NoBody))
        .await
        .unwrap_err();
    assert_eq!(not_found.status(), 404);
    assert_eq!(not_found.as_http().unwrap().message(), "User not found");

    let io = h
        .execute(Ctx::new(IdPath { id: 1 }, NoQuery, NoBody))
        .await
        .unwrap_err();
    assert_eq!(io.status(), 500);
    assert_eq!(
        io.downcast_ref::<std::io::Error>().unwrap().to_string(),
        "disk on fire"
    );

    // Through HTTP, the middleware does run.
    let service = pactum::server::service(vec![h.into()]).expect("service builds");
    call(service, get("/users/7"))
        .await
        .assert(403, json!({"error": "never"}));
}

#[tokio::test]
async fn the_service_is_ready_and_reusable() {
    let mut service = conformance();
    for _ in 0..3 {
        let ready = ServiceExt::<Request<Full<Bytes>>>::ready(&mut service)
            .await
            .expect("always ready");
        let response = ready.call(get("/health")).await.expect("infallible");
        assert_eq!(response.status(), 200);
    }
}
