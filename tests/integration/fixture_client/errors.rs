//! Rows 13–16 (a handler's failures, as the client reads them) and row 22 (an error the
//! contract declares, handed back typed).

use super::{assert_answer, client, new_user};
use crate::api::*;
use crate::support::TestServer;

/// Row 13, `GET /errors/plain`: an ordinary error's message.
async fn row_13_plain_error(app: &TestServer) {
    let api = client(app);
    assert_answer(
        &api.call(&plain_error()).send().await.unwrap_err(),
        500,
        "boom",
    );
}

/// Row 14, `GET /errors/status/:code`: the library's HTTP error, with its status.
async fn row_14_status_error(app: &TestServer) {
    let api = client(app);
    assert_answer(
        &api.call(&status_error())
            .params(CodePath { code: 418 })
            .send()
            .await
            .unwrap_err(),
        418,
        "custom error",
    );
}

/// Row 15, `GET /errors/panic`: a panic is a 500 without its text, and the server keeps
/// serving.
async fn row_15_panic_error(app: &TestServer) {
    let api = client(app);
    assert_answer(
        &api.call(&panic_error()).send().await.unwrap_err(),
        500,
        "Internal server error",
    );
    assert_eq!(api.call(&health()).send().await.unwrap().status, "ok");
}

/// Row 16, `GET /errors/bad-response`: an answer that breaks its own rules.
async fn row_16_bad_response(app: &TestServer) {
    let api = client(app);
    assert_answer(
        &api.call(&bad_response()).send().await.unwrap_err(),
        500,
        "Response validation failed",
    );
    assert_eq!(api.call(&health()).send().await.unwrap().status, "ok");
}

/// Row 22, `GET /v2/users/:id`: the user, or the 404 its contract declares, handed back as a
/// `GetUserError` to match on; a bad id is still the pipeline's 400, not a declared error.
async fn row_22_typed_errors(app: &TestServer) {
    let api = client(app);
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

on_the_fixture!(
    row_13_plain_error,
    row_14_status_error,
    row_15_panic_error,
    row_16_bad_response,
    row_22_typed_errors,
);
