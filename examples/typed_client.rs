//! The typed client against the todo demo: the same contracts the server serves, so a wrong
//! call does not compile and an invalid one is refused before it is sent.
//!
//! ```text
//! cargo run --example typed_client                               # starts the todo API itself
//! cargo run --example typed_client -- http://localhost:3000      # or calls a running `todo`
//! ```
#![allow(clippy::print_stdout, reason = "a demo talks to its user")]

// The todo API of examples/todo.rs: its contracts (plain data: all a client needs), and its
// server side for the self-contained run.
#[allow(unreachable_pub, dead_code)]
#[path = "todo/api.rs"]
mod api;
#[allow(unreachable_pub, dead_code)]
#[path = "todo/server.rs"]
mod server;

use api::{contract, ListQuery, NewTodo, TodoId, TodoPatch};
use pactum::ServerOptions;
use pactum_client::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (base_url, _server) = match std::env::args().nth(1) {
        Some(url) => (url, None),
        None => {
            let server = pactum::serve(
                server::handlers(server::Db::default()),
                ServerOptions::new().port(0).hostname("127.0.0.1"),
            )
            .await?;
            (format!("http://{}", server.local_addr()), Some(server))
        }
    };
    println!("calling the todo API at {base_url}");

    let reader = Client::new(base_url.as_str())?;
    let writer = Client::builder()
        .base_url(base_url.as_str())
        // Sent with the calls whose contract declares bearer auth (the writes), only.
        .bearer_token(api::TOKEN)
        .build()?;

    // `.body(..)` is required by the contract: without it, `.send()` does not compile.
    let todo = writer
        .call(&contract::create())
        .body(NewTodo {
            title: "write the docs".into(),
            done: false,
        })
        .send()
        .await?;
    println!("created  {todo:?}");

    let done = writer
        .call(&contract::update())
        .params(TodoId { id: todo.id })
        .body(TodoPatch {
            title: None,
            done: Some(true),
        })
        .send()
        .await?;
    println!("updated  {done:?}");

    let page = reader
        .call(&contract::list())
        .query(ListQuery {
            limit: 10,
            offset: 0,
            done: Some(true),
        })
        .send()
        .await?;
    println!("listed   {} of {} done", page.items.len(), page.total);

    // Checked before sending: nothing goes over the wire.
    let invalid = writer
        .call(&contract::create())
        .body(NewTodo {
            title: String::new(),
            done: false,
        })
        .send()
        .await
        .expect_err("an empty title breaks the contract's rules");
    println!(
        "refused  {:?} before sending: {:?}",
        invalid.validation_part(),
        invalid.details()
    );

    // The server's answer, decoded: status and pactum's error body.
    let missing = reader
        .call(&contract::get())
        .params(TodoId { id: 999 })
        .send()
        .await
        .expect_err("there is no todo 999");
    println!(
        "answered {:?} {:?}",
        missing.status(),
        missing.error_body().map(|body| &body.error)
    );

    // The contract says writes need a token: without one, nothing is sent.
    let anonymous = reader
        .call(&contract::delete())
        .params(TodoId { id: todo.id })
        .send()
        .await
        .expect_err("writes need the token");
    assert!(anonymous.is_missing_credential());
    println!("refused  a write without a token, before sending");

    // The server's auth (bound to the handler) answers a wrong token 401 before the body is read.
    let intruder = Client::builder()
        .base_url(base_url.as_str())
        .bearer_token("not-the-token")
        .build()?;
    let refused = intruder
        .call(&contract::delete())
        .params(TodoId { id: todo.id })
        .send()
        .await
        .expect_err("a wrong token is refused");
    println!("answered {:?} to a wrong token", refused.status());

    writer
        .call(&contract::delete())
        .params(TodoId { id: todo.id })
        .send()
        .await?;
    println!("deleted  todo {}", todo.id);
    Ok(())
}
