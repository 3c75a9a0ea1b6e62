//! The main demo: an in-memory todo API.
//!
//! ```text
//! cargo run --example todo
//! ```
//!
//! - `GET /todos?limit=10&offset=0&done=false` lists, paged and filtered;
//! - `POST /todos` creates (body validated; needs `Authorization: Bearer demo-token`);
//! - `GET /todos/:id`, `PATCH /todos/:id`, `DELETE /todos/:id` (writes need the token).

#![allow(clippy::print_stdout, reason = "a demo talks to its user")]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pactum::{
    handler, middleware, route, AnyHandler, Ctx, Endpoint, HttpError, Middleware, NoBody,
    NoContent, NoParams, NoQuery, ServerOptions,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
struct Todo {
    id: u64,
    title: String,
    done: bool,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct NewTodo {
    #[validate(length(min = 1, max = 100))]
    title: String,
    #[serde(default)]
    done: bool,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct TodoPatch {
    #[validate(length(min = 1, max = 100))]
    title: Option<String>,
    done: Option<bool>,
}

fn default_limit() -> u32 {
    20
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct ListQuery {
    #[serde(default = "default_limit")]
    #[validate(range(min = 1, max = 100))]
    limit: u32,
    #[serde(default)]
    offset: u32,
    done: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct TodoPage {
    items: Vec<Todo>,
    total: usize,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct TodoId {
    id: u64,
}

/// The contracts: plain data, shareable with a typed client.
mod contract {
    use super::*;

    pub(super) fn list() -> Endpoint<NoParams, ListQuery, NoBody, TodoPage> {
        Endpoint::get(route::static_path("/todos"))
            .query::<ListQuery>()
            .response::<TodoPage>()
            .build()
            .expect("valid contract")
    }

    pub(super) fn create() -> Endpoint<NoParams, NoQuery, NewTodo, Todo> {
        Endpoint::post(route::static_path("/todos"))
            .body::<NewTodo>()
            .response::<Todo>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }

    pub(super) fn get() -> Endpoint<TodoId, NoQuery, NoBody, Todo> {
        Endpoint::get(route::pattern("/todos/:id"))
            .params::<TodoId>()
            .response::<Todo>()
            .build()
            .expect("valid contract")
    }

    pub(super) fn update() -> Endpoint<TodoId, NoQuery, TodoPatch, Todo> {
        Endpoint::patch(route::pattern("/todos/:id"))
            .params::<TodoId>()
            .body::<TodoPatch>()
            .response::<Todo>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }

    pub(super) fn delete() -> Endpoint<TodoId, NoQuery, NoBody, NoContent> {
        Endpoint::delete(route::pattern("/todos/:id"))
            .params::<TodoId>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }
}

/// Writes need `Authorization: Bearer demo-token`; checked before the body is read.
fn auth() -> Middleware {
    middleware::from_fn(|req, next| async move {
        let authorized = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            == Some("Bearer demo-token");
        if !authorized {
            return Err(HttpError::unauthorized("Unauthorized")
                .with_www_authenticate("Bearer")
                .into());
        }
        next.run(req).await
    })
}

#[derive(Default)]
struct Store {
    todos: BTreeMap<u64, Todo>,
    next_id: u64,
}

type Db = Arc<Mutex<Store>>;

fn not_found() -> pactum::Error {
    HttpError::not_found("Todo not found").into()
}

fn handlers(db: Db) -> Vec<AnyHandler> {
    let list = {
        let db = db.clone();
        handler(contract::list(), move |ctx: Ctx<NoParams, ListQuery>| {
            let db = db.clone();
            async move {
                let q = ctx.query;
                let store = db.lock().expect("store lock");
                let matching: Vec<&Todo> = store
                    .todos
                    .values()
                    .filter(|t| q.done.is_none_or(|d| t.done == d))
                    .collect();
                let items = matching
                    .iter()
                    .skip(q.offset as usize)
                    .take(q.limit as usize)
                    .map(|t| (*t).clone())
                    .collect();
                Ok(TodoPage {
                    items,
                    total: matching.len(),
                })
            }
        })
    };
    let create = {
        let db = db.clone();
        handler(
            contract::create(),
            move |ctx: Ctx<NoParams, NoQuery, NewTodo>| {
                let db = db.clone();
                async move {
                    let mut store = db.lock().expect("store lock");
                    store.next_id += 1;
                    let todo = Todo {
                        id: store.next_id,
                        title: ctx.body.title,
                        done: ctx.body.done,
                    };
                    store.todos.insert(todo.id, todo.clone());
                    let location = format!("/todos/{}", todo.id);
                    ctx.response.insert_header(
                        pactum::http::header::LOCATION,
                        location.parse().expect("valid header"),
                    );
                    Ok(todo)
                }
            },
        )
    };
    let get = {
        let db = db.clone();
        handler(contract::get(), move |ctx: Ctx<TodoId>| {
            let db = db.clone();
            async move {
                let store = db.lock().expect("store lock");
                store
                    .todos
                    .get(&ctx.params.id)
                    .cloned()
                    .ok_or_else(not_found)
            }
        })
    };
    let update = {
        let db = db.clone();
        handler(
            contract::update(),
            move |ctx: Ctx<TodoId, NoQuery, TodoPatch>| {
                let db = db.clone();
                async move {
                    let mut store = db.lock().expect("store lock");
                    let todo = store.todos.get_mut(&ctx.params.id).ok_or_else(not_found)?;
                    if let Some(title) = ctx.body.title {
                        todo.title = title;
                    }
                    if let Some(done) = ctx.body.done {
                        todo.done = done;
                    }
                    Ok(todo.clone())
                }
            },
        )
    };
    let delete = handler(contract::delete(), move |ctx: Ctx<TodoId>| {
        let db = db.clone();
        async move {
            let removed = db.lock().expect("store lock").todos.remove(&ctx.params.id);
            removed.map(|_| NoContent).ok_or_else(not_found)
        }
    });
    vec![
        list.into(),
        create.into(),
        get.into(),
        update.into(),
        delete.into(),
    ]
}

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
        handlers(Db::default()),
        ServerOptions::new().port(3000).on_listen(|port, host| {
            println!("todo API on http://{host}:{port}\n{TRY_IT}");
        }),
    )
    .await?;
    server.shutdown_on_signal().await;
    Ok(())
}
