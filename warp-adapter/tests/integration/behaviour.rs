//! The pipeline's behaviour through warp: the same answers as the native server.
//!
//! Every check runs twice: on warp's own server and on pactum's native server
//! (`pactum_warp::serve`).

use std::net::SocketAddr;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use warp::Filter;

use crate::support::{self, client, raw, TestServer, TOKEN, USERS_BODY_LIMIT};

/// The app under test: the `users` list under `/api`, pactum's JSON 404 for the rest.
fn app() -> impl Filter<Extract = (impl warp::Reply,), Error = std::convert::Infallible> + Clone {
    let api = pactum_warp::filter(support::users()).unwrap();
    warp::path("api").and(api).or(pactum_warp::not_found())
}

/// A running app and what is needed to stop it.
enum Running {
    Warp(TestServer),
    #[cfg(feature = "server")]
    Pactum(pactum::Server),
}

impl Running {
    fn addr(&self) -> SocketAddr {
        match self {
            Running::Warp(s) => s.addr,
            #[cfg(feature = "server")]
            Running::Pactum(s) => s.local_addr(),
        }
    }
}

async fn on_warp() -> Running {
    Running::Warp(support::spawn(app()).await)
}

#[cfg(feature = "server")]
async fn on_pactum() -> Running {
    let options = pactum::ServerOptions::new().port(0).hostname("127.0.0.1");
    Running::Pactum(pactum_warp::serve(app(), options).await.unwrap())
}

/// `name` becomes a test on warp's server and one on pactum's.
macro_rules! on_both_servers {
    ($($name:ident),* $(,)?) => {
        mod warp_server {
            $(
                #[tokio::test]
                async fn $name() {
                    let running = super::on_warp().await;
                    super::$name(running.addr()).await;
                }
            )*
        }
        #[cfg(feature = "server")]
        mod pactum_server {
            $(
                #[tokio::test]
                async fn $name() {
                    let running = super::on_pactum().await;
                    super::$name(running.addr()).await;
                }
            )*
        }
    };
}

on_both_servers!(
    get_with_params,
    post_answers_201,
    validation_failure_has_details,
    invalid_json,
    param_that_does_not_parse,
    handler_http_error_keeps_code,
    method_not_allowed_with_allow,
    options_answers_allow,
    head_has_headers_no_body,
    unsupported_media_type,
    declared_length_over_limit,
    streamed_body_over_limit,
    panic_is_500_and_server_keeps_serving,
    query_and_full_url,
    middleware_rejects_before_body,
    unknown_path_is_json_404,
);

fn url(addr: SocketAddr, path: &str) -> String {
    format!("http://{addr}/api{path}")
}

async fn get_with_params(addr: SocketAddr) {
    let res = client().get(url(addr, "/users/7")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"id": 7, "name": "Ada"})
    );
}

async fn post_answers_201(addr: SocketAddr) {
    let res = client()
        .post(url(addr, "/users"))
        .json(&json!({"name": "Grace", "email": "grace@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"id": 1, "name": "Grace"})
    );
}

async fn validation_failure_has_details(addr: SocketAddr) {
    let res = client()
        .post(url(addr, "/users"))
        .json(&json!({"name": "", "email": "not-an-email"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "Validation failed");
    let details = body["details"].as_array().unwrap();
    let paths: Vec<&Value> = details.iter().map(|d| &d["path"]).collect();
    assert!(paths.contains(&&json!(["name"])), "{body}");
    assert!(paths.contains(&&json!(["email"])), "{body}");
    assert!(details
        .iter()
        .all(|d| d["message"].as_str().is_some_and(|m| !m.is_empty())));
}

async fn invalid_json(addr: SocketAddr) {
    let res = client()
        .post(url(addr, "/users"))
        .header("content-type", "application/json")
        .body("{\"name\":")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "Invalid JSON");
    assert_eq!(body["details"].as_array().unwrap().len(), 1);
}

async fn param_that_does_not_parse(addr: SocketAddr) {
    let res = client().get(url(addr, "/users/abc")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "Validation failed");
    assert_eq!(body["details"][0]["path"], json!(["id"]));
}

async fn handler_http_error_keeps_code(addr: SocketAddr) {
    let res = client().get(url(addr, "/users/0")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "User not found", "code": "user_not_found"})
    );
}

async fn method_not_allowed_with_allow(addr: SocketAddr) {
    let res = client().delete(url(addr, "/users")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    let allow = res.headers()["allow"].to_str().unwrap().to_owned();
    assert!(allow.contains("POST"), "{allow}");
    assert!(!allow.contains("DELETE"), "{allow}");
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Method not allowed"})
    );
}

async fn options_answers_allow(addr: SocketAddr) {
    let res = client()
        .request(Method::OPTIONS, url(addr, "/users/7"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let allow = res.headers()["allow"].to_str().unwrap().to_owned();
    assert!(allow.contains("GET") && allow.contains("HEAD"), "{allow}");
}

async fn head_has_headers_no_body(addr: SocketAddr) {
    let get = client().get(url(addr, "/users/7")).send().await.unwrap();
    let get_len = get.bytes().await.unwrap().len();

    let res = client().head(url(addr, "/users/7")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(
        res.headers()["content-length"],
        get_len.to_string().as_str()
    );
    assert!(res.bytes().await.unwrap().is_empty());

    let res = client().head(url(addr, "/users/0")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.bytes().await.unwrap().is_empty());
}

async fn unsupported_media_type(addr: SocketAddr) {
    let res = client()
        .post(url(addr, "/users"))
        .header("content-type", "text/plain")
        .body(r#"{"name":"Ada","email":"ada@example.com"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Unsupported media type"})
    );
}

async fn declared_length_over_limit(addr: SocketAddr) {
    // The body is never sent: the declared length alone is refused.
    let res = raw(
        addr,
        b"POST /api/users HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n",
    )
    .await;
    assert_eq!(res.status, 413);
    assert_eq!(res.json(), json!({"error": "Payload too large"}));
}

async fn streamed_body_over_limit(addr: SocketAddr) {
    // No Content-Length: the limit cuts the chunked body off while it streams.
    let chunk = format!("{{\"name\":\"{}\"", "a".repeat(USERS_BODY_LIMIT * 2));
    let request = format!(
        "POST /api/users HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len()
    );
    let res = raw(addr, request.as_bytes()).await;
    assert_eq!(res.status, 413);
    assert_eq!(res.json(), json!({"error": "Payload too large"}));
}

async fn panic_is_500_and_server_keeps_serving(addr: SocketAddr) {
    let res = client().get(url(addr, "/panic")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Internal server error"})
    );

    let res = client().get(url(addr, "/users/1")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

async fn query_and_full_url(addr: SocketAddr) {
    let res = client()
        .get(url(addr, "/whoami?tag=a&tag=b&limit=5"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    // `ctx.url` is the URL the client asked for, mount prefix included.
    assert_eq!(
        body["url"],
        format!("http://{addr}/api/whoami?tag=a&tag=b&limit=5")
    );
    assert_eq!(body["tags"], json!(["a", "b"]));
    assert_eq!(body["limit"], 5);

    let res = client()
        .get(url(addr, "/whoami?limit=many"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["details"][0]["path"], json!(["limit"]));
}

async fn middleware_rejects_before_body(addr: SocketAddr) {
    // Wrong content type and no token: the middleware answers first.
    let res = client()
        .post(url(addr, "/secure"))
        .header("content-type", "text/plain")
        .body("not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(res.headers()["www-authenticate"], "Bearer");
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Unauthorized"})
    );

    let res = client()
        .post(url(addr, "/secure"))
        .bearer_auth(TOKEN)
        .json(&json!({"name": "Ada", "email": "ada@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
}

async fn unknown_path_is_json_404(addr: SocketAddr) {
    for path in [
        "/api/nope",
        "/elsewhere",
        "/api/users/7/extra",
        "/api/Users/7",
    ] {
        let res = client()
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            res.json::<Value>().await.unwrap(),
            json!({"error": "Not found"}),
            "{path}"
        );
    }
}
