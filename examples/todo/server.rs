//! The todo API's server side: the in-memory store, the auth provider, and the handlers, each
//! bound to its contract (`api.rs`) with the state and the auth it needs. Shared by
//! `examples/todo.rs` and `examples/typed_client.rs` (for its self-contained run); the auth
//! provider by `examples/sqlite-todo/` too.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use pactum::middleware::{self, Provider, Request};
use pactum::{
    bind, contract::NoContent, handler::AnyHandler, Ctx, HttpError, NoParams, NoQuery, Security,
};

use crate::api::{contract, ListQuery, NewTodo, Todo, TodoId, TodoPage, TodoPatch, TOKEN};

/// Whoever the auth provider let in: a function that asks for one cannot be bound without
/// [`auth`], so a write handler cannot forget the check.
#[derive(Debug, Clone)]
pub struct Writer {
    /// Who it is (the demo has one token, and one writer).
    pub name: &'static str,
}

/// `Authorization: Bearer demo-token` (the scheme in any case, as the pipeline's 401 check
/// reads it: [`Request::bearer_token`]) makes a [`Writer`]; anything else is answered 401
/// before the body is read, and the handler does not run. Marked as verifying the contracts'
/// bearer scheme (`.verifies(..)`): without that mark the pipeline would refuse to start.
pub fn auth() -> Provider<Writer> {
    middleware::provide(|req: &Request| {
        let authorized = req.bearer_token() == Some(TOKEN);
        std::future::ready(if authorized {
            Ok(Writer { name: "demo" })
        } else {
            Err(HttpError::unauthorized("Unauthorized")
                .with_www_authenticate("Bearer")
                .into())
        })
    })
    .verifies(Security::bearer())
}

/// The todos and the next id.
#[derive(Debug, Default)]
pub struct Store {
    todos: BTreeMap<u64, Todo>,
    next_id: u64,
}

/// The shared in-memory store: the handlers' state, cloned (a reference count) per request.
pub type Db = Arc<Mutex<Store>>;

/// The store, locked (a handler that panicked while holding it left it consistent: every
/// change is one map operation).
fn lock(db: &Db) -> MutexGuard<'_, Store> {
    db.lock().unwrap_or_else(PoisonError::into_inner)
}

fn not_found() -> pactum::Error {
    HttpError::not_found("Todo not found").into()
}

/// Every handler of the todo API over `db`: reads need the store, writes the store and a
/// [`Writer`].
pub fn handlers(db: Db) -> Vec<AnyHandler> {
    let auth = auth();
    let list = bind(contract::list()).state(db.clone()).to(
        |ctx: Ctx<NoParams, ListQuery>, (db,): (Db,)| async move {
            let q = ctx.query;
            let store = lock(&db);
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
        },
    );
    let create = bind(contract::create())
        .state(db.clone())
        .provide(auth.clone())
        .to(
            |ctx: Ctx<NoParams, NoQuery, NewTodo>, (db, _writer): (Db, Writer)| async move {
                let todo = {
                    let mut store = lock(&db);
                    store.next_id += 1;
                    let todo = Todo {
                        id: store.next_id,
                        title: ctx.body.title,
                        done: ctx.body.done,
                    };
                    store.todos.insert(todo.id, todo.clone());
                    todo
                };
                let location = format!("/todos/{}", todo.id);
                ctx.response.insert_header(
                    pactum::http::header::LOCATION,
                    location
                        .parse()
                        .map_err(|e| HttpError::internal("bad Location").with_source(e))?,
                );
                Ok(todo)
            },
        );
    let get =
        bind(contract::get())
            .state(db.clone())
            .to(|ctx: Ctx<TodoId>, (db,): (Db,)| async move {
                lock(&db)
                    .todos
                    .get(&ctx.params.id)
                    .cloned()
                    .ok_or_else(not_found)
            });
    let update = bind(contract::update())
        .state(db.clone())
        .provide(auth.clone())
        .to(
            |ctx: Ctx<TodoId, NoQuery, TodoPatch>, (db, _writer): (Db, Writer)| async move {
                let mut store = lock(&db);
                let todo = store.todos.get_mut(&ctx.params.id).ok_or_else(not_found)?;
                if let Some(title) = ctx.body.title {
                    todo.title = title;
                }
                if let Some(done) = ctx.body.done {
                    todo.done = done;
                }
                Ok(todo.clone())
            },
        );
    let delete = bind(contract::delete()).state(db).provide(auth).to(
        |ctx: Ctx<TodoId>, (db, _writer): (Db, Writer)| async move {
            let removed = lock(&db).todos.remove(&ctx.params.id);
            removed.map(|_| NoContent).ok_or_else(not_found)
        },
    );
    vec![
        list.into(),
        create.into(),
        get.into(),
        update.into(),
        delete.into(),
    ]
}
