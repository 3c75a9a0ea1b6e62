//! Typed response headers (issue 32): `POST /tickets` (row 28) answers 201 with the
//! `Location` and `X-Total-Count` its contract declares, and its declared 429 with a typed
//! `Retry-After`, on every adapter.

use pactum::contract::{NoContent, WithHeaders};
use pactum::{handler, route, Endpoint, Pipeline};
use serde_json::json;

use crate::api::{RetryAfter, TicketFlood};
use crate::support::{native_with, options, warp_with, TestServer};

pub async fn the_declared_headers_are_sent(app: &TestServer) {
    for id in 1..=2 {
        let request = app
            .client
            .post(app.url("/tickets"))
            .json(&json!({"subject": format!("printer {id}")}));
        let answer = app.send(request).await;
        answer.assert(201, json!({"id": id, "subject": format!("printer {id}")}));
        assert_eq!(answer.header("location"), format!("/tickets/{id}"));
        assert_eq!(answer.header("x-total-count"), id.to_string());
    }
    // A request the contract refuses gets the error answer, without the success's headers.
    let refused = app
        .send(
            app.client
                .post(app.url("/tickets"))
                .json(&json!({"subject": ""})),
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.headers.get("location").is_none());
}

/// The declared error's typed header comes with its status and body; the success's do not.
pub async fn a_declared_error_sends_its_headers(app: &TestServer) {
    let request = app
        .client
        .post(app.url("/tickets"))
        .json(&json!({"subject": "flood"}));
    let answer = app.send(request).await;
    answer.assert(429, json!({"error": "Too many tickets", "code": "flood"}));
    assert_eq!(answer.header("retry-after"), "30");
    assert_eq!(answer.header("content-type"), "application/json");
    assert!(answer.headers.get("location").is_none());
    assert!(answer.headers.get("x-total-count").is_none());
}

on_every_adapter!(
    the_declared_headers_are_sent,
    a_declared_error_sends_its_headers
);

/// A contract that declares `WithHeaders<E, H>` does not take a bare `E`: its headers cannot
/// be left out. The handler that returns one gets a 500 without the error's text.
async fn a_bare_error_without_its_headers_is_a_500(app: &TestServer) {
    let answer = app.get("/flood").await;
    answer.assert(500, json!({"error": "Internal server error"}));
    assert!(answer.headers.get("retry-after").is_none());
}

fn flood_app() -> pactum::pipeline::PipelineBuilder {
    let flood = Endpoint::get(route!("/flood"))
        .errors::<WithHeaders<TicketFlood, RetryAfter>>()
        .build()
        .expect("valid contract");
    let flood = handler(flood, |_| async {
        let bare = TicketFlood {
            error: "Too many tickets".into(),
            code: "flood".into(),
        };
        Err::<NoContent, _>(bare.into())
    });
    Pipeline::builder(vec![flood.into()])
}

#[tokio::test]
async fn a_bare_error_without_its_headers_is_a_500_native() {
    a_bare_error_without_its_headers_is_a_500(&native_with(flood_app(), options()).await).await;
}

#[tokio::test]
async fn a_bare_error_without_its_headers_is_a_500_warp() {
    a_bare_error_without_its_headers_is_a_500(&warp_with(flood_app()).await).await;
}
