//! Every row of the conformance fixture (CONTRIBUTING.md: The conformance fixture) driven with the typed client, against the conformance binary on
//! both adapters: the contracts the server was built from are the ones the client calls.
//! (Malformed JSON, wrong content types, pipelining, HEAD/OPTIONS/405, oversized bodies and
//! stalled headers need a raw client: `behaviour.rs` and `fixture.rs`.)

use pactum_client::{Client, Part};
use serde_json::json;

use crate::api::*;
use crate::support::{fixture, TestServer};

fn client(app: &TestServer) -> Client {
    Client::new(format!("http://{}", app.addr).as_str()).expect("valid base URL")
}

fn authorized(app: &TestServer) -> Client {
    Client::builder()
        .base_url(format!("http://{}", app.addr).as_str())
        .bearer_auth("secret-token")
        .build()
        .expect("valid client")
}

fn new_user(name: &str, tags: &[&str], active: bool) -> NewUser {
    NewUser {
        name: name.to_owned(),
        email: format!("{}@example.com", name.to_lowercase()),
        age: Some(30),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        active,
    }
}

/// Asserts a failed call was answered `status` with pactum's body `{"error": message}`.
#[track_caller]
fn assert_answer(error: &pactum_client::Error, status: u16, message: &str) {
    assert_eq!(
        error.status().map(|s| s.as_u16()),
        Some(status),
        "{error:?}"
    );
    assert_eq!(
        error.error_body().map(|b| b.error.as_str()),
        Some(message),
        "{error:?}"
    );
}

async fn every_row(adapter: &str) {
    let app = fixture(adapter).await;
    let api = client(&app);
    let alice = authorized(&app);

    // 1. health
    assert_eq!(
        api.call(&health()).send().await.unwrap(),
        Health {
            status: "ok".into()
        }
    );

    // 3. create, with the server's 201; 409 on a duplicate email, whatever its case.
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

    // Invalid bodies never leave the client; the details are the server's own shape.
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

    // 2. list: paging, filters, both list forms are the server's business; the client's
    // encoding must come back as the same query.
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

    // 4. get; 404.
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

    // 5. replace (id kept); 404; 409 on another user's email.
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

    // 6. patch: only what is given changes.
    let patched = api
        .call(&update_user())
        .params(UserPath { id: 1 })
        .body(UserPatch {
            age: Some(37),
            ..UserPatch::default()
        })
        .send()
        .await
        .unwrap();
    assert_eq!((patched.age, patched.name.as_str()), (Some(37), "Ada"));
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

    // 7. delete; then 404.
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

    // 8, 9. params percent-encoded by the client, decoded by the server.
    let repo = RepoPath {
        org: "acme inc/ü".into(),
        repo: "a?b#c".into(),
    };
    assert_eq!(
        api.call(&get_repo())
            .params(repo.clone())
            .send()
            .await
            .unwrap(),
        repo
    );
    let file = FilePath {
        path: "docs/read me/ñ.txt".into(),
    };
    assert_eq!(
        api.call(&get_file())
            .params(file.clone())
            .send()
            .await
            .unwrap(),
        file
    );

    // 10, 11. auth: the contracts declare a bearer token. Without one the client sends
    // nothing; a credential of another scheme, set by hand, is the server's 401.
    assert!(api
        .call(&me())
        .send()
        .await
        .unwrap_err()
        .is_missing_credential());
    let basic = api
        .call(&me())
        .header("authorization", "Basic YWxpY2U6")
        .send()
        .await
        .unwrap_err();
    assert_answer(&basic, 401, "Unauthorized");
    let wrong = api
        .call(&me())
        .header("authorization", "Bearer nope")
        .send()
        .await
        .unwrap_err();
    assert_answer(&wrong, 401, "Invalid token");
    assert_eq!(
        alice.call(&me()).send().await.unwrap(),
        Me {
            user: "alice".into()
        }
    );
    let note = alice
        .call(&create_note())
        .body(NewNote { text: "hi".into() })
        .send()
        .await
        .unwrap();
    assert_eq!(
        note,
        Note {
            user: "alice".into(),
            text: "hi".into()
        }
    );
    assert_answer(
        &api.call(&create_note())
            .header("authorization", "Token hi")
            .body(NewNote { text: "hi".into() })
            .send()
            .await
            .unwrap_err(),
        401,
        "Unauthorized",
    );

    // 12. middleware onion.
    let traced = api.call(&trace()).send_full().await.unwrap();
    assert_eq!(traced.headers()["x-trace-after"], "inner,outer");
    assert_eq!(
        traced.value().trace,
        ["outer:before", "inner:before", "handler"]
    );

    // 13–16. errors.
    assert_answer(
        &api.call(&plain_error()).send().await.unwrap_err(),
        500,
        "boom",
    );
    assert_answer(
        &api.call(&status_error())
            .params(CodePath { code: 418 })
            .send()
            .await
            .unwrap_err(),
        418,
        "custom error",
    );
    assert_answer(
        &api.call(&panic_error()).send().await.unwrap_err(),
        500,
        "Internal server error",
    );
    assert_answer(
        &api.call(&bad_response()).send().await.unwrap_err(),
        500,
        "Response validation failed",
    );
    assert_eq!(api.call(&health()).send().await.unwrap().status, "ok");

    // 17. nested body, echoed.
    let echo_body = Echo {
        items: vec![EchoItem {
            sku: "a".into(),
            qty: 2,
        }],
        note: Some("n".into()),
    };
    assert_eq!(
        api.call(&echo())
            .body(echo_body.clone())
            .send()
            .await
            .unwrap(),
        echo_body
    );

    // 18. slow.
    assert_eq!(
        api.call(&slow())
            .query(SlowQuery { ms: 20 })
            .send()
            .await
            .unwrap(),
        Slept { slept: 20 }
    );

    // 20. a webhook signed over the exact bytes the client sends (compact JSON).
    let event = WebhookEvent {
        event: "push".into(),
    };
    let sent = serde_json::to_vec(&event).unwrap();
    assert_eq!(
        api.call(&webhook())
            .header(SIGNATURE_HEADER, sign(&sent))
            .body(event.clone())
            .send()
            .await
            .unwrap(),
        WebhookAck {
            ok: true,
            event: "push".into(),
            bytes: sent.len(),
        }
    );
    let unsigned = api.call(&webhook()).body(event).send().await.unwrap_err();
    assert_answer(&unsigned, 401, "Invalid signature");

    // 21. the client's address, as the server saw it.
    assert_eq!(
        api.call(&whoami()).send().await.unwrap(),
        WhoAmI {
            ip: "127.0.0.1".into()
        }
    );
}

#[tokio::test]
async fn native() {
    every_row("native").await;
}

#[tokio::test]
async fn warp() {
    every_row("warp").await;
}

/// Row 23, `GET /hello.txt`: a `Text` answer decoded to its string; a bad name is the JSON 400,
/// checked by the client before sending and by the server when sent anyway.
async fn row_23_hello_txt(adapter: &str) {
    let app = fixture(adapter).await;
    let api = client(&app);
    let text = api.call(&hello_txt()).send().await.unwrap();
    assert_eq!(text.into_string(), "hello world");
    let ada = HelloQuery {
        name: Some("Ada".into()),
    };
    let answer = api.call(&hello_txt()).query(ada).send_full().await.unwrap();
    assert_eq!(
        answer.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(answer.value().as_str(), "hello Ada");
    let empty = HelloQuery {
        name: Some(String::new()),
    };
    let refused = api
        .call(&hello_txt())
        .query(empty)
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.validation_part(), Some(Part::Query), "{refused:?}");
    let raw = app.get("/hello.txt?name=").await;
    assert_eq!(raw.status, 400);
    assert_eq!(raw.headers["content-type"], "application/json");
}

#[tokio::test]
async fn hello_txt_native() {
    row_23_hello_txt("native").await;
}

#[tokio::test]
async fn hello_txt_warp() {
    row_23_hello_txt("warp").await;
}

/// Row 22, `GET /v2/users/:id`: the user, or the 404 its contract declares, handed back as a
/// `GetUserError` to match on; a bad id is still the pipeline's 400, not a declared error.
async fn row_22_typed_errors(adapter: &str) {
    let app = fixture(adapter).await;
    let api = client(&app);
    let ada = api
        .call(&create_user())
        .body(new_user("Ada", &[], true))
        .send()
        .await
        .unwrap();
    let user = api
        .call(&get_user_v2())
        .params(UserPath { id: ada.id })
        .send()
        .await
        .unwrap();
    assert_eq!(user, ada);

    let missing = api
        .call(&get_user_v2())
        .params(UserPath { id: 99 })
        .send()
        .await
        .unwrap_err();
    match missing.declared() {
        Some(GetUserError::UserNotFound { error, code, id }) => {
            assert_eq!(
                (error.as_str(), *code, *id),
                ("User not found", UserNotFoundCode::UserNotFound, 99)
            );
        }
        None => panic!("not the declared error: {missing:?}"),
    }
    assert!(missing.is_status() && missing.is_declared());
    assert_eq!(missing.status().map(|s| s.as_u16()), Some(404));
    // The body read as pactum's error body too: its `error` and `code`.
    assert_answer(&missing.untyped(), 404, "User not found");
    let taken = api
        .call(&get_user_v2())
        .params(UserPath { id: 98 })
        .send()
        .await
        .unwrap_err()
        .into_declared()
        .expect("the declared error, taken out");
    assert_eq!(taken, GetUserError::not_found(98));

    let raw = app.get("/v2/users/abc").await;
    assert_eq!(raw.status, 400);
}

#[tokio::test]
async fn typed_errors_native() {
    row_22_typed_errors("native").await;
}

#[tokio::test]
async fn typed_errors_warp() {
    row_22_typed_errors("warp").await;
}

/// Row 24, `POST /uploads`: the typed client sends the form, file and all, as
/// `multipart/form-data`; the server's answer carries the file's digest. A title that breaks
/// its rules is refused before sending; a file over its limit is the server's 413.
async fn row_24_upload(adapter: &str) {
    use pactum::{upload::FilePart, upload::Multipart};
    let app = fixture(adapter).await;
    let api = client(&app);
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let form = |title: &str, bytes: Vec<u8>| {
        Multipart(Upload {
            title: title.to_owned(),
            file: FilePart::new(bytes)
                .with_filename("notes \"v2\".bin")
                .with_content_type("application/x-notes"),
        })
    };
    let uploaded = api
        .call(&upload())
        .body(form("Notes", bytes.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(
        uploaded,
        Uploaded {
            title: "Notes".into(),
            // The quote travels percent-encoded, as browsers send it.
            filename: "notes %22v2%22.bin".into(),
            size: bytes.len(),
            sha256: sha256_hex(&bytes),
        }
    );
    let exact = vec![7u8; MAX_UPLOAD];
    let uploaded = api
        .call(&upload())
        .body(form("Exact", exact.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.size, MAX_UPLOAD);
    let refused = api
        .call(&upload())
        .body(form("", bytes))
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.validation_part(), Some(Part::Body), "{refused:?}");
    let too_large = api
        .call(&upload())
        .body(form("Big", vec![0; MAX_UPLOAD + 1]))
        .send()
        .await
        .unwrap_err();
    assert_answer(&too_large, 413, "Payload too large");
}

#[tokio::test]
async fn upload_native() {
    row_24_upload("native").await;
}

#[tokio::test]
async fn upload_warp() {
    row_24_upload("warp").await;
}
