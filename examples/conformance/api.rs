//! The conformance API of FIXTURE.md: its types, contracts and handlers, shared by
//! `examples/conformance.rs`, the end-to-end tests of both adapters, and the typed client.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use pactum::http::{HeaderName, HeaderValue, StatusCode};
use pactum::openapi::OpenApi;
use pactum::schemars::{self, JsonSchema};
use pactum::validator::{Validate, ValidationError};
use pactum::{
    handler, middleware, route, AnyHandler, Ctx, Endpoint, Error, HttpError, Middleware, NoBody,
    NoParams, NoQuery,
};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------
// Types: serde gives the shape, `validator` the rules.
// ---------------------------------------------------------------------------------------

/// A stored user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct User {
    pub id: u64,
    /// Never empty: `/errors/bad-response` breaks this rule on purpose.
    #[validate(length(min = 1))]
    pub name: String,
    pub email: String,
    pub age: Option<u16>,
    pub tags: Vec<String>,
    pub active: bool,
}

fn yes() -> bool {
    true
}

fn valid_tags(tags: &[String]) -> Result<(), ValidationError> {
    if tags.iter().all(|t| (1..=20).contains(&t.chars().count())) {
        Ok(())
    } else {
        Err(ValidationError::new("tags")
            .with_message("each tag must have a length between 1 and 20".into()))
    }
}

/// The body of `POST /users` and `PUT /users/:id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct NewUser {
    #[validate(length(min = 1, max = 50))]
    pub name: String,
    #[validate(email)]
    pub email: String,
    #[validate(range(min = 0, max = 150))]
    pub age: Option<u16>,
    #[serde(default)]
    #[validate(length(max = 5), custom(function = "valid_tags"))]
    #[schemars(inner(length(min = 1, max = 20)))]
    pub tags: Vec<String>,
    #[serde(default = "yes")]
    pub active: bool,
}

/// The body of `PATCH /users/:id`: every field optional, same rules.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct UserPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(min = 1, max = 50))]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(email)]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(range(min = 0, max = 150))]
    pub age: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(max = 5), custom(function = "valid_tags"))]
    #[schemars(inner(length(min = 1, max = 20)))]
    pub tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

fn ten() -> u32 {
    10
}

/// The query of `GET /users`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct ListQuery {
    #[serde(default = "ten")]
    #[validate(range(min = 1, max = 100))]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tag: Vec<String>,
}

impl Default for ListQuery {
    fn default() -> Self {
        Self {
            limit: 10,
            offset: 0,
            active: None,
            tag: Vec::new(),
        }
    }
}

/// One page of users.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct UserPage {
    pub items: Vec<User>,
    pub limit: u32,
    pub offset: u32,
    pub total: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct UserPath {
    pub id: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Deleted {
    pub deleted: bool,
    pub id: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Health {
    pub status: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct RepoPath {
    pub org: String,
    pub repo: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct FilePath {
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Me {
    pub user: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct NewNote {
    #[validate(length(min = 1, max = 200))]
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Note {
    pub user: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Trace {
    pub trace: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct CodePath {
    #[validate(range(min = 400, max = 599))]
    pub code: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct EchoItem {
    #[validate(length(min = 1, max = 20))]
    pub sku: String,
    #[validate(range(min = 1, max = 99))]
    pub qty: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Echo {
    #[validate(length(min = 1), nested)]
    pub items: Vec<EchoItem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(max = 200))]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct SlowQuery {
    #[validate(range(min = 0, max = 10000))]
    pub ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Slept {
    pub slept: u64,
}

// ---------------------------------------------------------------------------------------
// Contracts: one function per row of FIXTURE.md.
// ---------------------------------------------------------------------------------------

/// Contracts are built from literals here, so a failure is a bug in this file.
fn built<P, Q, B, R>(
    result: Result<Endpoint<P, Q, B, R>, pactum::ConfigError>,
) -> Endpoint<P, Q, B, R> {
    result.unwrap_or_else(|e| panic!("invalid contract: {e}"))
}

pub fn health() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route::static_path("/health"))
            .response::<Health>()
            .name("health")
            .summary("Liveness probe")
            .tag("ops")
            .build(),
    )
}

pub fn list_users() -> Endpoint<NoParams, ListQuery, NoBody, UserPage> {
    built(
        Endpoint::get(route::static_path("/users"))
            .query::<ListQuery>()
            .response::<UserPage>()
            .name("listUsers")
            .summary("List users, paged and filtered")
            .tag("users")
            .build(),
    )
}

pub fn create_user() -> Endpoint<NoParams, NoQuery, NewUser, User> {
    built(
        Endpoint::post(route::static_path("/users"))
            .body::<NewUser>()
            .response::<User>()
            .name("createUser")
            .summary("Create a user")
            .tag("users")
            .build(),
    )
}

pub fn get_user() -> Endpoint<UserPath, NoQuery, NoBody, User> {
    built(
        Endpoint::get(route::pattern("/users/:id"))
            .params::<UserPath>()
            .response::<User>()
            .name("getUser")
            .summary("Get a user")
            .tag("users")
            .build(),
    )
}

pub fn replace_user() -> Endpoint<UserPath, NoQuery, NewUser, User> {
    built(
        Endpoint::put(route::pattern("/users/:id"))
            .params::<UserPath>()
            .body::<NewUser>()
            .response::<User>()
            .name("replaceUser")
            .summary("Replace a user")
            .tag("users")
            .build(),
    )
}

pub fn update_user() -> Endpoint<UserPath, NoQuery, UserPatch, User> {
    built(
        Endpoint::patch(route::pattern("/users/:id"))
            .params::<UserPath>()
            .body::<UserPatch>()
            .response::<User>()
            .name("updateUser")
            .summary("Update some fields of a user")
            .tag("users")
            .build(),
    )
}

pub fn delete_user() -> Endpoint<UserPath, NoQuery, NoBody, Deleted> {
    built(
        Endpoint::delete(route::pattern("/users/:id"))
            .params::<UserPath>()
            .response::<Deleted>()
            .status(StatusCode::OK)
            .name("deleteUser")
            .summary("Delete a user")
            .tag("users")
            .build(),
    )
}

pub fn get_repo() -> Endpoint<RepoPath, NoQuery, NoBody, RepoPath> {
    built(
        Endpoint::get(route::pattern("/orgs/:org/repos/:repo"))
            .params::<RepoPath>()
            .response::<RepoPath>()
            .name("getRepo")
            .summary("Echo two percent-decoded path params")
            .tag("routing")
            .build(),
    )
}

pub fn get_file() -> Endpoint<FilePath, NoQuery, NoBody, FilePath> {
    built(
        Endpoint::get(route::dynamic("/files/*path"))
            .params::<FilePath>()
            .response::<FilePath>()
            .name("getFile")
            .summary("Echo a catch-all path param")
            .tag("routing")
            .build(),
    )
}

pub fn me() -> Endpoint<NoParams, NoQuery, NoBody, Me> {
    built(
        Endpoint::get(route::static_path("/me"))
            .response::<Me>()
            .middleware(auth())
            .name("me")
            .summary("The authenticated user")
            .tag("auth")
            .build(),
    )
}

pub fn create_note() -> Endpoint<NoParams, NoQuery, NewNote, Note> {
    built(
        Endpoint::post(route::static_path("/me/notes"))
            .body::<NewNote>()
            .response::<Note>()
            .middleware(auth())
            .name("createNote")
            .summary("Create a note as the authenticated user")
            .tag("auth")
            .build(),
    )
}

pub fn trace() -> Endpoint<NoParams, NoQuery, NoBody, Trace> {
    built(
        Endpoint::get(route::static_path("/trace"))
            .response::<Trace>()
            .middleware(tracer("outer"))
            .middleware(tracer("inner"))
            .name("trace")
            .summary("The order two middleware ran in")
            .tag("middleware")
            .build(),
    )
}

pub fn plain_error() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route::static_path("/errors/plain"))
            .response::<Health>()
            .name("plainError")
            .summary("Always fails with a plain error (500)")
            .tag("errors")
            .build(),
    )
}

pub fn status_error() -> Endpoint<CodePath, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route::pattern("/errors/status/:code"))
            .params::<CodePath>()
            .response::<Health>()
            .name("statusError")
            .summary("Always fails with the status in the path")
            .tag("errors")
            .build(),
    )
}

pub fn panic_error() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route::static_path("/errors/panic"))
            .response::<Health>()
            .name("panicError")
            .summary("Always panics (500)")
            .tag("errors")
            .build(),
    )
}

pub fn bad_response() -> Endpoint<NoParams, NoQuery, NoBody, User> {
    built(
        Endpoint::get(route::static_path("/errors/bad-response"))
            .response::<User>()
            .name("badResponse")
            .summary("Answers a value that breaks its rules (500)")
            .tag("errors")
            .build(),
    )
}

pub fn echo() -> Endpoint<NoParams, NoQuery, Echo, Echo> {
    built(
        Endpoint::post(route::static_path("/echo"))
            .body::<Echo>()
            .response::<Echo>()
            .name("echo")
            .summary("Echo a validated body")
            .tag("validation")
            .build(),
    )
}

pub fn slow() -> Endpoint<NoParams, SlowQuery, NoBody, Slept> {
    built(
        Endpoint::get(route::static_path("/slow"))
            .query::<SlowQuery>()
            .response::<Slept>()
            .name("slow")
            .summary("Answer after a delay")
            .tag("ops")
            .build(),
    )
}

// ---------------------------------------------------------------------------------------
// The OpenAPI document, served at `GET /openapi.json`.
// ---------------------------------------------------------------------------------------

/// Where the fixture serves its OpenAPI document.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// The fixture's OpenAPI 3.1 document: every contract above, plus what the pipeline cannot
/// know — the errors the handlers and the auth middleware return, and the bearer scheme.
pub fn openapi() -> OpenApi {
    let user_not_found = "`User not found`: no user has this id.";
    let email_exists = "`Email already exists`: another user has this email (case-insensitive).";
    let unauthorized = "`Unauthorized` without a bearer token, `Invalid token` with another token \
                        than `secret-token`; the body is not read.";
    OpenApi::new("pactum conformance fixture", env!("CARGO_PKG_VERSION"))
        .description(
            "Every behaviour of pactum behind one server (FIXTURE.md). Users live in memory; \
             `/errors/*` fail on purpose.",
        )
        .bearer_auth("bearer")
        .tag("users", "A CRUD resource with a paged, filtered list")
        .tag("routing", "Pattern and catch-all params")
        .tag(
            "auth",
            "Bearer-token middleware, run before the body is read",
        )
        .tag("middleware", "Middleware order")
        .tag("errors", "Routes that fail on purpose")
        .tag("validation", "Nested validation details")
        .tag("ops", "Health and timing")
        .endpoint(&health())
        .endpoint(&list_users())
        .endpoint_with(&create_user(), |op| {
            op.error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&get_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
        })
        .endpoint_with(&replace_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
                .error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&update_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
                .error(StatusCode::CONFLICT, email_exists)
        })
        .endpoint_with(&delete_user(), |op| {
            op.error(StatusCode::NOT_FOUND, user_not_found)
        })
        .endpoint(&get_repo())
        .endpoint(&get_file())
        .endpoint_with(&me(), |op| {
            op.security("bearer")
                .error(StatusCode::UNAUTHORIZED, unauthorized)
        })
        .endpoint_with(&create_note(), |op| {
            op.security("bearer")
                .error(StatusCode::UNAUTHORIZED, unauthorized)
        })
        .endpoint(&trace())
        .endpoint(&plain_error())
        .endpoint_with(&status_error(), |op| {
            op.default_error("`custom error`, with the status given in the path.")
        })
        .endpoint(&panic_error())
        .endpoint(&bad_response())
        .endpoint(&echo())
        .endpoint(&slow())
}

// ---------------------------------------------------------------------------------------
// Middleware.
// ---------------------------------------------------------------------------------------

/// The authenticated user, attached by [`auth`] and read by the handlers.
#[derive(Debug, Clone)]
pub struct AuthUser(pub String);

/// `Authorization: Bearer secret-token` → `AuthUser("alice")`; anything else is a 401. It runs
/// before the body is parsed, so an unauthenticated request never has its body read.
pub fn auth() -> Middleware {
    middleware::from_fn(|mut req, next| async move {
        let header = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok());
        let token = header
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| {
                HttpError::unauthorized("Unauthorized").with_www_authenticate("Bearer")
            })?;
        if token != "secret-token" {
            return Err(HttpError::unauthorized("Invalid token")
                .with_www_authenticate("Bearer")
                .into());
        }
        req.extensions_mut().insert(AuthUser("alice".to_owned()));
        next.run(req).await
    })
}

/// The names the trace middleware saw on the way in, in order.
#[derive(Debug, Clone, Default)]
pub struct TraceLog(pub Vec<String>);

const TRACE_AFTER: HeaderName = HeaderName::from_static("x-trace-after");

/// Records `name:before` on the way in, and appends `name` to `x-trace-after` on the way out.
pub fn tracer(name: &'static str) -> Middleware {
    middleware::from_fn(move |mut req, next| async move {
        let log = req.extensions_mut().get_or_insert_default::<TraceLog>();
        log.0.push(format!("{name}:before"));
        let mut response = next.run(req).await?;
        let after = match response
            .headers()
            .get(&TRACE_AFTER)
            .and_then(|v| v.to_str().ok())
        {
            Some(earlier) => format!("{earlier},{name}"),
            None => name.to_owned(),
        };
        let value = HeaderValue::from_str(&after)
            .map_err(|e| HttpError::internal("bad trace header").with_source(e))?;
        response.headers_mut().insert(TRACE_AFTER, value);
        Ok(response)
    })
}

// ---------------------------------------------------------------------------------------
// Handlers over an in-memory store.
// ---------------------------------------------------------------------------------------

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

/// Every handler of FIXTURE.md over a fresh, empty store, and `GET /openapi.json`.
pub fn handlers() -> Vec<AnyHandler> {
    let store: Shared = Arc::default();
    let s = || Arc::clone(&store);
    let mut handlers: Vec<AnyHandler> = vec![
        handler(health(), |_| async {
            Ok(Health {
                status: "ok".into(),
            })
        })
        .into(),
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
        .into(),
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
        .into(),
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
        .into(),
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
        .into(),
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
                    if patch.age.is_some() {
                        user.age = patch.age;
                    }
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
        .into(),
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
        .into(),
        handler(
            get_repo(),
            |ctx: Ctx<RepoPath>| async move { Ok(ctx.params) },
        )
        .into(),
        handler(
            get_file(),
            |ctx: Ctx<FilePath>| async move { Ok(ctx.params) },
        )
        .into(),
        handler(me(), |ctx: Ctx| async move {
            let user = ctx
                .extensions
                .get::<AuthUser>()
                .ok_or_else(|| HttpError::unauthorized("Unauthorized"))?;
            Ok(Me {
                user: user.0.clone(),
            })
        })
        .into(),
        handler(
            create_note(),
            |ctx: Ctx<NoParams, NoQuery, NewNote>| async move {
                let user = ctx
                    .extensions
                    .get::<AuthUser>()
                    .ok_or_else(|| HttpError::unauthorized("Unauthorized"))?;
                Ok(Note {
                    user: user.0.clone(),
                    text: ctx.body.text,
                })
            },
        )
        .into(),
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
        .into(),
        handler(plain_error(), |_| async {
            Err(std::io::Error::other("boom").into())
        })
        .into(),
        handler(status_error(), |ctx: Ctx<CodePath>| async move {
            let status = StatusCode::from_u16(ctx.params.code)
                .map_err(|e| HttpError::bad_request("bad status").with_source(e))?;
            Err(HttpError::new(status, "custom error").into())
        })
        .into(),
        handler(panic_error(), |_| async {
            panic!("deliberate panic from /errors/panic")
        })
        .into(),
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
        .into(),
        handler(echo(), |ctx: Ctx<NoParams, NoQuery, Echo>| async move {
            Ok(ctx.body)
        })
        .into(),
        handler(slow(), |ctx: Ctx<NoParams, SlowQuery>| async move {
            tokio::time::sleep(Duration::from_millis(ctx.query.ms)).await;
            Ok(Slept {
                slept: ctx.query.ms,
            })
        })
        .into(),
    ];
    let docs = openapi().build().handler(OPENAPI_PATH);
    handlers.push(docs.unwrap_or_else(|e| panic!("invalid contract: {e}")));
    handlers
}
