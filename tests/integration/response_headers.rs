//! Typed response headers (issue 32): `POST /tickets` (row 28) answers 201 with the
//! `Location` and `X-Total-Count` its contract declares, on every adapter.

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

on_every_adapter!(the_declared_headers_are_sent);
