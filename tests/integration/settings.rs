//! Contract and response settings no other test pins, through the pipeline without sockets:
//! per-contract body limits, `ResponseParts`, `HttpError` headers, a query that denies
//! unknown fields, and a catch-all's dot segments with and without the route's opt-out. (The per-request tracing span is pinned in `tests/tracing_span.rs`.)

use pactum::http::header::{LOCATION, RETRY_AFTER};
use pactum::http::{HeaderValue, StatusCode};
use pactum::{
    handler, pipeline::Body, route, Ctx, Endpoint, HttpError, NoParams, NoQuery, Pipeline,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Note {
    text: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
#[serde(deny_unknown_fields)]
struct Strict {
    page: Option<u32>,
}

fn post(path: &str, body: &'static str) -> http::Request<Body> {
    http::Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

fn get(path: &str) -> http::Request<Body> {
    http::Request::get(path).body(Body::empty()).unwrap()
}

/// Two body routes: one with its own 16-byte limit, one with the pipeline's (64 bytes here).
fn limits() -> Pipeline {
    let tight = Endpoint::post(route::static_path("/tight"))
        .body::<Note>()
        .body_limit(16)
        .build()
        .unwrap();
    let roomy = Endpoint::post(route::static_path("/roomy"))
        .body::<Note>()
        .body_limit(1024)
        .build()
        .unwrap();
    let default = Endpoint::post(route::static_path("/default"))
        .body::<Note>()
        .build()
        .unwrap();
    let ok = |_: Ctx<NoParams, NoQuery, Note>| async { Ok(pactum::contract::NoContent) };
    Pipeline::builder(vec![
        handler(tight, ok).into(),
        handler(roomy, ok).into(),
        handler(default, ok).into(),
    ])
    .body_limit(64)
    .build()
    .unwrap()
}

#[tokio::test]
async fn a_contract_body_limit_overrides_the_pipeline_limit() {
    let pipeline = limits();
    let medium = r#"{"text":"twenty-six chars...."}"#; // 30 bytes
    let large = r#"{"text":"well over the sixty-four bytes of the pipeline's own limit"}"#;
    assert_eq!(
        pipeline
            .handle(post("/tight", r#"{"text":"a"}"#))
            .await
            .status(),
        201
    );
    assert_eq!(pipeline.handle(post("/tight", medium)).await.status(), 413);
    assert_eq!(
        pipeline.handle(post("/default", medium)).await.status(),
        201
    );
    assert_eq!(pipeline.handle(post("/default", large)).await.status(), 413);
    assert_eq!(pipeline.handle(post("/roomy", large)).await.status(), 201);
}

#[tokio::test]
async fn a_handler_sets_the_status_and_headers_of_its_response() {
    let create = Endpoint::post(route::static_path("/notes"))
        .body::<Note>()
        .response::<Note>()
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![handler(
        create,
        |ctx: Ctx<NoParams, NoQuery, Note>| async move {
            ctx.response
                .insert_header(LOCATION, HeaderValue::from_static("/notes/1"));
            if ctx.body.text == "later" {
                ctx.response.set_status(StatusCode::ACCEPTED);
            }
            Ok(ctx.body)
        },
    )
    .into()])
    .unwrap();
    let now = pipeline.handle(post("/notes", r#"{"text":"now"}"#)).await;
    assert_eq!(now.status(), 201);
    assert_eq!(now.headers()[LOCATION], "/notes/1");
    assert_eq!(now.body(), r#"{"text":"now"}"#);
    let later = pipeline.handle(post("/notes", r#"{"text":"later"}"#)).await;
    assert_eq!(later.status(), 202);
    assert_eq!(later.headers()[LOCATION], "/notes/1");
}

#[tokio::test]
async fn http_error_headers_reach_the_response() {
    let limited = Endpoint::get(route::static_path("/limited"))
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![handler(limited, |_| async {
        Err(HttpError::too_many_requests("Slow down")
            .with_retry_after(3)
            .with_code("rate_limited")
            .into())
    })
    .into()])
    .unwrap();
    let response = pipeline.handle(get("/limited")).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()[RETRY_AFTER], "3");
    assert_eq!(
        response.body(),
        r#"{"error":"Slow down","code":"rate_limited"}"#
    );
}

#[tokio::test]
async fn a_query_type_may_deny_unknown_fields() {
    let strict = Endpoint::get(route::static_path("/strict"))
        .query::<Strict>()
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![handler(strict, |_: Ctx<NoParams, Strict>| async {
        Ok(pactum::contract::NoContent)
    })
    .into()])
    .unwrap();
    assert_eq!(pipeline.handle(get("/strict?page=2")).await.status(), 204);
    let denied = pipeline.handle(get("/strict?page=2&sort=name")).await;
    assert_eq!(denied.status(), 400);
    let body: serde_json::Value =
        serde_json::from_slice(denied.body().as_bytes().unwrap()).unwrap();
    assert_eq!(body["error"], "Validation failed");
    assert!(
        body["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("unknown field `sort`"),
        "{body}"
    );
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Tail {
    rest: String,
}

/// A catch-all refuses empty, `.` and `..` segments by default (path traversal); a route that
/// says `allow_dot_segments()` gets them as they came — but never bytes that are not UTF-8.
#[tokio::test]
async fn dot_segments_are_refused_unless_the_route_allows_them() {
    let echo = |ctx: Ctx<Tail>| async move {
        Ok(Note {
            text: ctx.params.rest,
        })
    };
    let checked = Endpoint::get(route::dynamic("/checked/*rest"))
        .params::<Tail>()
        .response::<Note>()
        .build()
        .unwrap();
    let raw = Endpoint::get(route::dynamic("/raw/*rest").allow_dot_segments())
        .params::<Tail>()
        .response::<Note>()
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![
        handler(checked, echo).into(),
        handler(raw, echo).into(),
    ])
    .unwrap();
    let answer = |path: String| {
        let pipeline = pipeline.clone();
        async move {
            let response = pipeline.handle(get(&path)).await;
            let body: serde_json::Value =
                serde_json::from_slice(response.body().as_bytes().unwrap()).unwrap();
            (response.status().as_u16(), body)
        }
    };
    for tail in ["a/../b", "a/%2e%2e/b", "./a", "a//b", "a/"] {
        let (status, body) = answer(format!("/checked/{tail}")).await;
        assert_eq!(status, 400, "{tail}: {body}");
        assert_eq!(
            body["details"][0]["path"],
            serde_json::json!(["rest"]),
            "{tail}"
        );
        let (status, body) = answer(format!("/raw/{tail}")).await;
        assert_eq!(status, 200, "{tail}: {body}");
    }
    let (_, body) = answer("/raw/a/%2e%2e/b".into()).await;
    assert_eq!(body["text"], "a/../b");
    let (status, body) = answer("/raw/%FF".into()).await;
    assert_eq!(
        (status, &body["details"][0]["path"]),
        (400, &serde_json::json!(["rest"]))
    );
}
