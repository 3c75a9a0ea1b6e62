//! Fixture row 23, an answer that is not JSON: `GET /hello.txt` on every adapter.

use serde_json::json;

use crate::support::TestServer;

pub async fn greets_in_plain_text(app: &TestServer) {
    for (path, text) in [
        ("/hello.txt", "hello world"),
        ("/hello.txt?name=Ada", "hello Ada"),
        ("/hello.txt?name=J%C3%BCrgen%20K", "hello Jürgen K"),
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, 200, "{path}");
        assert_eq!(
            answer.headers["content-type"], "text/plain; charset=utf-8",
            "{path}"
        );
        assert_eq!(answer.text, text, "{path}");
    }
    let head = app.send(app.client.head(app.url("/hello.txt"))).await;
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(head.text, "");
}

pub async fn a_bad_name_is_a_json_400(app: &TestServer) {
    let long = format!("/hello.txt?name={}", "a".repeat(51));
    for path in ["/hello.txt?name=", long.as_str()] {
        let answer = app.get(path).await;
        assert_eq!(answer.headers["content-type"], "application/json", "{path}");
        answer.assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["name"], "message": "length must be between 1 and 50"},
            ]}),
        );
    }
}

on_every_adapter!(greets_in_plain_text, a_bad_name_is_a_json_400);
