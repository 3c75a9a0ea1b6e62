//! The main demo: an in-memory todo API.
//!
//! ```text
//! cargo run --example todo
//! ```
//!
//! - `GET /todos?limit=10&offset=0&done=false` lists, paged and filtered;
//! - `POST /todos` creates (body validated; needs `Authorization: Bearer demo-token`);
//! - `GET /todos/:id`, `PATCH /todos/:id`, `DELETE /todos/:id` (writes need the token).
//!
//! The contracts (`todo/api.rs`) are plain data that the typed client shares; the server
//! (`todo/server.rs`) binds each handler to its contract with the store as typed state
//! (`.state(db)`) and, for writes, the auth provider (`.provide(auth)`), whose `Writer` the
//! function receives: see `pactum::bind`.

#![allow(clippy::print_stdout, reason = "a demo talks to its user")]

use pactum::ServerOptions;

// Shared with examples/typed_client.rs: the contracts, and the server side.
#[allow(unreachable_pub, dead_code)]
#[path = "todo/api.rs"]
mod api;
#[allow(unreachable_pub, dead_code)]
#[path = "todo/server.rs"]
mod server;

const TRY_IT: &str = r#"
Try it:
  curl -i localhost:3000/todos
  curl -i -X POST localhost:3000/todos -H 'authorization: Bearer demo-token' \
       -H 'content-type: application/json' -d '{"title":"write docs"}'
  curl -i localhost:3000/todos/1
  curl -i -X PATCH localhost:3000/todos/1 -H 'authorization: Bearer demo-token' \
       -H 'content-type: application/json' -d '{"done":true}'
  curl -i 'localhost:3000/todos?done=true&limit=5'
  curl -i -X POST localhost:3000/todos -H 'authorization: Bearer demo-token' \
       -H 'content-type: application/json' -d '{"title":""}'      # 400 with details
  curl -i -X DELETE localhost:3000/todos/1 -H 'authorization: Bearer demo-token'
Ctrl-C stops the server gracefully.
"#;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let server = pactum::serve(
        server::handlers(server::Db::default()),
        // Port 3000 and host `localhost` unless `PORT` / `HOST` say otherwise.
        ServerOptions::from_env()?.on_listen(|port, host| {
            println!("todo API on http://{host}:{port}\n{TRY_IT}");
        }),
    )
    .await?;
    server.shutdown_on_signal().await;
    Ok(())
}
