//! OpenAPI 3.1 from contracts: the handler list that is served is the list that is documented
//! (each handler made with `.documented()`), and the document is served at `GET /openapi.json`
//! next to the API (feature `openapi`).
//!
//! ```text
//! cargo run --example openapi                 # serves http://localhost:3000/openapi.json
//! cargo run --example openapi -- --print      # prints the document and exits
//! ```
//!
//! Point Swagger UI, a client generator or schemathesis at the URL.
#![allow(clippy::print_stdout, reason = "a command-line program")]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use pactum::http::StatusCode;
use pactum::openapi::OpenApi;
use pactum::schemars::{self, JsonSchema};
use pactum::{
    handler, handler::AnyHandler, route, Ctx, Endpoint, HttpError, NoParams, Params, ServerOptions,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

/// A stored book.
#[derive(Debug, Clone, Serialize, Deserialize, Validate, JsonSchema)]
struct Book {
    id: u64,
    title: String,
    isbn: String,
}

/// What `POST /books` reads: the rules become `minLength`, `maxLength` and `pattern`.
#[derive(Debug, Serialize, Deserialize, Validate, JsonSchema)]
struct NewBook {
    /// The title as printed.
    #[validate(length(min = 1, max = 200))]
    title: String,
    /// ISBN-13, digits only.
    #[validate(length(equal = 13), custom(function = "digits"))]
    #[schemars(regex(pattern = "^[0-9]{13}$"))]
    isbn: String,
}

fn digits(isbn: &str) -> Result<(), validator::ValidationError> {
    match isbn.bytes().all(|b| b.is_ascii_digit()) {
        true => Ok(()),
        false => Err(validator::ValidationError::new("digits")),
    }
}

/// `GET /books?limit=N`.
#[derive(Debug, Serialize, Deserialize, Validate, JsonSchema)]
struct Page {
    /// At most this many books (1 to 50).
    #[serde(default = "ten")]
    #[validate(range(min = 1, max = 50))]
    limit: usize,
}

fn ten() -> usize {
    10
}

#[derive(Debug, Serialize, Deserialize, Validate, JsonSchema, Params)]
struct BookPath {
    id: u64,
}

type Store = Arc<Mutex<BTreeMap<u64, Book>>>;

fn handlers() -> Result<Vec<AnyHandler>, pactum::error::ConfigError> {
    let store: Store = Arc::default();

    let list = Endpoint::get(route!("/books"))
        .query::<Page>()
        .response::<Vec<Book>>()
        .name("listBooks")
        .summary("List books")
        .tag("books")
        .build()?;
    let create = Endpoint::post(route!("/books"))
        .body::<NewBook>()
        .response::<Book>()
        .name("createBook")
        .summary("Add a book")
        .tag("books")
        // The handler's own error, declared once: in the document, and known to the server.
        .http_error(StatusCode::CONFLICT, "ISBN already listed")
        .build()?;
    let get = Endpoint::get(route!("/books/:id"))
        .params::<BookPath>()
        .response::<Book>()
        .name("getBook")
        .summary("One book")
        .tag("books")
        .http_error(StatusCode::NOT_FOUND, "Book not found")
        .build()?;

    let s = store.clone();
    let list = handler(list, move |ctx: Ctx<NoParams, Page>| {
        let store = s.clone();
        async move {
            let books = store.lock().unwrap_or_else(PoisonError::into_inner);
            Ok(books.values().take(ctx.query.limit).cloned().collect())
        }
    })
    .documented();
    let s = store.clone();
    let create = handler(
        create,
        move |ctx: Ctx<NoParams, pactum::NoQuery, NewBook>| {
            let store = s.clone();
            async move {
                let mut books = store.lock().unwrap_or_else(PoisonError::into_inner);
                if books.values().any(|b| b.isbn == ctx.body.isbn) {
                    return Err(HttpError::conflict("ISBN already listed").into());
                }
                let id = books.len() as u64 + 1;
                let book = Book {
                    id,
                    title: ctx.body.title,
                    isbn: ctx.body.isbn,
                };
                books.insert(id, book.clone());
                Ok(book)
            }
        },
    )
    .documented();
    let s = store;
    let get = handler(get, move |ctx: Ctx<BookPath>| {
        let store = s.clone();
        async move {
            let books = store.lock().unwrap_or_else(PoisonError::into_inner);
            books
                .get(&ctx.params.id)
                .cloned()
                .ok_or_else(|| HttpError::not_found("Book not found").into())
        }
    })
    .documented();
    Ok(vec![list, create, get])
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut handlers = handlers()?;
    // The document of the list that is served: a handler made with `.into()` instead of
    // `.documented()` would be refused here rather than served undocumented.
    let doc = OpenApi::new("Books", "1.0.0")
        .description("A small library API, documented from its contracts.")
        .server("http://localhost:3000")
        .tag("books", "The catalogue")
        .handlers(&handlers)?
        .build();

    if std::env::args().any(|a| a == "--print") {
        println!("{}", doc.to_pretty_string());
        return Ok(());
    }
    handlers.push(doc.handler("/openapi.json")?);
    let server = pactum::serve(
        handlers,
        ServerOptions::new().on_listen(|port, host| {
            println!("listening on http://{host}:{port} (document: /openapi.json)");
        }),
    )
    .await?;
    server.shutdown_on_signal().await;
    Ok(())
}
