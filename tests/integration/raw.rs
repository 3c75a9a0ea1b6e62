//! Rows 20 and 21 of the conformance fixture on every adapter: a webhook signed over its
//! exact bytes (the raw body beside the parsed one), and the client's address.

use serde_json::json;

use crate::api::{sign, SIGNATURE_HEADER};
use crate::support::{Answer, TestServer};

async fn post_signed(app: &TestServer, body: &str, signature: Option<&str>) -> Answer {
    let mut request = app
        .client
        .post(app.url("/webhooks"))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(signature) = signature {
        request = request.header(SIGNATURE_HEADER, signature);
    }
    app.send(request).await
}

pub async fn webhook_reads_the_exact_bytes(app: &TestServer) {
    // Spaces the parser skips count: the signature and `bytes` are over the bytes as sent.
    let body = r#"{ "event" : "push" }"#;
    post_signed(app, body, Some(&sign(body.as_bytes())))
        .await
        .assert(
            200,
            json!({"ok": true, "event": "push", "bytes": body.len()}),
        );
}

pub async fn webhook_signature_is_checked_before_the_rules(app: &TestServer) {
    let unsigned = json!({"error": "Invalid signature"});
    let body = r#"{"event":"push"}"#;
    post_signed(app, body, None)
        .await
        .assert(401, unsigned.clone());
    let other = sign(br#"{"event":"pull"}"#);
    post_signed(app, body, Some(&other))
        .await
        .assert(401, unsigned.clone());
    post_signed(app, body, Some("sha256=zz"))
        .await
        .assert(401, unsigned.clone());
    // A body that breaks its rules, unsigned: the signature is checked first.
    post_signed(app, r#"{"event":""}"#, None)
        .await
        .assert(401, unsigned);
    let bad = r#"{"event":""}"#;
    let answer = post_signed(app, bad, Some(&sign(bad.as_bytes()))).await;
    assert_eq!(answer.status, 400, "{}", answer.text);
    assert_eq!(answer.json()["error"], "Validation failed");
}

pub async fn webhook_body_limit_still_applies(app: &TestServer) {
    let body = format!(r#"{{"event":"push","pad":"{}"}}"#, "x".repeat(1024 * 1024));
    post_signed(app, &body, Some(&sign(body.as_bytes())))
        .await
        .assert(413, json!({"error": "Payload too large"}));
}

pub async fn whoami_is_the_peer(app: &TestServer) {
    app.get("/whoami")
        .await
        .assert(200, json!({"ip": "127.0.0.1"}));
    // Not a trusted proxy: its `X-Forwarded-For` is not believed.
    let spoofed = app.client.get(app.url("/whoami"));
    app.send(spoofed.header("x-forwarded-for", "203.0.113.9"))
        .await
        .assert(200, json!({"ip": "127.0.0.1"}));
}

on_every_adapter!(
    webhook_reads_the_exact_bytes,
    webhook_signature_is_checked_before_the_rules,
    webhook_body_limit_still_applies,
    whoami_is_the_peer,
);
