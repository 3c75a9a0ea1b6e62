//! The OpenAPI document, served at `GET /openapi.json`.

use pactum::http::StatusCode;
use pactum::openapi::OpenApi;

use super::{
    bad_response, create_note, create_user, delete_user, echo, get_file, get_repo, get_user,
    health, list_users, me, panic_error, plain_error, replace_user, slow, status_error, trace,
    update_user, webhook, whoami,
};

/// Where the fixture serves its OpenAPI document.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// Where the fixture serves the interactive docs page for it (row 25), which is not in the
/// document either.
pub const DOCS_PATH: &str = "/docs";

/// The fixture's OpenAPI 3.1 document: every contract above, plus what the pipeline cannot
/// know — the errors the handlers and the auth middleware return. The bearer scheme comes from
/// the contracts (`Security::bearer()` on `/me` and `/me/notes`).
pub fn openapi() -> OpenApi {
    let user_not_found = "`User not found`: no user has this id.";
    let email_exists = "`Email already exists`: another user has this email (case-insensitive).";
    let unauthorized = "`Unauthorized` without a bearer token, `Invalid token` with another token \
                        than `secret-token`; the body is not read.";
    OpenApi::new("pactum conformance fixture", env!("CARGO_PKG_VERSION"))
        .description(
            "Every behaviour of pactum behind one server (the fixture table in CONTRIBUTING.md). Users live in memory; \
             `/errors/*` fail on purpose.",
        )
        .tag("users", "A CRUD resource with a paged, filtered list")
        .tag("routing", "Pattern and catch-all params")
        .tag(
            "auth",
            "Bearer-token middleware, run before the body is read",
        )
        .tag("middleware", "Middleware order")
        .tag("errors", "Routes that fail on purpose")
        .tag("validation", "Nested validation details")
        .tag("ops", "Health, timing and a plain-text greeting")
        .tag("raw", "The raw body beside the parsed one, the client's address")
        .tag("uploads", "A multipart form with a file")
        .endpoint(&health())
        .endpoint(&list_users())
        .endpoint_with(&create_user(), |op| {
            op.error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&get_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
        })
        .endpoint_with(&replace_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
                .error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&update_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
                .error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&delete_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
        })
        .endpoint(&super::get_user_v2())
        .endpoint(&get_repo())
        .endpoint(&get_file())
        .endpoint_with(&me(), |op| {
            op.error(StatusCode::UNAUTHORIZED, unauthorized)
        })
        .endpoint_with(&create_note(), |op| {
            op.error(StatusCode::UNAUTHORIZED, unauthorized)
        })
        .endpoint(&trace())
        .endpoint(&plain_error())
        .endpoint_with(&status_error(), |op| {
            op.default_error("`custom error`, with the status given in the path.")
        })
        .endpoint(&panic_error())
        .endpoint(&bad_response())
        .endpoint(&echo())
        .endpoint(&slow())
        .endpoint_with(&webhook(), |op| {
            op.error(
                StatusCode::UNAUTHORIZED,
                "`Invalid signature`: `X-Signature` is missing or is not `sha256=` and the \
                 lowercase hex HMAC-SHA256 of the exact body with the key `whsec`; checked \
                 before the body's rules.",
            )
        })
        .endpoint(&whoami())
        .endpoint(&super::hello_txt())
        .endpoint(&super::events())
        .endpoint(&super::upload())
}
