//! Fixture row 22, typed errors: `GET /v2/users/:id` answers the user, or the 404 its
//! contract declares with its own body, on every adapter. Plain errors and `HttpError`s keep
//! the built-in body (and the error formatter); a typed error the contract does not declare is
//! a 500 without its text, on both adapters.

use pactum::http::StatusCode;
use std::sync::{Mutex, PoisonError};

use pactum::{
    handler, middleware, middleware::Middleware, route, Ctx, Endpoint, Error, HttpError, Pipeline,
};
use serde_json::json;

use crate::api::{get_user_v2, GetUserError, User, UserPath};
use crate::support::{native_with, options, warp_with, TestServer};

pub async fn answers_the_user_or_its_declared_404(app: &TestServer) {
    let created = app
        .post_json("/users", r#"{"name":"Ada","email":"ada@example.com"}"#)
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json()["id"].as_u64().expect("an id");

    let found = app.get(&format!("/v2/users/{id}")).await;
    found.assert(200, created.json());

    let missing = app.get("/v2/users/99").await;
    missing.assert(
        404,
        json!({"error": "User not found", "code": "user_not_found", "id": 99}),
    );
    // Byte for byte, in the fixture table's order.
    assert_eq!(
        missing.text,
        r#"{"error":"User not found","code":"user_not_found","id":99}"#
    );

    let head = app.send(app.client.head(app.url("/v2/users/99"))).await;
    assert_eq!(head.status, 404);
    assert_eq!(head.header("content-type"), "application/json");
    assert_eq!(head.text, "");
}

pub async fn a_bad_id_keeps_the_built_in_400(app: &TestServer) {
    app.get("/v2/users/abc").await.assert(
        400,
        json!({"error": "Validation failed", "details": [
            {"path": ["id"], "message": "invalid type: string \"abc\", expected u64"},
        ]}),
    );
}

on_every_adapter!(
    answers_the_user_or_its_declared_404,
    a_bad_id_keeps_the_built_in_400
);

/// What the server-wide middleware saw of the handler's errors.
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Middleware see a declared error as it is: its status, and the value through `downcast_ref`.
fn observer() -> Middleware {
    middleware::from_fn(|req, next| async move {
        let result = next.run(req).await;
        if let Err(error) = &result {
            let seen = match error.downcast_ref::<GetUserError>() {
                Some(declared) => format!("{} GetUserError: {declared}", error.status().as_u16()),
                None => format!("{} other: {error}", error.status().as_u16()),
            };
            SEEN.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(seen);
        }
        result
    })
}

/// The contract of row 22 (declares `GetUserError`), whose handler also fails in ways it does
/// not declare; behind a pipeline with an error formatter.
fn app() -> pactum::pipeline::PipelineBuilder {
    let lookup = handler(get_user_v2(), |ctx: Ctx<UserPath>| async move {
        match ctx.params.id {
            1 => Ok(User {
                id: 1,
                name: "Ada".into(),
                email: "ada@example.com".into(),
                age: None,
                tags: Vec::new(),
                active: true,
            }),
            2 => Err(std::io::Error::other("boom").into()),
            3 => Err(HttpError::conflict("taken").with_code("taken").into()),
            4 => Err(Error::declared(GetUserError::not_found(4))),
            id => Err(GetUserError::not_found(id).into()),
        }
    });
    // The same declared type in a contract that does not declare it: not recognised.
    let other = Endpoint::get(route!("/other/:id"))
        .params::<UserPath>()
        .build()
        .expect("valid contract");
    let other = handler(other, |ctx: Ctx<UserPath>| async move {
        Err::<pactum::contract::NoContent, _>(GetUserError::not_found(ctx.params.id).into())
    });
    // The same, sent with `Error::declared` by hand.
    let by_hand = Endpoint::get(route!("/by-hand/:id"))
        .params::<UserPath>()
        .build()
        .expect("valid contract");
    let by_hand = handler(by_hand, |ctx: Ctx<UserPath>| async move {
        Err::<pactum::contract::NoContent, _>(Error::declared(GetUserError::not_found(
            ctx.params.id,
        )))
    });
    Pipeline::builder(vec![lookup.into(), other.into(), by_hand.into()])
        .middleware(observer())
        .error_formatter(|error: &Error| {
            let mut response = error.to_response();
            response
                .headers_mut()
                .insert("x-formatted", pactum::http::HeaderValue::from_static("yes"));
            response
        })
}

async fn only_declared_errors_keep_their_text(app: &TestServer) {
    let declared = json!({"error": "User not found", "code": "user_not_found", "id": 7});
    let answer = app.get("/v2/users/7").await;
    answer.assert(404, declared);
    assert!(
        answer.headers.get("x-formatted").is_none(),
        "a declared error keeps its body: the formatter is not asked"
    );
    let answer = app.get("/v2/users/4").await;
    answer.assert(
        404,
        json!({"error": "User not found", "code": "user_not_found", "id": 4}),
    );
    assert!(answer.headers.get("x-formatted").is_none());

    let answer = app.get("/v2/users/2").await;
    answer.assert(500, json!({"error": "boom"}));
    assert_eq!(answer.header("x-formatted"), "yes");
    let answer = app.get("/v2/users/3").await;
    answer.assert(409, json!({"error": "taken", "code": "taken"}));
    assert_eq!(answer.header("x-formatted"), "yes");

    // A typed error this contract does not declare: 500 without its text, through the
    // formatter like any built-in answer.
    for path in ["/other/5", "/by-hand/6"] {
        let answer = app.get(path).await;
        answer.assert(500, json!({"error": "Internal server error"}));
        assert!(!answer.text.contains("no user"), "{}", answer.text);
        assert_eq!(answer.header("x-formatted"), "yes");
    }

    let seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner).clone();
    for expected in [
        "404 GetUserError: no user has id 7",
        "500 other: boom",
        "500 other: 500 Internal server error",
    ] {
        assert!(
            seen.iter().any(|s| s == expected),
            "{expected:?} in {seen:?}"
        );
    }
}

#[tokio::test]
async fn only_declared_errors_keep_their_text_native() {
    only_declared_errors_keep_their_text(&native_with(app(), options()).await).await;
}

#[tokio::test]
async fn only_declared_errors_keep_their_text_warp() {
    only_declared_errors_keep_their_text(&warp_with(app()).await).await;
}

#[test]
fn a_contract_lists_its_declared_statuses() {
    assert_eq!(get_user_v2().error_statuses(), [StatusCode::NOT_FOUND]);
    let plain = Endpoint::get(route!("/plain"))
        .build()
        .expect("valid contract");
    assert!(plain.error_statuses().is_empty());
}

#[test]
fn a_declared_error_is_an_error_status() {
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct Fine;
    impl std::fmt::Display for Fine {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("fine")
        }
    }
    impl std::error::Error for Fine {}
    impl pactum::error::ErrorAnswer for Fine {
        const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::OK];
        fn status(&self) -> StatusCode {
            StatusCode::OK
        }
    }
    let err = Endpoint::get(route!("/fine"))
        .errors::<Fine>()
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "route `/fine` declares errors `{}` with status 200 OK: declared errors answer 400 to 599",
            std::any::type_name::<Fine>()
        )
    );
}

#[test]
fn a_declared_http_error_is_an_error_status() {
    let err = Endpoint::get(route!("/fine"))
        .http_error(StatusCode::NOT_FOUND, "Not here")
        .http_error(StatusCode::OK, "Fine")
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "route `/fine` declares errors `HttpError` with status 200 OK: declared errors answer 400 to 599"
    );
    let fine = Endpoint::get(route!("/fine"))
        .http_error(StatusCode::NOT_FOUND, "Not here")
        .http_error(StatusCode::NOT_FOUND, "Gone from here")
        .default_http_error("Relayed")
        .build()
        .expect("valid contract");
    let declared: Vec<_> = fine.http_errors().collect();
    assert_eq!(
        declared,
        [
            (Some(StatusCode::NOT_FOUND), "Gone from here"),
            (None, "Relayed")
        ]
    );
}
