//! The users resource: a CRUD resource with a paged, filtered list.

use pactum::http::StatusCode;
use pactum::patch::{non_null, Nullable};
use pactum::schemars::{self, JsonSchema};
use pactum::validator::{Validate, ValidationError};
use pactum::{route, Endpoint, NoBody, NoParams, NoQuery, Params};
use serde::{Deserialize, Serialize};

use super::built;

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

/// The body of `PATCH /users/:id`, a JSON Merge Patch (RFC 7396): every field optional, with
/// the rules of `NewUser`. An absent field is left as it is. `age` is cleared by `null`; the
/// other fields cannot be cleared, and `null` for them is a 400.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct UserPatch {
    #[serde(
        default,
        deserialize_with = "non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "String")]
    #[validate(length(min = 1, max = 50))]
    pub name: Option<String>,
    #[serde(
        default,
        deserialize_with = "non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "String")]
    #[validate(email)]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(range(min = 0, max = 150))]
    pub age: Nullable<u16>,
    #[serde(
        default,
        deserialize_with = "non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Vec<String>")]
    #[validate(length(max = 5), custom(function = "valid_tags"))]
    #[schemars(inner(length(min = 1, max = 20)))]
    pub tags: Option<Vec<String>>,
    #[serde(
        default,
        deserialize_with = "non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "bool")]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema, Params)]
pub struct UserPath {
    pub id: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Deleted {
    pub deleted: bool,
    pub id: u64,
}

/// The 404 of the user routes, as the document describes it.
pub const USER_NOT_FOUND: &str = "`User not found`: no user has this id.";

/// The 409 of the routes that write a user's email.
pub const EMAIL_EXISTS: &str =
    "`Email already exists`: another user has this email (case-insensitive).";

pub fn list_users() -> Endpoint<NoParams, ListQuery, NoBody, UserPage> {
    built(
        Endpoint::get(route!("/users"))
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
        Endpoint::post(route!("/users"))
            .body::<NewUser>()
            .response::<User>()
            .name("createUser")
            .summary("Create a user")
            .tag("users")
            .http_error(StatusCode::CONFLICT, EMAIL_EXISTS)
            .build(),
    )
}

pub fn get_user() -> Endpoint<UserPath, NoQuery, NoBody, User> {
    built(
        Endpoint::get(route!("/users/:id"))
            .params::<UserPath>()
            .response::<User>()
            .name("getUser")
            .summary("Get a user")
            .tag("users")
            .http_error(StatusCode::NOT_FOUND, USER_NOT_FOUND)
            .build(),
    )
}

pub fn replace_user() -> Endpoint<UserPath, NoQuery, NewUser, User> {
    built(
        Endpoint::put(route!("/users/:id"))
            .params::<UserPath>()
            .body::<NewUser>()
            .response::<User>()
            .name("replaceUser")
            .summary("Replace a user")
            .tag("users")
            .http_error(StatusCode::NOT_FOUND, USER_NOT_FOUND)
            .http_error(StatusCode::CONFLICT, EMAIL_EXISTS)
            .build(),
    )
}

pub fn update_user() -> Endpoint<UserPath, NoQuery, UserPatch, User> {
    built(
        Endpoint::patch(route!("/users/:id"))
            .params::<UserPath>()
            .body::<UserPatch>()
            .response::<User>()
            .name("updateUser")
            .summary("Update some fields of a user")
            .tag("users")
            .http_error(StatusCode::NOT_FOUND, USER_NOT_FOUND)
            .http_error(StatusCode::CONFLICT, EMAIL_EXISTS)
            .build(),
    )
}

pub fn delete_user() -> Endpoint<UserPath, NoQuery, NoBody, Deleted> {
    built(
        Endpoint::delete(route!("/users/:id"))
            .params::<UserPath>()
            .response::<Deleted>()
            .status(StatusCode::OK)
            .name("deleteUser")
            .summary("Delete a user")
            .tag("users")
            .http_error(StatusCode::NOT_FOUND, USER_NOT_FOUND)
            .build(),
    )
}
