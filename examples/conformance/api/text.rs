//! Row 23, an answer that is not JSON: `GET /hello.txt` answers `text/plain; charset=utf-8`.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    contract::Text, handler, handler::AnyHandler, route, Ctx, Endpoint, NoBody, NoParams,
};
use serde::{Deserialize, Serialize};

use super::built;

/// `?name=`, optional, 1 to 50 characters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct HelloQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(min = 1, max = 50))]
    pub name: Option<String>,
}

pub fn hello_txt() -> Endpoint<NoParams, HelloQuery, NoBody, Text> {
    built(
        Endpoint::get(route!("/hello.txt"))
            .query::<HelloQuery>()
            .response::<Text>()
            .name("helloText")
            .summary("Greet in plain text")
            .tag("ops")
            .build(),
    )
}

/// `hello <name>`, `hello world` without a name.
pub fn hello_txt_handler() -> AnyHandler {
    handler(hello_txt(), |ctx: Ctx<NoParams, HelloQuery>| async move {
        let name = ctx.query.name.as_deref().unwrap_or("world");
        Ok(Text::new(format!("hello {name}")))
    })
    .documented()
}
