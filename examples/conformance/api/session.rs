//! Row 26, cookie params: `GET /session` reads the `session` cookie (8 to 64 characters,
//! required) and the `theme` cookie (`light` or `dark`, optional) as a contract slot.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{error::NoErrors, NoQuery};
use pactum::{handler, handler::AnyHandler, route, Ctx, Endpoint, NoBody, NoHeaders, NoParams};
use serde::{Deserialize, Serialize};

use super::built;

/// A display theme.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// The cookies `GET /session` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct SessionCookies {
    /// The session's id.
    #[validate(length(min = 8, max = 64))]
    pub session: String,
    /// The display theme; `light` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
}

/// What `GET /session` answers: the cookies as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct SessionView {
    pub session: String,
    pub theme: Theme,
}

pub fn session(
) -> Endpoint<NoParams, NoQuery, NoBody, SessionView, NoErrors, NoHeaders, SessionCookies> {
    built(
        Endpoint::get(route!("/session"))
            .cookies::<SessionCookies>()
            .response::<SessionView>()
            .name("session")
            .summary("The session and theme cookies, read as a contract slot")
            .tag("raw")
            .build(),
    )
}

/// Echoes the cookies.
pub fn session_handler() -> AnyHandler {
    type SessionCtx = Ctx<NoParams, NoQuery, NoBody, NoHeaders, SessionCookies>;
    handler(session(), |ctx: SessionCtx| async move {
        Ok(SessionView {
            session: ctx.cookie_params.session,
            theme: ctx.cookie_params.theme.unwrap_or_default(),
        })
    })
    .documented()
}
