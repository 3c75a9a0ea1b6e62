//! The docs page through the in-process pipeline: the page names nothing outside the server,
//! and the files it loads answer with their content types.

use http::header::{CACHE_CONTROL, CONTENT_TYPE};

use crate::openapi::{DocsPage, OpenApi};
use crate::pipeline::{Body, Pipeline};

async fn get(pipeline: &Pipeline, uri: &str) -> (http::StatusCode, http::HeaderMap, Vec<u8>) {
    let request = http::Request::get(uri).body(Body::empty()).unwrap();
    let response = pipeline.handle(request).await;
    let body = response.body().as_bytes().map(|bytes| bytes.to_vec());
    (
        response.status(),
        response.headers().clone(),
        body.unwrap_or_default(),
    )
}

/// Every `src="..."` and `href="..."` of the page.
fn urls(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["src=\"", "href=\"", "data-url=\""] {
        for (at, _) in html.match_indices(attribute) {
            let rest = &html[at + attribute.len()..];
            found.push(rest[..rest.find('"').unwrap()].to_owned());
        }
    }
    found
}

#[tokio::test]
async fn the_page_and_its_files_are_served_in_process() {
    let doc = OpenApi::new("Shop & <Co>", "1.0.0").build();
    let mut handlers = vec![doc.handler("/openapi.json").unwrap()];
    handlers.extend(
        doc.docs_page("/api/docs", "/openapi.json")
            .handlers()
            .unwrap(),
    );
    assert_eq!(handlers.len(), 5);
    let pipeline = Pipeline::new(handlers).unwrap();

    let (status, headers, page) = get(&pipeline, "/api/docs").await;
    assert_eq!(status, 200);
    assert_eq!(headers[CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(headers[CACHE_CONTROL], "no-cache");
    let page = String::from_utf8(page).unwrap();
    assert!(
        page.contains("<title>Shop &amp; &lt;Co&gt;</title>"),
        "{page}"
    );
    // No URL of another host: no scheme, no `//`; only the page's own files, a data URL for
    // the icon, and the document.
    assert!(!page.contains("//"), "{page}");
    assert!(!page.to_ascii_lowercase().contains("http"), "{page}");
    let urls = urls(&page);
    assert_eq!(urls.len(), 6, "{urls:?}");
    assert!(
        !page.contains("<script>") && !page.contains("<style"),
        "no inline code"
    );

    let mut files = 0;
    for url in urls.iter().filter(|u| u.starts_with("docs/")) {
        // Relative to the page at /api/docs.
        let (status, headers, body) = get(&pipeline, &format!("/api/{url}")).await;
        assert_eq!(status, 200, "{url}");
        let expected = if url.contains(".css?v=") {
            "text/css; charset=utf-8"
        } else {
            "text/javascript; charset=utf-8"
        };
        assert_eq!(headers[CONTENT_TYPE], expected, "{url}");
        assert_eq!(
            headers[CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert!(body.len() > 400, "{url}");
        files += 1;
    }
    assert_eq!(files, 3);
    let (status, _, document) = get(&pipeline, "/openapi.json").await;
    assert_eq!(status, 200);
    // Neither the page nor its files are in the document.
    assert!(!String::from_utf8(document).unwrap().contains("docs"));
}

#[test]
fn a_page_needs_a_static_route() {
    assert!(DocsPage::new("/docs/:page", "/openapi.json")
        .handlers()
        .is_err());
    let page = DocsPage::new("/docs", "/openapi.json");
    assert!(page.html().contains("<title>API documentation</title>"));
}
