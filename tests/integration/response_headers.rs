//! Typed response headers (issue 32): `POST /tickets` (row 28) answers 201 with the
//! `Location` and `X-Total-Count` its contract declares, and its declared 429 with a typed
//! `Retry-After`, on every adapter.

use serde_json::json;

use crate::support::TestServer;

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
