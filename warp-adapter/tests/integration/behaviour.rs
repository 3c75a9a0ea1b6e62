//! What only a mounted filter shows: `ctx.url()` keeps the mount prefix, the JSON 404 around
//! the mount, an `HttpError` code through warp.
//!
//! Every check runs twice: on warp's own server and on pactum's native server
//! (`pactum_warp::serve`). The whole behaviour suite (every row of the error table) runs
//! against this adapter in the workspace's `tests/integration/behaviour.rs`, with the same
//! test bodies as the native server.

use std::net::SocketAddr;

use reqwest::StatusCode;
use serde_json::{json, Value};
use warp::Filter;

use crate::support;
use pactum_test_kit::{client, TestServer};

/// The app under test: the `users` list under `/api`, pactum's JSON 404 for the rest.
fn app() -> impl Filter<Extract = (impl warp::Reply,), Error = std::convert::Infallible> + Clone {
    let api = pactum_warp::filter(support::users()).unwrap();
    warp::path("api").and(api).or(pactum_warp::not_found())
}

async fn on_warp() -> TestServer {
    pactum_test_kit::serve_filter(app()).await
}

#[cfg(feature = "server")]
async fn on_pactum() -> TestServer {
    pactum_test_kit::serve_filter_on_pactum(app()).await
}

/// `name` becomes a test on warp's server and one on pactum's.
macro_rules! on_both_servers {
    ($($name:ident),* $(,)?) => {
        mod warp_server {
            $(
                #[tokio::test]
                async fn $name() {
                    let running = super::on_warp().await;
                    super::$name(running.addr).await;
                }
            )*
        }
        #[cfg(feature = "server")]
        mod pactum_server {
            $(
                #[tokio::test]
                async fn $name() {
                    let running = super::on_pactum().await;
                    super::$name(running.addr).await;
                }
            )*
        }
    };
}

on_both_servers!(
    handler_http_error_keeps_code,
    query_and_full_url,
    unknown_path_is_json_404,
);

fn url(addr: SocketAddr, path: &str) -> String {
    format!("http://{addr}/api{path}")
}

async fn handler_http_error_keeps_code(addr: SocketAddr) {
    let res = client().get(url(addr, "/users/0")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "User not found", "code": "user_not_found"})
    );
}

async fn query_and_full_url(addr: SocketAddr) {
    let res = client()
        .get(url(addr, "/whoami?tag=a&tag=b&limit=5"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    // `ctx.url()` is the URL the client asked for, mount prefix included.
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
