//! `{id}` (axum 0.8's and OpenAPI's spelling) and `:id` are the same param, on every adapter:
//! a route written either way serves the same paths, the catch-all too.

use pactum::handler::AnyHandler;
use pactum::{handler, route, Ctx, Endpoint, Params};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::support::{native_with, options, warp_with, TestServer};

#[derive(Serialize, Deserialize, Validate, Params)]
struct UserPath {
    id: u64,
}

#[derive(Serialize, Deserialize, Validate, Params)]
struct FilePath {
    org: String,
    path: String,
}

#[derive(Serialize, Deserialize, Validate)]
struct Found {
    id: String,
}

fn handlers() -> Vec<AnyHandler> {
    let braces = Endpoint::get(route!("/users/{id}"))
        .params::<UserPath>()
        .response::<Found>()
        .build()
        .expect("a valid contract");
    let colon = Endpoint::get(route!("/accounts/:id"))
        .params::<UserPath>()
        .response::<Found>()
        .build()
        .expect("a valid contract");
    let tail = Endpoint::get(route!("/orgs/{org}/files/{*path}"))
        .params::<FilePath>()
        .response::<Found>()
        .build()
        .expect("a valid contract");
    vec![
        handler(braces, |ctx: Ctx<UserPath>| async move {
            Ok(Found {
                id: format!("user {}", ctx.params.id),
            })
        })
        .into(),
        handler(colon, |ctx: Ctx<UserPath>| async move {
            Ok(Found {
                id: format!("account {}", ctx.params.id),
            })
        })
        .into(),
        handler(tail, |ctx: Ctx<FilePath>| async move {
            Ok(Found {
                id: format!("{}: {}", ctx.params.org, ctx.params.path),
            })
        })
        .into(),
    ]
}

async fn both_spellings_serve(app: &TestServer) {
    app.get("/users/7")
        .await
        .assert(200, json!({"id": "user 7"}));
    app.get("/accounts/7")
        .await
        .assert(200, json!({"id": "account 7"}));
    app.get("/orgs/acme/files/a/b.txt")
        .await
        .assert(200, json!({"id": "acme: a/b.txt"}));
    // The braces are not literal text: the path `/users/{id}` is a param that fails its type.
    let literal = app.get("/users/%7Bid%7D").await;
    assert_eq!(literal.status, 400, "{}", literal.text);
}

#[tokio::test]
async fn native() {
    both_spellings_serve(&native_with(handlers(), options()).await).await;
}

#[tokio::test]
async fn warp() {
    both_spellings_serve(&warp_with(handlers()).await).await;
}
