//! The todo example's auth (`examples/todo/server.rs`, shared with the SQLite example): it is
//! marked as verifying the contracts' bearer scheme, so the example starts, and it reads the
//! token as the pipeline's 401 check does — the scheme in any case.

#[allow(unreachable_pub, dead_code)]
#[path = "../examples/todo/api.rs"]
mod api;
#[allow(unreachable_pub, dead_code)]
#[path = "../examples/todo/server.rs"]
mod server;

use pactum::pipeline::Body;
use pactum::Pipeline;

async fn create(app: &Pipeline, authorization: Option<&str>) -> (u16, String) {
    let mut request =
        pactum::http::Request::post("/todos").header("content-type", "application/json");
    if let Some(authorization) = authorization {
        request = request.header("authorization", authorization);
    }
    let request = request
        .body(Body::from(r#"{"title":"write docs"}"#))
        .expect("a request");
    let answer = app.handle(request).await;
    (answer.status().as_u16(), format!("{:?}", answer.body()))
}

#[tokio::test]
async fn the_todo_check_takes_the_bearer_scheme_in_any_case() {
    let app = Pipeline::new(server::handlers(server::Db::default())).expect("the example starts");
    for authorization in [
        "Bearer demo-token",
        "bearer demo-token",
        "BEARER  demo-token",
    ] {
        let (status, body) = create(&app, Some(authorization)).await;
        assert_eq!(status, 201, "{authorization}: {body}");
    }
    for authorization in [
        None,
        Some("bearer s3cret"),
        Some("Bearer"),
        Some("Basic demo-token"),
    ] {
        let (status, _) = create(&app, authorization).await;
        assert_eq!(status, 401, "{authorization:?}");
    }
}

#[test]
fn the_todo_contracts_without_the_example_auth_do_not_start() {
    let create = pactum::handler(api::contract::create(), |_| async {
        Err::<api::Todo, _>(pactum::HttpError::internal("never runs").into())
    });
    let error = Pipeline::new(vec![create.into()]).expect_err("nothing verifies the token");
    assert!(error.to_string().contains("`POST /todos`"), "{error}");
}
