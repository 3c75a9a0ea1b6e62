//! An interactive docs page for a served document (feature `docs-page`): Swagger UI, vendored
//! in `docs_page/` and embedded in the crate, answered by ordinary pactum handlers — the page
//! and the three files it loads, so a browser needs nothing but the server.

use std::borrow::Cow;
use std::sync::OnceLock;

use http::header::{CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS};
use http::HeaderValue;

use super::Document;
use crate::contract::{Binary, Endpoint, NoBody, NoParams, NoQuery};
use crate::error::ConfigError;
use crate::handler::{handler, AnyHandler};
use crate::route;

/// The version of the npm package `swagger-ui-dist` the page's script and stylesheet are
/// taken from (`docs_page/README.md` has their checksums).
const SWAGGER_UI_VERSION: &str = "5.35.0";

/// A file the page loads, served at `<page path>/<name>`.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const SCRIPT: &str = "text/javascript; charset=utf-8";

/// The page's files, in the order the page loads them.
const ASSETS: [Asset; 3] = [
    Asset {
        name: "swagger-ui.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("docs_page/swagger-ui.css"),
    },
    Asset {
        name: "swagger-ui-bundle.js",
        content_type: SCRIPT,
        bytes: include_bytes!("docs_page/swagger-ui-bundle.js"),
    },
    Asset {
        name: "swagger-initializer.js",
        content_type: SCRIPT,
        bytes: include_bytes!("docs_page/swagger-initializer.js"),
    },
];

/// The page is made once per [`DocsPage::handlers`]; a browser asks again each time
/// (`no-cache`), so a new build is seen at once.
const PAGE_CACHE: &str = "no-cache";
/// Each file's URL on the page carries a hash of its bytes (`?v=`), so a browser may keep it
/// for a year: another version has another URL.
const ASSET_CACHE: &str = "public, max-age=31536000, immutable";

/// An interactive docs page for an OpenAPI document: [Swagger UI](https://swagger.io/tools/swagger-ui/)
/// (npm `swagger-ui-dist` 5.35.0, embedded in the crate) with "Try it out" on every operation,
/// titled with the document's `info.title`.
///
/// [`DocsPage::handlers`] gives the page's handlers — `GET path` (the HTML) and the three files
/// it loads, `GET path/swagger-ui.css`, `path/swagger-ui-bundle.js` and
/// `path/swagger-initializer.js` — for the handler list of any adapter: the native server,
/// `pactum-warp`, the in-process pipeline. Like [`Document::handler`], they are not part of
/// the document. The browser fetches the document from `document_url` when the page opens,
/// and nothing from any other host: the page works offline and behind a firewall.
///
/// The page has no inline script or style (a `Content-Security-Policy` with
/// `script-src 'self'` allows it); the document URL and the title are HTML-escaped into an
/// attribute and the `<title>`, so neither can end an element or start a script.
///
/// It replaces `docs_html`, `docs_endpoint` and `docs_handler`, which served Redoc's page
/// with one handler and Redoc's script from a CDN: a page whose files come from the server
/// needs a handler per file, so [`DocsPage::handlers`] says "handlers" and returns a `Vec`.
///
/// ```
/// use pactum::openapi::OpenApi;
/// use pactum::{pipeline::Body, Pipeline};
///
/// let doc = OpenApi::new("Shop", "0.1.0").build();
/// let mut handlers = vec![doc.handler("/openapi.json")?];
/// handlers.extend(doc.docs_page("/docs", "/openapi.json").handlers()?);
/// let pipeline = Pipeline::new(handlers)?;
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let response = pipeline.handle(http::Request::get("/docs").body(Body::empty())?).await;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8");
/// let page = std::str::from_utf8(response.body().as_bytes().unwrap())?;
/// assert!(page.contains("<title>Shop</title>"));
/// assert!(page.contains(r#"data-url="/openapi.json""#));
///
/// let script = http::Request::get("/docs/swagger-ui-bundle.js").body(Body::empty())?;
/// let response = pipeline.handle(script).await;
/// assert_eq!(response.headers()["content-type"], "text/javascript; charset=utf-8");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "call `.handlers()` to serve the page"]
pub struct DocsPage {
    path: Cow<'static, str>,
    document_url: String,
    title: String,
}

impl DocsPage {
    /// The page served at `path` (a static route such as `/docs`) for the document at
    /// `document_url` (a path such as `/openapi.json`, or a full URL), titled
    /// `API documentation`. [`Document::docs_page`] titles it with the document's own title.
    pub fn new(path: impl Into<Cow<'static, str>>, document_url: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            document_url: document_url.into(),
            title: "API documentation".to_owned(),
        }
    }

    /// The page's `<title>`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// The page's HTML. It loads its files by URLs relative to the page (`docs/swagger-ui.css`
    /// for a page at `/docs`), so it works under any prefix a proxy or `nest` puts before it.
    ///
    /// ```
    /// let html = pactum::openapi::DocsPage::new("/docs", "/o.json?a=1&b=</script>")
    ///     .title("Shop <API>")
    ///     .html();
    /// assert!(html.contains("<title>Shop &lt;API&gt;</title>"));
    /// assert!(html.contains(r#"data-url="/o.json?a=1&amp;b=&lt;/script&gt;""#));
    /// assert!(html.contains(r#"<script src="docs/swagger-initializer.js?v="#));
    /// assert!(!html.contains("http"));
    /// ```
    pub fn html(&self) -> String {
        let base = relative_base(&self.path);
        let versions = asset_versions();
        let url = |i: usize| format!("{base}{}?v={}", ASSETS[i].name, versions[i]);
        format!(
            "<!DOCTYPE html>\n\
             <html lang=\"en\">\n\
             <head>\n\
             <meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"pactum, Swagger UI {SWAGGER_UI_VERSION}\">\n\
             <title>{title}</title>\n\
             <link rel=\"icon\" href=\"data:,\">\n\
             <link rel=\"stylesheet\" href=\"{css}\">\n\
             </head>\n\
             <body>\n\
             <div id=\"swagger-ui\" data-url=\"{document}\"></div>\n\
             <noscript>This page needs JavaScript. The OpenAPI document is at \
             <a href=\"{document}\">{document}</a>.</noscript>\n\
             <script src=\"{bundle}\"></script>\n\
             <script src=\"{init}\"></script>\n\
             </body>\n\
             </html>\n",
            title = escape(&self.title),
            document = escape(&self.document_url),
            css = escape(&url(0)),
            bundle = escape(&url(1)),
            init = escape(&url(2)),
        )
    }

    /// The page's four handlers: `GET path` answers the HTML ([`DocsPage::html`], `200`,
    /// `text/html; charset=utf-8`, `Cache-Control: no-cache`), and `GET path/swagger-ui.css`,
    /// `path/swagger-ui-bundle.js`, `path/swagger-initializer.js` the files it loads (`text/css`,
    /// `text/javascript`, cached for a year: the page names them with a hash of their bytes).
    /// Add them all to the handler list (`handlers.extend(...)`).
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when `path` is not a static route.
    pub fn handlers(&self) -> Result<Vec<AnyHandler>, ConfigError> {
        let mut handlers = Vec::with_capacity(1 + ASSETS.len());
        let page = Binary::new(self.html())
            .with_content_type(HeaderValue::from_static("text/html; charset=utf-8"));
        handlers.push(file_handler(
            Endpoint::get(route::static_path(self.path.clone()))
                .response::<Binary>()
                .name("docs")
                .summary("Interactive documentation of the OpenAPI document")
                .build()?,
            page,
            PAGE_CACHE,
        ));
        let directory = self.path.trim_end_matches('/');
        for asset in &ASSETS {
            let file = Binary::new(asset.bytes)
                .with_content_type(HeaderValue::from_static(asset.content_type));
            let contract = Endpoint::get(route::static_path(format!("{directory}/{}", asset.name)))
                .response::<Binary>()
                .name(format!("docs_{}", asset.name))
                .summary("A file of the interactive documentation page")
                .build()?;
            handlers.push(file_handler(contract, file, ASSET_CACHE));
        }
        Ok(handlers)
    }
}

impl Document {
    /// A docs page for this document, served at `path` and loading the document from
    /// `document_url` (where [`Document::handler`] serves it), titled with the document's
    /// `info.title`. See [`DocsPage`].
    ///
    /// ```
    /// let doc = pactum::openapi::OpenApi::new("Shop", "1.0.0").build();
    /// let handlers = doc.docs_page("/docs", "/openapi.json").handlers()?;
    /// assert_eq!(handlers.len(), 4); // the page and its three files
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "docs-page")))]
    pub fn docs_page(
        &self,
        path: impl Into<Cow<'static, str>>,
        document_url: impl Into<String>,
    ) -> DocsPage {
        let page = DocsPage::new(path, document_url);
        match self.as_value()["info"]["title"].as_str() {
            Some(title) => page.title(title),
            None => page,
        }
    }
}

/// A handler answering `contract` with `file` and a `Cache-Control` header.
fn file_handler(
    contract: Endpoint<NoParams, NoQuery, NoBody, Binary>,
    file: Binary,
    cache: &'static str,
) -> AnyHandler {
    handler(contract, move |ctx| {
        ctx.response
            .insert_header(CACHE_CONTROL, HeaderValue::from_static(cache));
        ctx.response
            .insert_header(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        let file = file.clone();
        async move { Ok(file) }
    })
    .undocumented()
}

/// The page's files' URLs relative to the page at `path`: `docs/` for `/docs` (the files are
/// at `/docs/...`), nothing for `/docs/` or `/`.
fn relative_base(path: &str) -> String {
    match path.rsplit('/').next() {
        Some(last) if !last.is_empty() => format!("{last}/"),
        _ => String::new(),
    }
}

/// A short hash of each file's bytes (64-bit FNV-1a, hex), which the page puts in the file's
/// URL so that a cached copy is never another version's.
fn asset_versions() -> &'static [String; 3] {
    static VERSIONS: OnceLock<[String; 3]> = OnceLock::new();
    VERSIONS.get_or_init(|| {
        ASSETS.map(|asset| {
            let hash = asset
                .bytes
                .iter()
                .fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
                    (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
                });
            format!("{hash:016x}")
        })
    })
}

/// `text` with the five characters HTML gives a meaning escaped, for an element or a
/// quoted attribute.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_named_relative_to_the_page() {
        assert_eq!(relative_base("/docs"), "docs/");
        assert_eq!(relative_base("/api/docs"), "docs/");
        assert_eq!(relative_base("/docs/"), "");
        assert_eq!(relative_base("/"), "");
    }

    #[test]
    fn the_page_names_no_other_host_and_escapes_what_it_is_given() {
        let html = DocsPage::new("/docs", "/openapi.json\"><script>alert(1)</script>")
            .title("</title><script>")
            .html();
        assert!(!html.contains("//"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        assert_eq!(html.matches("<script").count(), 2, "{html}");
        assert!(!html.contains("<style"), "{html}");
        assert!(html.contains("<title>&lt;/title&gt;&lt;script&gt;</title>"));
    }

    #[test]
    fn the_vendored_files_are_the_pinned_ones() {
        let bundle = std::str::from_utf8(ASSETS[1].bytes).unwrap();
        assert!(bundle.len() > 1_000_000);
        // The bundle names no source map, which a browser's tools would fetch.
        assert!(!bundle.contains("sourceMappingURL"));
        let css = std::str::from_utf8(ASSETS[0].bytes).unwrap();
        assert!(
            !css.contains("@import"),
            "the stylesheet loads nothing more"
        );
        assert!(
            !css.contains("url(http") && !css.contains("url(\"http") && !css.contains("url(//"),
            "the stylesheet's images are data URLs"
        );
    }
}
