//! Scenarios run against every transport: in-process and over HTTP, HTTP/1.1 and HTTP/2.
//! Each takes a client whose base URL reaches the `support` handlers.

use pactum::http::header::LOCATION;
use pactum::http::StatusCode;
use pactum::{error::Detail, error::PathSegment};
use pactum_client::{Client, Part};

use crate::support::contracts::*;
use crate::support::*;

pub(crate) async fn every_method(client: &Client) {
    client.call(&health()).send().await.unwrap();

    let user = client
        .call(&get_user())
        .params(UserPath { id: 7 })
        .send()
        .await
        .unwrap();
    assert_eq!(
        user,
        User {
            id: 7,
            name: "user7".into()
        }
    );

    let created = client
        .call(&create_user())
        .body(NewUser {
            name: "Ada".into(),
            email: "ada@example.com".into(),
        })
        .send_full()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(created.headers()[LOCATION], "/users/8");
    assert_eq!(created.value().name, "Ada");

    let replaced = client
        .call(&replace_user())
        .params(UserPath { id: 9 })
        .body(NewUser {
            name: "Grace".into(),
            email: "g@example.com".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(
        replaced,
        User {
            id: 9,
            name: "Grace".into()
        }
    );

    // Body before params: the order of the parts does not matter.
    let patched = client
        .call(&patch_user())
        .body(UserPatch { name: None })
        .params(UserPath { id: 10 })
        .send()
        .await
        .unwrap();
    assert_eq!(patched.name, "unchanged");

    let deleted = client
        .call(&delete_user())
        .params(UserPath { id: 11 })
        .send_full()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(deleted.into_value(), pactum::contract::NoContent);
}

pub(crate) async fn params_are_encoded_per_segment(client: &Client) {
    for (a, b) in [
        ("a b", "c/d"),
        ("ünïcødé ✓", "日本語"),
        ("?#&=+%", "50%"),
        ("%2F", "a%20b"),
        ("...", ".a"),
        ("~-_.", "'\"<>\\^`{|}"),
    ] {
        let value = Pair {
            a: a.into(),
            b: b.into(),
        };
        let echoed = client
            .call(&pair())
            .params(value.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(echoed, value);
    }
}

pub(crate) async fn catch_all_keeps_slashes(client: &Client) {
    for path in ["a", "a/b/c", "dir with space/ü.txt", "a%2Fb/c", "q?x#y"] {
        let file = FilePath {
            owner: "o/w n".into(),
            path: path.into(),
        };
        let echoed = client
            .call(&files())
            .params(file.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(echoed, file, "{path}");
    }
    // The route refuses empty, `.` and `..` segments: the client refuses to send them.
    for path in ["x/y/", "a//b", "a/../b", "./a"] {
        let file = FilePath {
            owner: "o".into(),
            path: path.into(),
        };
        let err = client.call(&files()).params(file).send().await.unwrap_err();
        assert_eq!(err.validation_part(), Some(Part::Params), "{path}");
        assert_eq!(err.details()[0].path, vec!["path".into()], "{path}");
    }
}

pub(crate) async fn list_queries(client: &Client) {
    let query = ListQuery {
        tags: vec!["a b".into(), "c&d=e".into(), "[x]".into(), "ü".into()],
        limit: Some(5),
        active: Some(false),
    };
    let listing = client
        .call(&list_users())
        .query(query.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(listing.query, query);
    assert_eq!(listing.users.len(), 4);

    // More than ten items: indices must not sort as text.
    let many: Vec<String> = (0..25).map(|i| format!("t{i}")).collect();
    let query = ListQuery {
        tags: many,
        ..ListQuery::default()
    };
    let listing = client
        .call(&list_users())
        .query(query.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(listing.query, query);

    // No query given: its default is sent (`ListQuery` implements `Default`).
    let listing = client.call(&list_users()).send().await.unwrap();
    assert_eq!(listing.query, ListQuery::default());
}

pub(crate) async fn client_side_validation_sends_nothing(client: &Client) {
    let err = client
        .call(&create_user())
        .body(NewUser {
            name: String::new(),
            email: "nope".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert!(err.is_validation());
    assert_eq!(err.validation_part(), Some(Part::Body));
    assert_eq!(err.status(), None);
    assert_eq!(
        err.details(),
        [
            Detail::new(vec!["email".into()], "must be a valid email address"),
            Detail::new(vec!["name".into()], "length must be between 1 and 50"),
        ]
    );

    let err = client
        .call(&list_users())
        .query(ListQuery {
            limit: Some(0),
            ..ListQuery::default()
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.validation_part(), Some(Part::Query));
    assert_eq!(err.details()[0].path, vec![PathSegment::from("limit")]);
    assert_eq!(err.details()[0].message, "must be between 1 and 100");

    for bad in ["", ".", ".."] {
        let err = client
            .call(&pair())
            .params(Pair {
                a: bad.into(),
                b: "ok".into(),
            })
            .send()
            .await
            .unwrap_err();
        assert_eq!(err.validation_part(), Some(Part::Params), "{bad:?}");
        assert_eq!(err.details()[0].path, vec![PathSegment::from("a")]);
    }
    let err = client
        .call(&files())
        .params(FilePath {
            owner: "o".into(),
            path: "a/../b".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.validation_part(), Some(Part::Params));
    assert_eq!(err.details()[0].path, vec![PathSegment::from("path")]);
}

/// The same failures, sent anyway by a client whose contract has no rules, are what the server
/// answers: the client's details are the server's.
pub(crate) async fn server_side_validation_has_the_same_details(client: &Client) {
    let local = client
        .call(&create_user())
        .body(NewUser {
            name: String::new(),
            email: "nope".into(),
        })
        .send()
        .await
        .unwrap_err();
    let remote = client
        .call(&seen_post_as_create_user())
        .body(Anything {
            value: serde_json::json!({"name": "", "email": "nope"}),
        })
        .send()
        .await
        .unwrap_err();
    assert!(remote.is_status() && !remote.is_validation());
    assert_eq!(remote.status(), Some(StatusCode::BAD_REQUEST));
    assert_eq!(remote.error_body().unwrap().error, "Validation failed");
    assert_eq!(remote.details(), local.details());
}

/// `POST /users` seen by a client that sends any JSON.
fn seen_post_as_create_user() -> pactum::Endpoint<pactum::NoParams, pactum::NoQuery, Anything, User>
{
    pactum::Endpoint::post(pactum::route::static_path("/users"))
        .body::<Anything>()
        .response::<User>()
        .build()
        .unwrap()
}

pub(crate) async fn http_errors_carry_the_error_body(client: &Client) {
    let err = client
        .call(&get_user())
        .params(UserPath { id: 404 })
        .send()
        .await
        .unwrap_err();
    assert!(err.is_status());
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
    let body = err.error_body().unwrap();
    assert_eq!(body.error, "User not found");
    assert_eq!(body.code.as_deref(), Some("user_not_found"));
    // The URL the call went to, rebuilt for the error: the base's own, with the route's path.
    let url = err.url().unwrap();
    let base = client.base_url();
    assert_eq!(
        (url.scheme(), url.host_str(), url.port()),
        (base.scheme(), base.host_str(), base.port())
    );
    assert_eq!(
        url.path(),
        format!("{}/users/404", base.path().trim_end_matches('/'))
    );
    assert_eq!(url.query(), None);

    let err = client.call(&teapot()).send().await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::IM_A_TEAPOT));
    assert_eq!(
        err.details(),
        [Detail::new(vec!["cup".into(), 0.into()], "is empty")]
    );
    assert_eq!(err.error_body().unwrap().code.as_deref(), Some("teapot"));

    let err = client
        .call(&create_user())
        .body(NewUser {
            name: "taken".into(),
            email: "t@example.com".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert_eq!(err.details()[0].message, "is already used");

    // pactum answers `{"error": "Not found"}`; a warp filter rejects, and warp answers an
    // empty 404, read as its reason phrase.
    let err = client.call(&missing()).send().await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
    assert!(
        ["Not found", "Not Found"].contains(&err.error_body().unwrap().error.as_str()),
        "{err:?}"
    );

    let err = client.call(&me()).send().await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::UNAUTHORIZED));
    assert_eq!(err.error_body().unwrap().error, "Unauthorized");
    let me = client
        .call(&me())
        .header("authorization", "Bearer secret-token")
        .send()
        .await
        .unwrap();
    assert_eq!(me.name, "alice");
}

pub(crate) async fn responses_are_decoded_and_validated(client: &Client) {
    let err = client.call(&sloppy_client()).send().await.unwrap_err();
    assert!(err.is_validation());
    assert_eq!(err.validation_part(), Some(Part::Response));
    assert_eq!(err.status(), Some(StatusCode::OK));
    assert_eq!(err.details()[0].path, vec![PathSegment::from("name")]);

    // 204, no body, where a body was expected.
    let err = client
        .call(&health_expecting_user())
        .send()
        .await
        .unwrap_err();
    assert!(err.is_decode(), "{err:?}");
    assert_eq!(err.status(), Some(StatusCode::NO_CONTENT));

    // A body of the wrong shape: the detail says where.
    let wrong = pactum::Endpoint::get(pactum::route::static_path("/seen"))
        .response::<WrongSeen>()
        .build()
        .unwrap();
    let err = client.call(&wrong).send().await.unwrap_err();
    assert!(err.is_decode());
    assert_eq!(err.details()[0].path, vec![PathSegment::from("method")]);
}

#[derive(Debug, serde::Serialize, serde::Deserialize, validator::Validate)]
pub(crate) struct WrongSeen {
    pub(crate) method: u32,
}

pub(crate) async fn headers_are_sent(client: &Client) {
    let got = client
        .call(&seen())
        .header("x-call", "one")
        .header("x-tenant", "override")
        .send()
        .await
        .unwrap();
    assert_eq!(got.method, "GET");
    assert_eq!(got.headers["x-call"], "one");
    assert_eq!(got.headers["x-tenant"], "override");
    assert_eq!(got.headers["authorization"], "Bearer secret-token");
    assert_eq!(got.headers["accept"], "application/json");
    assert!(got.headers["user-agent"].starts_with("pactum-client/"));
    assert!(!got.headers.contains_key("content-type"));

    let got = client
        .call(&seen_post())
        .body(Anything {
            value: serde_json::json!([1, "two"]),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(got.method, "POST");
    assert_eq!(got.headers["content-type"], "application/json");
    assert_eq!(got.headers["x-tenant"], "acme");

    let err = client
        .call(&seen())
        .header("x-bad", "a\nb")
        .send()
        .await
        .unwrap_err();
    assert!(err.is_builder());
}

/// Runs every scenario that needs no special client.
pub(crate) async fn all(client: &Client) {
    every_method(client).await;
    params_are_encoded_per_segment(client).await;
    catch_all_keeps_slashes(client).await;
    list_queries(client).await;
    client_side_validation_sends_nothing(client).await;
    server_side_validation_has_the_same_details(client).await;
    http_errors_carry_the_error_body(client).await;
    responses_are_decoded_and_validated(client).await;
}

/// A client with the default headers [`headers_are_sent`] expects.
pub(crate) fn with_defaults(builder: pactum_client::ClientBuilder) -> Client {
    builder
        .bearer_auth("secret-token")
        .default_header("x-tenant", "acme")
        .build()
        .unwrap()
}
