//! Fixture row 25, the interactive docs page: `GET /docs` and the files it loads, on every
//! adapter. (`tests/browser/run.sh` opens it in a real browser.)

use crate::support::TestServer;

pub async fn serves_a_page_that_loads_the_document(app: &TestServer) {
    let page = app.get("/docs").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(page.headers["cache-control"], "no-cache");
    assert!(page.text.starts_with("<!DOCTYPE html>"), "{}", page.text);
    // Swagger UI loads the document from its URL, which the same server answers, and is
    // titled with the document's title.
    assert!(
        page.text.contains(r#"data-url="/openapi.json""#),
        "{}",
        page.text
    );
    assert!(
        page.text
            .contains("<title>pactum conformance fixture</title>"),
        "{}",
        page.text
    );
    // Nothing from another host: no scheme-relative or absolute URL.
    assert!(!page.text.contains("//"), "{}", page.text);
    let doc = app.get("/openapi.json").await;
    assert_eq!(doc.status, 200);
    assert_eq!(doc.headers["content-type"], "application/json");
    // Neither the page nor the document is part of the document.
    assert!(doc.text.contains(r#""/users/{id}""#));
    assert!(!doc.text.contains(r#""/docs"#));
}

pub async fn serves_the_files_the_page_loads(app: &TestServer) {
    let page = app.get("/docs").await;
    for (file, content_type) in [
        ("swagger-ui.css", "text/css; charset=utf-8"),
        ("swagger-ui-bundle.js", "text/javascript; charset=utf-8"),
        ("swagger-initializer.js", "text/javascript; charset=utf-8"),
    ] {
        // The page names each file relative to itself, with a version.
        let start = page
            .text
            .find(&format!("\"docs/{file}?v="))
            .unwrap_or_else(|| panic!("{file} in {}", page.text));
        let url = &page.text[start + 1..];
        let url = &url[..url.find('"').unwrap()];
        let answer = app.get(&format!("/{url}")).await;
        assert_eq!(answer.status, 200, "{url}");
        assert_eq!(answer.headers["content-type"], content_type, "{url}");
        assert_eq!(
            answer.headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(answer.headers["x-content-type-options"], "nosniff");
        assert!(answer.text.len() > 400, "{url}");
    }
}

pub async fn answers_head_and_refuses_other_methods(app: &TestServer) {
    let head = app.send(app.client.head(app.url("/docs"))).await;
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(head.text, "");
    let post = app.send(app.client.post(app.url("/docs"))).await;
    assert_eq!(post.status, 405);
    let post = app
        .send(app.client.post(app.url("/docs/swagger-ui.css")))
        .await;
    assert_eq!(post.status, 405);
}

on_every_adapter!(
    serves_a_page_that_loads_the_document,
    serves_the_files_the_page_loads,
    answers_head_and_refuses_other_methods
);
