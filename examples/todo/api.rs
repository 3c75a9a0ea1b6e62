//! The todo API: types, contracts and handlers, shared by `examples/todo.rs` (the server) and
//! `examples/typed_client.rs` (the client).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pactum::{
    handler, middleware, route, AnyHandler, Ctx, Endpoint, HttpError, Middleware, NoBody,
    NoContent, NoParams, NoQuery, Params,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

/// A todo.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub struct Todo {
    pub id: u64,
    pub title: String,
    pub done: bool,
}

/// The body of `POST /todos`.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub struct NewTodo {
    #[validate(length(min = 1, max = 100))]
    pub title: String,
    #[serde(default)]
    pub done: bool,
}

/// The body of `PATCH /todos/:id`.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub struct TodoPatch {
    #[validate(length(min = 1, max = 100))]
    pub title: Option<String>,
    pub done: Option<bool>,
}

fn default_limit() -> u32 {
    20
}

/// The query of `GET /todos`.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub struct ListQuery {
    #[serde(default = "default_limit")]
    #[validate(range(min = 1, max = 100))]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
    pub done: Option<bool>,
}

/// One page of todos.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub struct TodoPage {
    pub items: Vec<Todo>,
    pub total: usize,
}

/// The params of `/todos/:id`.
#[derive(Debug, Serialize, Deserialize, Validate, Params)]
pub struct TodoId {
    pub id: u64,
}

/// The contracts: plain data, shared by the server and the typed client.
pub mod contract {
    use super::*;

    pub fn list() -> Endpoint<NoParams, ListQuery, NoBody, TodoPage> {
        Endpoint::get(route!("/todos"))
            .query::<ListQuery>()
            .response::<TodoPage>()
            .build()
            .expect("valid contract")
    }

    pub fn create() -> Endpoint<NoParams, NoQuery, NewTodo, Todo> {
        Endpoint::post(route!("/todos"))
            .body::<NewTodo>()
            .response::<Todo>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }

    pub fn get() -> Endpoint<TodoId, NoQuery, NoBody, Todo> {
        Endpoint::get(route!("/todos/:id"))
            .params::<TodoId>()
            .response::<Todo>()
            .build()
            .expect("valid contract")
    }

    pub fn update() -> Endpoint<TodoId, NoQuery, TodoPatch, Todo> {
        Endpoint::patch(route!("/todos/:id"))
            .params::<TodoId>()
            .body::<TodoPatch>()
            .response::<Todo>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }

    pub fn delete() -> Endpoint<TodoId, NoQuery, NoBody, NoContent> {
        Endpoint::delete(route!("/todos/:id"))
            .params::<TodoId>()
            .middleware(super::auth())
            .build()
            .expect("valid contract")
    }
}

/// The token writes need.
pub const TOKEN: &str = "demo-token";

/// Writes need `Authorization: Bearer demo-token`; checked before the body is read.
pub fn auth() -> Middleware {
    middleware::from_fn(|req, next| async move {
        let authorized = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            == Some(TOKEN);
        if !authorized {
            return Err(HttpError::unauthorized("Unauthorized")
                .with_www_authenticate("Bearer")
                .into());
        }
        next.run(req).await
    })
}

/// The todos and the next id.
#[derive(Debug, Default)]
pub struct Store {
    todos: BTreeMap<u64, Todo>,
    next_id: u64,
}

/// The shared in-memory store.
pub type Db = Arc<Mutex<Store>>;

fn not_found() -> pactum::Error {
    HttpError::not_found("Todo not found").into()
}

/// Every handler of the todo API over `db`.
pub fn handlers(db: Db) -> Vec<AnyHandler> {
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
