//! The routes behind middleware (bearer auth, the order of two), and the middleware.

use pactum::http::{HeaderName, HeaderValue, StatusCode};
use pactum::middleware::{Provider, Request};
use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    middleware, middleware::Middleware, route, Endpoint, HttpError, NoBody, NoParams, NoQuery,
    Security,
};
use serde::{Deserialize, Serialize};

use super::built;

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

/// The 401 of the routes behind the bearer-token provider, as the document describes it.
pub const UNAUTHORIZED: &str = "`Unauthorized` without a bearer token, `Invalid token` with \
                                another token than `secret-token`; the body is not read.";

pub fn me() -> Endpoint<NoParams, NoQuery, NoBody, Me> {
    built(
        Endpoint::get(route!("/me"))
            .response::<Me>()
            .security(Security::bearer())
            .name("me")
            .summary("The authenticated user")
            .tag("auth")
            .http_error(StatusCode::UNAUTHORIZED, UNAUTHORIZED)
            .build(),
    )
}

pub fn create_note() -> Endpoint<NoParams, NoQuery, NewNote, Note> {
    built(
        Endpoint::post(route!("/me/notes"))
            .body::<NewNote>()
            .response::<Note>()
            .security(Security::bearer())
            .name("createNote")
            .summary("Create a note as the authenticated user")
            .tag("auth")
            .http_error(StatusCode::UNAUTHORIZED, UNAUTHORIZED)
            .build(),
    )
}

pub fn trace() -> Endpoint<NoParams, NoQuery, NoBody, Trace> {
    built(
        Endpoint::get(route!("/trace"))
            .response::<Trace>()
            .middleware(tracer("outer"))
            .middleware(tracer("inner"))
            .name("trace")
            .summary("The order two middleware ran in")
            .tag("middleware")
            .build(),
    )
}

/// The authenticated user, made by [`auth`] and received by the handlers of `/me` and
/// `/me/notes`, typed.
#[derive(Debug, Clone)]
pub struct AuthUser(pub String);

/// `Authorization: Bearer secret-token` (the scheme in any case) → `AuthUser("alice")`;
/// anything else is a 401. A provider bound to the handlers (`bind(me()).provide(auth())`),
/// not to the contracts, which stay plain data: it runs before the body is parsed, so an
/// unauthenticated request never has its body read.
///
/// The contracts also declare `Security::bearer()`: the pipeline itself answers a request
/// without a bearer token with the same 401 (`Unauthorized`, `WWW-Authenticate: Bearer`)
/// before this provider runs; the provider checks the token, read with the pipeline's own
/// parser ([`Request::bearer_token`]), and is marked as verifying it (`.verifies(..)`), without
/// which the pipeline would not start.
pub fn auth() -> Provider<AuthUser> {
    middleware::provide(|req: &Request| {
        let user = match req.bearer_token() {
            None => Err(HttpError::unauthorized("Unauthorized").with_www_authenticate("Bearer")),
            Some("secret-token") => Ok(AuthUser("alice".to_owned())),
            Some(_) => {
                Err(HttpError::unauthorized("Invalid token").with_www_authenticate("Bearer"))
            }
        };
        std::future::ready(user.map_err(pactum::Error::from))
    })
    .verifies(Security::bearer())
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
