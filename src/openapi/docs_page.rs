//! An interactive docs page for a served document (feature `docs-page`): Redoc's page from the
//! `utoipa-redoc` crate, answered by an ordinary pactum handler.

use std::borrow::Cow;

use http::HeaderValue;

use crate::contract::{Binary, Endpoint, NoBody, NoParams, NoQuery};
use crate::error::ConfigError;
use crate::handler::{handler, AnyHandler};
use crate::route;

/// The content type of the docs page.
const TEXT_HTML: &str = "text/html; charset=utf-8";

/// The HTML of an interactive docs page ([Redoc](https://redocly.com/redoc), from the
/// [`utoipa-redoc`](https://docs.rs/utoipa-redoc) crate) that loads the OpenAPI document from
/// `document_url` (a path such as `/openapi.json`, or a full URL) when the page is opened.
///
/// The page itself is small; the browser loads Redoc's script from its CDN
/// (`cdn.redoc.ly`) and its fonts from Google Fonts when it shows the page, so a browser
/// without internet access shows a blank page. A `<` in `document_url` is percent-encoded, so
/// the URL cannot end the page's script.
///
/// ```
/// let html = pactum::openapi::docs_html("/openapi.json");
/// assert!(html.contains("Redoc.init("));
/// assert!(html.contains(r#""/openapi.json""#));
/// ```
pub fn docs_html(document_url: &str) -> String {
    let url = document_url.replace('<', "%3C");
    utoipa_redoc::Redoc::new(url.as_str()).to_html()
}

/// The contract of `GET path` answering the docs page (`200`, `text/html; charset=utf-8`),
/// which [`docs_handler`] serves: a [`Binary`] answer, named `docs`.
///
/// ```
/// let contract = pactum::openapi::docs_endpoint("/docs")?;
/// assert_eq!(contract.route().as_str(), "/docs");
/// assert!(pactum::openapi::docs_endpoint("/docs/:page").is_err());
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
///
/// # Errors
///
/// [`ConfigError::InvalidRoute`] when `path` is not a static route.
pub fn docs_endpoint(
    path: impl Into<Cow<'static, str>>,
) -> Result<Endpoint<NoParams, NoQuery, NoBody, Binary>, ConfigError> {
    Endpoint::get(route::static_path(path))
        .response::<Binary>()
        .name("docs")
        .summary("Interactive documentation of the OpenAPI document")
        .build()
}

/// A handler answering `GET path` with an interactive docs page for the document served at
/// `document_url` ([`docs_html`]): `200`, `text/html; charset=utf-8`. It goes in the handler
/// list of any adapter — the native server, `pactum-warp`, the in-process pipeline — beside
/// [`Document::handler`](super::Document::handler), and like it is not part of the document.
///
/// The page is made once, here; the browser fetches the document from `document_url` and
/// Redoc's script from its CDN when the page is opened.
///
/// ```
/// use pactum::openapi::{docs_handler, OpenApi};
/// use pactum::{pipeline::Body, Pipeline};
///
/// let doc = OpenApi::new("Empty", "0.1.0").build();
/// let pipeline = Pipeline::new(vec![
///     doc.handler("/openapi.json")?,
///     docs_handler("/docs", "/openapi.json")?,
/// ])?;
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let response = pipeline.handle(http::Request::get("/docs").body(Body::empty())?).await;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8");
/// let page = std::str::from_utf8(response.body().as_bytes().unwrap())?;
/// assert!(page.contains("\"/openapi.json\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ConfigError::InvalidRoute`] when `path` is not a static route.
pub fn docs_handler(
    path: impl Into<Cow<'static, str>>,
    document_url: &str,
) -> Result<AnyHandler, ConfigError> {
    let page =
        Binary::new(docs_html(document_url)).with_content_type(HeaderValue::from_static(TEXT_HTML));
    Ok(handler(docs_endpoint(path)?, move |_| {
        let page = page.clone();
        async move { Ok(page) }
    })
    .into())
}
