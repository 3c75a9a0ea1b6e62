//! Header and cookie params (issue 32): the webhook's declared `x-signature` header (row 20)
//! and the cookies of `GET /session` (row 26), sent by a plain HTTP client, on every adapter.

use serde_json::json;

use crate::api::sign;
use crate::support::TestServer;

/// A header param is found whatever the case of its name.
pub async fn a_header_param_is_read_case_insensitively(app: &TestServer) {
    let body = br#"{"event":"push"}"#;
    for name in ["x-signature", "X-Signature", "X-SIGNATURE"] {
        let request = app
            .client
            .post(app.url("/webhooks"))
            .header("content-type", "application/json")
            .header(name, sign(body))
            .body(body.to_vec());
        app.send(request).await.assert(
            200,
            json!({"ok": true, "event": "push", "bytes": body.len()}),
        );
    }
}

/// Cookies are read from the `Cookie` header (one or several), quoted or not, among others.
pub async fn cookie_params_are_read(app: &TestServer) {
    let session = |cookies: &[&str]| {
        let mut request = app.client.get(app.url("/session"));
        for cookie in cookies {
            request = request.header("cookie", *cookie);
        }
        app.send(request)
    };
    session(&["session=abcdefgh"])
        .await
        .assert(200, json!({"session": "abcdefgh", "theme": "light"}));
    session(&["lang=en; session=\"abcdefgh12\"; theme=dark"])
        .await
        .assert(200, json!({"session": "abcdefgh12", "theme": "dark"}));
    // Two `Cookie` headers (as HTTP/2 clients send them), the first `session` winning.
    session(&["theme=dark", "session=abcdefgh; session=other-one"])
        .await
        .assert(200, json!({"session": "abcdefgh", "theme": "dark"}));
}

/// A missing or invalid cookie is a 400 naming it.
pub async fn a_missing_or_invalid_cookie_is_a_400_naming_it(app: &TestServer) {
    let session = |cookie: Option<&str>| {
        let mut request = app.client.get(app.url("/session"));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        app.send(request)
    };
    for (cookie, path, message) in [
        (None, "session", "missing field `session`"),
        (
            Some("session=abc"),
            "session",
            "length must be between 8 and 64",
        ),
        (
            Some("Session=abcdefgh"),
            "session",
            "missing field `session`",
        ),
        (
            Some("session=abcdefgh; theme=blue"),
            "theme",
            "unknown variant `blue`, expected `light` or `dark`",
        ),
    ] {
        session(cookie).await.assert(
            400,
            json!({"error": "Validation failed", "details": [{"path": [path], "message": message}]}),
        );
    }
}

on_every_adapter!(
    a_header_param_is_read_case_insensitively,
    cookie_params_are_read,
    a_missing_or_invalid_cookie_is_a_400_naming_it,
);
