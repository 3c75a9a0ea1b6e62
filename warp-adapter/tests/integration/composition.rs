//! pactum filters among warp's own: mount points, `.or()`, CORS, logging, compression, a
//! catch-all and a recover.

use std::convert::Infallible;
use std::io::Read;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use warp::http::StatusCode as WarpStatus;
use warp::reply::Reply;
use warp::{Filter, Rejection};

use crate::support;
use pactum_test_kit::{client, serve_filter};

#[tokio::test]
async fn two_lists_under_two_prefixes() {
    let v1 = warp::path("v1").and(pactum_warp::filter(support::users()).unwrap());
    let v2 = warp::path("v2").and(pactum_warp::filter(support::orders()).unwrap());
    let app = warp::path("api").and(v1.or(v2));
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/v1/users/7"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.json::<Value>().await.unwrap()["id"], 7);

    let res = client()
        .get(server.url("/api/v2/orders"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"count": 3}));

    // Each list answers only under its own prefix.
    let res = client()
        .get(server.url("/api/v2/users/7"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = client()
        .get(server.url("/api/v1/orders"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // The full URL reaches the handler, prefixes included.
    let res = client()
        .get(server.url("/api/v1/whoami?tag=x"))
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["url"], server.url("/api/v1/whoami?tag=x"));
}

#[tokio::test]
async fn two_lists_at_one_mount_point_and_plain_warp_routes() {
    let users = pactum_warp::filter(support::users()).unwrap();
    let orders = pactum_warp::filter(support::orders()).unwrap();
    let plain = warp::path!("plain").map(|| "plain warp");
    let app = warp::path("api").and(users.or(orders).or(plain));
    let server = serve_filter(app).await;

    // The first list rejects `/orders` without touching the body: the second one reads it.
    let res = client()
        .post(server.url("/api/orders"))
        .json(&json!({"qty": 5}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"count": 5}));

    let res = client()
        .post(server.url("/api/orders"))
        .json(&json!({"qty": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["details"][0]["path"], json!(["qty"]));

    let res = client().get(server.url("/api/plain")).send().await.unwrap();
    assert_eq!(res.text().await.unwrap(), "plain warp");

    let res = client()
        .get(server.url("/api/users/7"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[tokio::test]
async fn catch_all_after_the_filters() {
    let api = pactum_warp::filter(support::users()).unwrap();
    let catch_all =
        warp::any().map(|| warp::reply::with_status("nothing here", WarpStatus::NOT_FOUND));
    let app = warp::path("api").and(api).or(catch_all);
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/unknown"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(res.text().await.unwrap(), "nothing here");

    // A known path keeps pactum's answers, errors included: the catch-all does not see them.
    let res = client()
        .delete(server.url("/api/users"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    let res = client()
        .get(server.url("/api/users/0"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "User not found"
    );
}

#[tokio::test]
async fn warp_default_for_unmatched_is_empty_404() {
    let app = warp::path("api").and(pactum_warp::filter(support::users()).unwrap());
    let server = serve_filter(app).await;
    let res = client()
        .get(server.url("/api/unknown"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.bytes().await.unwrap().is_empty());
}

async fn json_not_found(rejection: Rejection) -> Result<warp::reply::Response, Infallible> {
    let (status, message) = if rejection.is_not_found() {
        (WarpStatus::NOT_FOUND, "custom: not found")
    } else {
        (WarpStatus::INTERNAL_SERVER_ERROR, "custom: other")
    };
    let body = warp::reply::json(&json!({ "message": message }));
    Ok(warp::reply::with_status(body, status).into_response())
}

#[tokio::test]
async fn recover_formats_unmatched_requests() {
    let app = warp::path("api")
        .and(pactum_warp::filter(support::users()).unwrap())
        .recover(json_not_found);
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/unknown"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"message": "custom: not found"})
    );

    // Errors inside a matched route are answered by pactum, not by the recover.
    let res = client()
        .post(server.url("/api/users"))
        .json(&json!({"name": "", "email": "a@b.c"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "Validation failed"
    );
}

#[tokio::test]
async fn cors_answers_preflight_and_decorates_answers() {
    let cors = warp::cors()
        .allow_any_origin()
        .allow_methods(vec!["GET", "POST"])
        .allow_headers(vec!["content-type", "authorization"]);
    let app = warp::path("api")
        .and(pactum_warp::filter(support::users()).unwrap())
        .with(cors);
    let server = serve_filter(app).await;

    // A preflight is answered by warp's CORS filter, before pactum's OPTIONS.
    let res = client()
        .request(Method::OPTIONS, server.url("/api/users"))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers().contains_key("access-control-allow-methods"));
    assert!(res.headers().get("allow").is_none());

    // Answers, errors included, carry the CORS headers.
    let res = client()
        .post(server.url("/api/users"))
        .header("origin", "https://app.example")
        .json(&json!({"name": "", "email": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        res.headers()["access-control-allow-origin"],
        "https://app.example"
    );

    // A plain OPTIONS (no preflight headers) still reaches pactum.
    let res = client()
        .request(Method::OPTIONS, server.url("/api/users"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let allow = res.headers()["allow"].to_str().unwrap();
    assert!(allow.contains("POST"), "{allow}");
}

#[tokio::test]
async fn log_sees_pactum_statuses() {
    let seen = Arc::new(AtomicU16::new(0));
    let record = Arc::clone(&seen);
    let app = warp::path("api")
        .and(pactum_warp::filter(support::users()).unwrap())
        .with(warp::log("pactum_warp::tests"))
        .with(warp::log::custom(move |info| {
            record.store(info.status().as_u16(), Ordering::SeqCst);
        }));
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/users/abc"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(seen.load(Ordering::SeqCst), 400);

    let res = client()
        .get(server.url("/api/users/3"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(seen.load(Ordering::SeqCst), 200);
}

#[tokio::test]
async fn gzip_compression() {
    let app = warp::path("api")
        .and(pactum_warp::filter(support::users()).unwrap())
        .with(warp::filters::compression::gzip());
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/users/7"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-encoding"], "gzip");
    let compressed = res.bytes().await.unwrap();
    let mut json = String::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_string(&mut json)
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&json).unwrap(),
        json!({"id": 7, "name": "Ada"})
    );
}

#[tokio::test]
async fn everything_together() {
    let v1 = warp::path("v1").and(pactum_warp::filter(support::users()).unwrap());
    let v2 = warp::path("v2").and(pactum_warp::filter(support::orders()).unwrap());
    let app = warp::path("api")
        .and(v1.or(v2))
        .or(pactum_warp::not_found())
        .with(warp::cors().allow_any_origin())
        .with(warp::log("pactum_warp::tests"))
        .with(warp::filters::compression::gzip());
    let server = serve_filter(app).await;

    let res = client()
        .get(server.url("/api/v2/orders"))
        .header("origin", "https://app.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-encoding"], "gzip");
    assert!(res.headers().contains_key("access-control-allow-origin"));

    let res = client().get(server.url("/nowhere")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let mut json = String::new();
    flate2::read::GzDecoder::new(&res.bytes().await.unwrap()[..])
        .read_to_string(&mut json)
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&json).unwrap(),
        json!({"error": "Not found"})
    );
}
