//! The OpenAPI document, served at `GET /openapi.json`.

use pactum::handler::AnyHandler;
use pactum::openapi::OpenApi;

use super::api_handlers;

/// Where the fixture serves its OpenAPI document.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// Where the fixture serves the interactive docs page for it (row 25), which is not in the
/// document either.
pub const DOCS_PATH: &str = "/docs";

/// The fixture's OpenAPI 3.1 document: the document of [`api_handlers`], the list the
/// fixture serves.
pub fn openapi() -> OpenApi {
    described(&api_handlers())
}

/// The OpenAPI 3.1 document of `handlers`: every contract, with the errors its handler and
/// middleware return (declared in the contract, `.http_error(..)`). The bearer scheme comes
/// from the contracts (`Security::bearer()` on `/me` and `/me/notes`).
pub fn described(handlers: &[AnyHandler]) -> OpenApi {
    OpenApi::new("pactum conformance fixture", env!("CARGO_PKG_VERSION"))
        .description(
            "Every behaviour of pactum behind one server (the fixture table in CONTRIBUTING.md). Users live in memory; \
             `/errors/*` fail on purpose.",
        )
        .tag("users", "A CRUD resource with a paged, filtered list")
        .tag("routing", "Pattern and catch-all params")
        .tag(
            "auth",
            "Bearer-token middleware, run before the body is read",
        )
        .tag("middleware", "Middleware order")
        .tag("errors", "Routes that fail on purpose")
        .tag("validation", "Nested validation details")
        .tag("ops", "Health, timing and a plain-text greeting")
        .tag("raw", "The raw body beside the parsed one, the client's address")
        .tag("uploads", "A multipart form with a file")
        .handlers(handlers)
        .unwrap_or_else(|e| panic!("the fixture documents every handler: {e}"))
}
