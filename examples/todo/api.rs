//! The todo API: its types and contracts, plain data shared by `examples/todo.rs` (the
//! server), `examples/typed_client.rs` (the client) and `examples/sqlite-todo/`. Nothing here
//! is server code: the store, the auth and the handlers are bound to the contracts on the
//! server side (`server.rs`), so a client crate made of this file compiles no server.

use pactum::{contract::NoContent, route, Endpoint, NoBody, NoParams, NoQuery, Params, Security};
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

    /// Needs the bearer token [`TOKEN`](super::TOKEN), as the contract declares (data: the
    /// client sends its token, OpenAPI lists it); the server checks it with the auth bound to
    /// the handler (`server.rs`).
    pub fn create() -> Endpoint<NoParams, NoQuery, NewTodo, Todo> {
        Endpoint::post(route!("/todos"))
            .security(Security::bearer())
            .body::<NewTodo>()
            .response::<Todo>()
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

    /// Needs the bearer token [`TOKEN`](super::TOKEN), as the contract declares (data: the
    /// client sends its token, OpenAPI lists it); the server checks it with the auth bound to
    /// the handler (`server.rs`).
    pub fn update() -> Endpoint<TodoId, NoQuery, TodoPatch, Todo> {
        Endpoint::patch(route!("/todos/:id"))
            .security(Security::bearer())
            .params::<TodoId>()
            .body::<TodoPatch>()
            .response::<Todo>()
            .build()
            .expect("valid contract")
    }

    /// Needs the bearer token [`TOKEN`](super::TOKEN), as the contract declares (data: the
    /// client sends its token, OpenAPI lists it); the server checks it with the auth bound to
    /// the handler (`server.rs`).
    pub fn delete() -> Endpoint<TodoId, NoQuery, NoBody, NoContent> {
        Endpoint::delete(route!("/todos/:id"))
            .security(Security::bearer())
            .params::<TodoId>()
            .build()
            .expect("valid contract")
    }
}

/// The token the server lets writes in with (`Authorization: Bearer demo-token`): what a
/// client needs to know. How the server checks it is server code (`server.rs`).
pub const TOKEN: &str = "demo-token";
