//! Handlers over an in-memory store: every row of the conformance fixture (CONTRIBUTING.md: The conformance fixture).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use pactum::http::StatusCode;
use pactum::{bind, handler, handler::AnyHandler, Ctx, Error, HttpError, NoParams, NoQuery};

use super::{
    auth, bad_response, create_note, create_user, delete_user, described, echo, get_file, get_repo,
    get_user, health, list_users, me, panic_error, plain_error, replace_user, slow, status_error,
    trace, update_user, AuthUser, CodePath, Deleted, Echo, FilePath, Health, ListQuery, Me,
    NewNote, NewUser, Note, RepoPath, Slept, SlowQuery, Trace, TraceLog, User, UserPage, UserPatch,
    UserPath, DOCS_PATH, OPENAPI_PATH,
};

/// The users, in id order, and the next id.
#[derive(Debug, Default)]
pub struct Store {
    users: BTreeMap<u64, User>,
    next_id: u64,
}

impl Store {
    fn email_taken(&self, email: &str, except: Option<u64>) -> bool {
        self.users
            .values()
            .any(|u| Some(u.id) != except && u.email.eq_ignore_ascii_case(email))
    }
}

type Shared = Arc<Mutex<Store>>;

fn lock(store: &Shared) -> std::sync::MutexGuard<'_, Store> {
    store.lock().unwrap_or_else(PoisonError::into_inner)
}

fn not_found() -> Error {
    HttpError::not_found("User not found").into()
}

fn email_exists() -> Error {
    HttpError::conflict("Email already exists").into()
}

fn user_from(id: u64, new: NewUser) -> User {
    User {
        id,
        name: new.name,
        email: new.email,
        age: new.age,
        tags: new.tags,
        active: new.active,
    }
}

/// Every handler of the conformance fixture over a fresh, empty store, `GET /openapi.json`
/// (the document of that same list), and its docs page at `GET /docs`.
pub fn handlers() -> Vec<AnyHandler> {
    let mut handlers = api_handlers();
    let doc = described(&handlers).build();
    let served = doc.handler(OPENAPI_PATH);
    handlers.push(served.unwrap_or_else(|e| panic!("invalid contract: {e}")));
    // The docs page and the three files it loads (Swagger UI, embedded in pactum).
    let page = doc.docs_page(DOCS_PATH, OPENAPI_PATH).handlers();
    handlers.extend(page.unwrap_or_else(|e| panic!("invalid contract: {e}")));
    handlers
}

/// The API's handlers over a fresh, empty store, each documented.
pub fn api_handlers() -> Vec<AnyHandler> {
    let store: Shared = Arc::default();
    let s = || Arc::clone(&store);
    let mut handlers: Vec<AnyHandler> = vec![
        handler(health(), |_| async {
            Ok(Health {
                status: "ok".into(),
            })
        })
        .documented(),
        handler(list_users(), {
            let store = s();
            move |ctx: Ctx<NoParams, ListQuery>| {
                let store = Arc::clone(&store);
                async move {
                    let q = ctx.query;
                    let store = lock(&store);
                    let matching: Vec<&User> = store
                        .users
                        .values()
                        .filter(|u| q.active.is_none_or(|a| u.active == a))
                        .filter(|u| q.tag.iter().all(|t| u.tags.contains(t)))
                        .collect();
                    let items = matching
                        .iter()
                        .skip(q.offset as usize)
                        .take(q.limit as usize)
                        .map(|u| (*u).clone())
                        .collect();
                    Ok(UserPage {
                        items,
                        limit: q.limit,
                        offset: q.offset,
                        total: matching.len(),
                    })
                }
            }
        })
        .documented(),
        handler(create_user(), {
            let store = s();
            move |ctx: Ctx<NoParams, NoQuery, NewUser>| {
                let store = Arc::clone(&store);
                async move {
                    let mut store = lock(&store);
                    if store.email_taken(&ctx.body.email, None) {
                        return Err(email_exists());
                    }
                    store.next_id += 1;
                    let user = user_from(store.next_id, ctx.body);
                    store.users.insert(user.id, user.clone());
                    Ok(user)
                }
            }
        })
        .documented(),
        handler(get_user(), {
            let store = s();
            move |ctx: Ctx<UserPath>| {
                let store = Arc::clone(&store);
                async move {
                    lock(&store)
                        .users
                        .get(&ctx.params.id)
                        .cloned()
                        .ok_or_else(not_found)
                }
            }
        })
        .documented(),
        handler(replace_user(), {
            let store = s();
            move |ctx: Ctx<UserPath, NoQuery, NewUser>| {
                let store = Arc::clone(&store);
                async move {
                    let id = ctx.params.id;
                    let mut store = lock(&store);
                    if !store.users.contains_key(&id) {
                        return Err(not_found());
                    }
                    if store.email_taken(&ctx.body.email, Some(id)) {
                        return Err(email_exists());
                    }
                    let user = user_from(id, ctx.body);
                    store.users.insert(id, user.clone());
                    Ok(user)
                }
            }
        })
        .documented(),
        handler(update_user(), {
            let store = s();
            move |ctx: Ctx<UserPath, NoQuery, UserPatch>| {
                let store = Arc::clone(&store);
                async move {
                    let id = ctx.params.id;
                    let patch = ctx.body;
                    let mut store = lock(&store);
                    if let Some(email) = &patch.email {
                        if store.users.contains_key(&id) && store.email_taken(email, Some(id)) {
                            return Err(email_exists());
                        }
                    }
                    let user = store.users.get_mut(&id).ok_or_else(not_found)?;
                    if let Some(name) = patch.name {
                        user.name = name;
                    }
                    if let Some(email) = patch.email {
                        user.email = email;
                    }
                    // `null` clears the age, absent keeps it, a value sets it.
                    patch.age.apply(&mut user.age);
                    if let Some(tags) = patch.tags {
                        user.tags = tags;
                    }
                    if let Some(active) = patch.active {
                        user.active = active;
                    }
                    Ok(user.clone())
                }
            }
        })
        .documented(),
        handler(delete_user(), {
            let store = s();
            move |ctx: Ctx<UserPath>| {
                let store = Arc::clone(&store);
                async move {
                    let id = ctx.params.id;
                    lock(&store).users.remove(&id).ok_or_else(not_found)?;
                    Ok(Deleted { deleted: true, id })
                }
            }
        })
        .documented(),
        handler(
            get_repo(),
            |ctx: Ctx<RepoPath>| async move { Ok(ctx.params) },
        )
        .documented(),
        handler(
            get_file(),
            |ctx: Ctx<FilePath>| async move { Ok(ctx.params) },
        )
        .documented(),
        // The user arrives typed from the `auth` provider bound to the handler: no lookup, no
        // 401 of the handler's own.
        bind(me())
            .provide(auth())
            .to(|_ctx: Ctx, (user,): (AuthUser,)| async move { Ok(Me { user: user.0 }) })
            .documented(),
        bind(create_note())
            .provide(auth())
            .to(
                |ctx: Ctx<NoParams, NoQuery, NewNote>, (user,): (AuthUser,)| async move {
                    Ok(Note {
                        user: user.0,
                        text: ctx.body.text,
                    })
                },
            )
            .documented(),
        handler(trace(), |ctx: Ctx| async move {
            let mut trace = ctx
                .extensions
                .get::<TraceLog>()
                .cloned()
                .unwrap_or_default()
                .0;
            trace.push("handler".to_owned());
            Ok(Trace { trace })
        })
        .documented(),
        handler(plain_error(), |_| async {
            Err(std::io::Error::other("boom").into())
        })
        .documented(),
        handler(status_error(), |ctx: Ctx<CodePath>| async move {
            let status = StatusCode::from_u16(ctx.params.code)
                .map_err(|e| HttpError::bad_request("bad status").with_source(e))?;
            Err(HttpError::new(status, "custom error").into())
        })
        .documented(),
        handler(panic_error(), |_| async {
            panic!("deliberate panic from /errors/panic")
        })
        .documented(),
        handler(bad_response(), |_| async {
            Ok(User {
                id: 0,
                name: String::new(),
                email: "nobody@example.com".into(),
                age: None,
                tags: Vec::new(),
                active: true,
            })
        })
        .documented(),
        handler(echo(), |ctx: Ctx<NoParams, NoQuery, Echo>| async move {
            Ok(ctx.body)
        })
        .documented(),
        handler(slow(), |ctx: Ctx<NoParams, SlowQuery>| async move {
            tokio::time::sleep(Duration::from_millis(ctx.query.ms)).await;
            Ok(Slept {
                slept: ctx.query.ms,
            })
        })
        .documented(),
    ];
    handlers.push(super::get_user_v2_handler({
        let store = s();
        move |id| lock(&store).users.get(&id).cloned()
    }));
    handlers.extend(super::raw_handlers());
    handlers.push(super::hello_txt_handler());
    handlers.push(super::session_handler());
    handlers.push(super::create_ticket_handler());
    handlers.push(super::upload_handler());
    handlers.push(super::events_handler());
    handlers.push(super::download_handler());
    handlers
}
