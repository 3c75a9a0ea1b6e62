//! Row 22, typed errors: `GET /v2/users/:id` declares its 404 in the contract, with its own
//! body type, so the typed client hands it back as a `GetUserError` and the OpenAPI document
//! lists it with its schema.

use std::fmt;

use pactum::schemars::{self, JsonSchema};
use pactum::{handler, handler::AnyHandler, route, Ctx, Endpoint, NoBody, NoQuery};
use serde::{Deserialize, Serialize};

use super::{built, User, UserPath};

/// The errors `GET /v2/users/:id` answers with, each with its status and its own body: the
/// variant's fields in order, e.g. `{"error":"User not found","code":"user_not_found","id":7}`.
/// (`#[serde(tag = "code")]` would do too, but writes the tag first; the fixture's table gives
/// this order.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GetUserError {
    /// 404: no user has this id.
    UserNotFound {
        /// Always `User not found`.
        error: String,
        /// Always `user_not_found`: the variant's machine-readable name.
        code: UserNotFoundCode,
        /// The id that was asked for.
        id: u64,
    },
}

/// The `code` of a `user_not_found` error: that string, and nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum UserNotFoundCode {
    #[serde(rename = "user_not_found")]
    UserNotFound,
}

impl GetUserError {
    /// No user has `id`.
    pub fn not_found(id: u64) -> Self {
        Self::UserNotFound {
            error: "User not found".to_owned(),
            code: UserNotFoundCode::UserNotFound,
            id,
        }
    }
}

// `ErrorAnswer`: each variant's status, and the list of them, from one table.
pactum::error::error_answer!(GetUserError {
    Self::UserNotFound { .. } => NOT_FOUND,
});

// `std::error::Error`, so that a handler's `?` converts it (as `thiserror` would write it).
impl fmt::Display for GetUserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UserNotFound { id, .. } => write!(f, "no user has id {id}"),
        }
    }
}

impl std::error::Error for GetUserError {}

pub fn get_user_v2() -> Endpoint<UserPath, NoQuery, NoBody, User, GetUserError> {
    built(
        Endpoint::get(route!("/v2/users/:id"))
            .params::<UserPath>()
            .response::<User>()
            .errors::<GetUserError>()
            .name("getUserV2")
            .summary("Get a user; a missing one is a typed error declared in the contract")
            .tag("users")
            .build(),
    )
}

/// `GET /v2/users/:id` over the users `find` looks up: the user, or the declared 404.
pub fn get_user_v2_handler<F>(find: F) -> AnyHandler
where
    F: Fn(u64) -> Option<User> + Send + Sync + 'static,
{
    handler(get_user_v2(), move |ctx: Ctx<UserPath>| {
        let id = ctx.params.id;
        let found = find(id);
        async move { Ok(found.ok_or_else(|| GetUserError::not_found(id))?) }
    })
    .documented()
}
