//! Rows 8–12: params percent-encoded by the client and decoded by the server, the bearer
//! token the `/me` contracts declare, and the middleware onion.

use super::{assert_answer, authorized, client};
use crate::api::*;
use crate::support::TestServer;

/// Row 8, `GET /orgs/:org/repos/:repo`: params percent-encoded by the client, decoded by the
/// server.
async fn row_08_repo_params(app: &TestServer) {
    let api = client(app);
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
}

/// Row 9, `GET /files/*path`: the catch-all tail, encoded segment by segment.
async fn row_09_file_path(app: &TestServer) {
    let api = client(app);
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
}

/// Row 10, `GET /me`: the contract declares a bearer token. Without one the client sends
/// nothing; a credential of another scheme, set by hand, is the server's 401.
async fn row_10_me_bearer_auth(app: &TestServer) {
    let api = client(app);
    let alice = authorized(app);
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
}

/// Row 11, `POST /me/notes`: the same auth, before the body.
async fn row_11_create_note_auth(app: &TestServer) {
    let api = client(app);
    let alice = authorized(app);
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
}

/// Row 12, `GET /trace`: the middleware onion.
async fn row_12_middleware_trace(app: &TestServer) {
    let api = client(app);
    let traced = api.call(&trace()).send_full().await.unwrap();
    assert_eq!(traced.headers()["x-trace-after"], "inner,outer");
    assert_eq!(
        traced.value().trace,
        ["outer:before", "inner:before", "handler"]
    );
}

on_the_fixture!(
    row_08_repo_params,
    row_09_file_path,
    row_10_me_bearer_auth,
    row_11_create_note_auth,
    row_12_middleware_trace,
);
