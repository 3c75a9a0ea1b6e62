//! Fixture row 25, the interactive docs page: `GET /docs` on every adapter.

use crate::support::TestServer;

pub async fn serves_a_page_that_loads_the_document(app: &TestServer) {
    let page = app.get("/docs").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.headers["content-type"], "text/html; charset=utf-8");
    assert!(page.text.starts_with("<!DOCTYPE html>"), "{}", page.text);
    // Redoc loads the document from its URL, which the same server answers.
    assert!(page.text.contains("Redoc.init("), "{}", page.text);
    assert!(page.text.contains(r#""/openapi.json""#), "{}", page.text);
    let doc = app.get("/openapi.json").await;
    assert_eq!(doc.status, 200);
    assert_eq!(doc.headers["content-type"], "application/json");
    // Neither the page nor the document is part of the document.
    assert!(doc.text.contains(r#""/users/{id}""#));
    assert!(!doc.text.contains(r#""/docs""#));
}

pub async fn answers_head_and_refuses_other_methods(app: &TestServer) {
    let head = app.send(app.client.head(app.url("/docs"))).await;
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(head.text, "");
    let post = app.send(app.client.post(app.url("/docs"))).await;
    assert_eq!(post.status, 405);
}

on_every_adapter!(
    serves_a_page_that_loads_the_document,
    answers_head_and_refuses_other_methods
);
