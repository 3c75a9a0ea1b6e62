//! The conformance API (the fixture table in CONTRIBUTING.md): its types, contracts and handlers, shared by
//! `examples/conformance.rs` and the tests, which reach it through the workspace's test kit
//! (`tests/kit`: `pactum_test_kit::conformance`).
//!
//! By concern: the users resource (`users`), the routes behind middleware and the middleware
//! (`middleware`), the routes that fail on purpose (`errors`), the other routes (`misc`), the
//! signed webhook and the client's address (`raw`), the cookie params (`session`), the typed response headers (`tickets`), the typed errors of `GET /v2/users/:id`
//! (`typed_errors`), the server-sent events (`events`), the upload
//! (`uploads`), the streamed download (`download`), the
//! OpenAPI document (`openapi`), and the handlers over an in-memory store (`handlers`). Every
//! public item is re-exported here: includers use `api::X`.

mod download;
mod errors;
mod events;
mod handlers;
mod middleware;
mod misc;
mod openapi;
mod raw;
mod session;
mod text;
mod tickets;
mod typed_errors;
mod uploads;
mod users;

pub use download::*;
pub use errors::*;
pub use events::*;
pub use handlers::*;
pub use middleware::*;
pub use misc::*;
pub use openapi::*;
pub use raw::*;
pub use session::*;
pub use text::*;
pub use tickets::*;
pub use typed_errors::*;
pub use uploads::*;
pub use users::*;

/// Contracts are built from literals here, so a failure is a bug in this file.
fn built<T>(result: Result<T, pactum::error::ConfigError>) -> T {
    result.unwrap_or_else(|e| panic!("invalid contract: {e}"))
}
