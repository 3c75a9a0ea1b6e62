//! Every row of the conformance fixture (CONTRIBUTING.md: The conformance fixture) driven with
//! the typed client, against the conformance binary on both adapters: the contracts the server
//! was built from are the ones the client calls. One test per row and adapter, each on a fresh
//! process, so a failure names its row (`fixture_client::users::warp::row_05_replace_user`).
//! (Malformed JSON, wrong content types, pipelining, HEAD/OPTIONS/405, oversized bodies and
//! stalled headers need a raw client: `behaviour.rs` and `fixture.rs`.)

use pactum_client::Client;

use crate::api::*;
use crate::support::TestServer;

mod bodies;
mod errors;
mod routing;
mod users;

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
