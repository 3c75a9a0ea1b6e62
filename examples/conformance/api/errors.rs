//! The routes that fail on purpose.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{route, Endpoint, NoBody, NoParams, NoQuery, Params};
use serde::{Deserialize, Serialize};

use super::{built, Health, User};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema, Params)]
pub struct CodePath {
    #[validate(range(min = 400, max = 599))]
    pub code: u16,
}

pub fn plain_error() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route!("/errors/plain"))
            .response::<Health>()
            .name("plainError")
            .summary("Always fails with a plain error (500)")
            .tag("errors")
            .build(),
    )
}

pub fn status_error() -> Endpoint<CodePath, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route!("/errors/status/:code"))
            .params::<CodePath>()
            .response::<Health>()
            .name("statusError")
            .summary("Always fails with the status in the path")
            .tag("errors")
            .default_http_error("`custom error`, with the status given in the path.")
            .build(),
    )
}

pub fn panic_error() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route!("/errors/panic"))
            .response::<Health>()
            .name("panicError")
            .summary("Always panics (500)")
            .tag("errors")
            .build(),
    )
}

pub fn bad_response() -> Endpoint<NoParams, NoQuery, NoBody, User> {
    built(
        Endpoint::get(route!("/errors/bad-response"))
            .response::<User>()
            .name("badResponse")
            .summary("Answers a value that breaks its rules (500)")
            .tag("errors")
            .build(),
    )
}
