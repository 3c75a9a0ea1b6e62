//! Rows 1–7: health, and the users' list, create, get, replace, update and delete.

use pactum::patch::Nullable;
use pactum_client::{Client, Part};
use serde_json::json;

use super::{assert_answer, client, new_user};
use crate::api::*;
use crate::support::TestServer;

/// Ada (tags x, y), Bo (tag x, inactive) and Cy (tag y), created in that order: ids 1, 2, 3.
/// Returns Ada as the server answered her.
async fn seed(api: &Client) -> User {
    let ada = api
        .call(&create_user())
        .body(new_user("Ada", &["x", "y"], true))
        .send()
        .await
        .unwrap();
    api.call(&create_user())
        .body(new_user("Bo", &["x"], false))
        .send()
        .await
        .unwrap();
    api.call(&create_user())
        .body(new_user("Cy", &["y"], true))
        .send()
        .await
        .unwrap();
    ada
}

/// Row 1, `GET /health`.
async fn row_01_health(app: &TestServer) {
    let api = client(app);
    assert_eq!(
        api.call(&health()).send().await.unwrap(),
        Health {
            status: "ok".into()
        }
    );
}

/// Row 2, `GET /users`: paging, filters, both list forms are the server's business; the
/// client's encoding must come back as the same query.
async fn row_02_list_users(app: &TestServer) {
    let api = client(app);
    seed(&api).await;
    let page = api
        .call(&list_users())
        .query(ListQuery {
            limit: 10,
            offset: 0,
            active: Some(true),
            tag: vec!["y".into()],
        })
        .send()
        .await
        .unwrap();
    assert_eq!(
        page.items
            .iter()
            .map(|u| u.name.as_str())
            .collect::<Vec<_>>(),
        ["Ada", "Cy"]
    );
    assert_eq!((page.limit, page.offset, page.total), (10, 0, 2));
    let second = api
        .call(&list_users())
        .query(ListQuery {
            limit: 1,
            offset: 1,
            ..ListQuery::default()
        })
        .send()
        .await
        .unwrap();
    assert_eq!((second.items[0].name.as_str(), second.total), ("Bo", 3));
    let bad = api
        .call(&list_users())
        .query(ListQuery {
            limit: 0,
            ..ListQuery::default()
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(bad.validation_part(), Some(Part::Query));
}

/// Row 3, `POST /users`: the server's 201; 409 on a duplicate email, whatever its case.
/// Invalid bodies never leave the client; the details are the server's own shape.
async fn row_03_create_user(app: &TestServer) {
    let api = client(app);
    let created = api
        .call(&create_user())
        .body(new_user("Ada", &["x", "y"], true))
        .send_full()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let ada = created.into_value();
    assert_eq!((ada.id, ada.name.as_str(), ada.active), (1, "Ada", true));
    let mut twin = new_user("Eve", &[], true);
    twin.email = "ADA@example.com".into();
    assert_answer(
        &api.call(&create_user())
            .body(twin)
            .send()
            .await
            .unwrap_err(),
        409,
        "Email already exists",
    );

    let invalid = api
        .call(&create_user())
        .body(new_user("", &[], true))
        .send()
        .await
        .unwrap_err();
    assert_eq!(invalid.validation_part(), Some(Part::Body));
    assert_eq!(
        serde_json::to_value(invalid.details()).unwrap(),
        json!([
            {"path": ["email"], "message": "must be a valid email address"},
            {"path": ["name"], "message": "length must be between 1 and 50"},
        ])
    );
}

/// Row 4, `GET /users/:id`; 404.
async fn row_04_get_user(app: &TestServer) {
    let api = client(app);
    let ada = seed(&api).await;
    assert_eq!(
        api.call(&get_user())
            .params(UserPath { id: 1 })
            .send()
            .await
            .unwrap(),
        ada
    );
    assert_answer(
        &api.call(&get_user())
            .params(UserPath { id: 99 })
            .send()
            .await
            .unwrap_err(),
        404,
        "User not found",
    );
}

/// Row 5, `PUT /users/:id`: replaced, id kept; 404; 409 on another user's email.
async fn row_05_replace_user(app: &TestServer) {
    let api = client(app);
    seed(&api).await;
    let replaced = api
        .call(&replace_user())
        .params(UserPath { id: 2 })
        .body(new_user("Bob", &[], true))
        .send()
        .await
        .unwrap();
    assert_eq!(
        (replaced.id, replaced.name.as_str(), replaced.email.as_str()),
        (2, "Bob", "bob@example.com")
    );
    assert_answer(
        &api.call(&replace_user())
            .params(UserPath { id: 9 })
            .body(new_user("Zed", &[], true))
            .send()
            .await
            .unwrap_err(),
        404,
        "User not found",
    );
    assert_answer(
        &api.call(&replace_user())
            .params(UserPath { id: 2 })
            .body(new_user("Ada", &[], true))
            .send()
            .await
            .unwrap_err(),
        409,
        "Email already exists",
    );
}

/// Row 6, `PATCH /users/:id`, a merge patch: the typed client sends each state of a
/// [`Nullable`] field (absent keeps the age, a value sets it, `null` clears it) and only what
/// is given changes; an out-of-range age never leaves the client, and the server refuses it
/// too; 404.
async fn row_06_update_user(app: &TestServer) {
    let api = client(app);
    seed(&api).await;
    let update = |body: UserPatch| {
        let api = api.clone();
        async move {
            api.call(&update_user())
                .params(UserPath { id: 1 })
                .body(body)
                .send()
                .await
        }
    };
    let set = update(UserPatch {
        age: Nullable::Value(37),
        ..UserPatch::default()
    })
    .await
    .unwrap();
    assert_eq!((set.age, set.name.as_str()), (Some(37), "Ada"));
    let kept = update(UserPatch {
        name: Some("Ada L.".into()),
        age: Nullable::Absent,
        ..UserPatch::default()
    })
    .await
    .unwrap();
    assert_eq!((kept.age, kept.name.as_str()), (Some(37), "Ada L."));
    let cleared = update(UserPatch {
        age: Nullable::Null,
        ..UserPatch::default()
    })
    .await
    .unwrap();
    assert_eq!((cleared.age, cleared.name.as_str()), (None, "Ada L."));
    assert_eq!(
        api.call(&get_user())
            .params(UserPath { id: 1 })
            .send()
            .await
            .unwrap(),
        cleared
    );
    let unchanged = update(UserPatch::default()).await.unwrap();
    assert_eq!(unchanged, cleared);

    let out_of_range = update(UserPatch {
        age: Nullable::Value(151),
        ..UserPatch::default()
    })
    .await
    .unwrap_err();
    assert_eq!(out_of_range.validation_part(), Some(Part::Body));
    assert_eq!(
        serde_json::to_value(out_of_range.details()).unwrap(),
        json!([{"path": ["age"], "message": "must be between 0 and 150"}])
    );

    assert_answer(
        &api.call(&update_user())
            .params(UserPath { id: 9 })
            .body(UserPatch::default())
            .send()
            .await
            .unwrap_err(),
        404,
        "User not found",
    );
}

/// Row 7, `DELETE /users/:id`; then 404.
async fn row_07_delete_user(app: &TestServer) {
    let api = client(app);
    seed(&api).await;
    assert_eq!(
        api.call(&delete_user())
            .params(UserPath { id: 3 })
            .send()
            .await
            .unwrap(),
        Deleted {
            deleted: true,
            id: 3
        }
    );
    assert_answer(
        &api.call(&delete_user())
            .params(UserPath { id: 3 })
            .send()
            .await
            .unwrap_err(),
        404,
        "User not found",
    );
}

on_the_fixture!(
    row_01_health,
    row_02_list_users,
    row_03_create_user,
    row_04_get_user,
    row_05_replace_user,
    row_06_update_user,
    row_07_delete_user,
);
