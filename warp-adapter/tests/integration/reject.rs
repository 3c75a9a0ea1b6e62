//! `Options::reject_errors`, `recover`, and pipelines built with settings.

use std::convert::Infallible;

use bytes::Bytes;
use pactum::{middleware, Pipeline};
use reqwest::StatusCode;
use serde_json::{json, Value};
use warp::http::{HeaderValue, StatusCode as WarpStatus};
use warp::reply::{Reply, Response};
use warp::{Filter, Rejection};

use crate::support;
use pactum_test_kit::{client, raw_response, serve_filter};

fn rejecting(
    handlers: Vec<pactum::handler::AnyHandler>,
) -> impl Filter<Extract = (Response,), Error = Rejection> + Clone {
    pactum_warp::Options::new()
        .reject_errors(true)
        .filter(handlers)
        .unwrap()
}

#[tokio::test]
async fn ready_made_recover_answers_like_the_default_mode() {
    let app = warp::path("api")
        .and(rejecting(support::users()))
        .recover(pactum_warp::recover)
        .or(pactum_warp::not_found());
    let server = serve_filter(app).await;

    let res = client()
        .post(server.url("/api/users"))
        .json(&json!({"name": "", "email": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "Validation failed");
    assert_eq!(body["details"].as_array().unwrap().len(), 2);

    let res = client()
        .delete(server.url("/api/users"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert!(res.headers()["allow"].to_str().unwrap().contains("POST"));
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Method not allowed"})
    );

    let res = client()
        .get(server.url("/api/users/0"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "User not found", "code": "user_not_found"})
    );

    let res = client()
        .head(server.url("/api/users/0"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.bytes().await.unwrap().is_empty());

    let res = raw_response(
        server.addr,
        b"POST /api/users HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n",
    )
    .await;
    assert_eq!(res.status, 413);
    assert_eq!(res.json(), json!({"error": "Payload too large"}));

    let res = client().get(server.url("/api/panic")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Internal server error"})
    );

    // Success and unmatched requests are unaffected.
    let res = client()
        .get(server.url("/api/users/7"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = client()
        .get(server.url("/api/unknown"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Not found"})
    );
}

async fn plain_text(rejection: Rejection) -> Result<Response, Infallible> {
    Ok(match rejection.find::<pactum_warp::PactumRejection>() {
        Some(e) => {
            let body = e.error().to_body();
            let text = format!("{} ({} details)", body.error, body.details.len());
            warp::reply::with_status(text, e.status()).into_response()
        }
        None if rejection.is_not_found() => {
            warp::reply::with_status("no such page", WarpStatus::NOT_FOUND).into_response()
        }
        None => WarpStatus::INTERNAL_SERVER_ERROR.into_response(),
    })
}

#[tokio::test]
async fn own_recover_formats_errors() {
    let app = warp::path("api")
        .and(rejecting(support::users()))
        .recover(plain_text);
    let server = serve_filter(app).await;

    let res = client()
        .post(server.url("/api/users"))
        .json(&json!({"name": "", "email": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(res.text().await.unwrap(), "Validation failed (2 details)");

    let res = client()
        .get(server.url("/api/users/0"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(res.text().await.unwrap(), "User not found (0 details)");

    let res = client()
        .get(server.url("/api/unknown"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.text().await.unwrap(), "no such page");
}

#[tokio::test]
async fn rejections_of_two_lists_combine() {
    let app = rejecting(support::users())
        .or(rejecting(support::orders()))
        .recover(pactum_warp::recover);
    let server = serve_filter(app).await;

    // The second list's error, after the first list's not-found.
    let res = client()
        .post(server.url("/orders"))
        .json(&json!({"qty": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        res.json::<Value>().await.unwrap()["details"][0]["path"],
        json!(["qty"])
    );

    // The first list's error wins over the second list's not-found.
    let res = client().get(server.url("/users/abc")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        res.json::<Value>().await.unwrap()["details"][0]["path"],
        json!(["id"])
    );

    // Unmatched: the recover passes warp's not-found on.
    let res = client().get(server.url("/nowhere")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.bytes().await.unwrap().is_empty());
}

#[tokio::test]
async fn recover_must_come_before_a_catch_all() {
    // warp tries the next `.or()` branch on any rejection, so a catch-all placed right after
    // a rejecting filter would swallow its errors; the recover goes in between.
    let catch_all =
        warp::any().map(|| warp::reply::with_status("catch-all", WarpStatus::NOT_FOUND));
    let app = rejecting(support::users())
        .recover(pactum_warp::recover)
        .or(catch_all);
    let server = serve_filter(app).await;

    let res = client().get(server.url("/users/abc")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let res = client().get(server.url("/nowhere")).send().await.unwrap();
    assert_eq!(res.text().await.unwrap(), "catch-all");
}

fn teapot_formatter(error: &pactum::Error) -> http::Response<Bytes> {
    let mut response =
        http::Response::new(Bytes::from(format!("formatted: {}", error.to_body().error)));
    *response.status_mut() = error.status();
    response
}

#[tokio::test]
async fn pipeline_settings_apply_in_both_modes() {
    let pipeline = || {
        let served_by = middleware::from_fn(|req, next| async move {
            let mut response = next.run(req).await?;
            response
                .headers_mut()
                .insert("x-served-by", HeaderValue::from_static("pactum"));
            Ok(response)
        });
        Pipeline::builder(support::orders())
            .middleware(served_by)
            .body_limit(16)
            .error_formatter(teapot_formatter)
            .build()
            .unwrap()
    };
    let answering = warp::path("a").and(pactum_warp::filter_with(pipeline()));
    let rejecting = warp::path("r")
        .and(
            pactum_warp::Options::new()
                .reject_errors(true)
                .filter_with(pipeline()),
        )
        .recover(pactum_warp::recover);
    let server = serve_filter(answering.or(rejecting)).await;

    for prefix in ["/a", "/r"] {
        let res = client()
            .get(server.url(&format!("{prefix}/orders")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{prefix}");
        assert_eq!(res.headers()["x-served-by"], "pactum", "{prefix}");

        // 17 bytes > the 16-byte server-wide limit; the formatter writes the answer.
        let res = client()
            .post(server.url(&format!("{prefix}/orders")))
            .header("content-type", "application/json")
            .body(r#"{"qty":        1}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE, "{prefix}");
        assert_eq!(
            res.text().await.unwrap(),
            "formatted: Payload too large",
            "{prefix}"
        );
    }
}
