//! Every part of a contract declared once, in a valid order: compiles.

use pactum::http::StatusCode;
use pactum::{handler, middleware, route, handler::AnyHandler, Ctx, Endpoint, Params};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate, Params)]
struct UserPath {
    id: u64,
}

#[derive(Serialize, Deserialize, Validate, Params)]
#[serde(rename_all = "camelCase")]
struct ItemPath {
    user_id: u64,
    #[serde(rename = "item")]
    item_id: u64,
    #[serde(skip)]
    _cache: Option<String>,
}

#[derive(Serialize, Deserialize, Validate)]
struct Page {
    #[validate(range(min = 1, max = 100))]
    limit: u32,
}

#[derive(Serialize, Deserialize, Validate)]
struct Rename {
    #[validate(length(min = 1, max = 50))]
    name: String,
}

#[derive(Serialize, Deserialize, Validate)]
struct User {
    id: u64,
    name: String,
}

#[derive(Serialize, Deserialize, Validate, Params)]
struct FilePath {
    path: String,
}

fn main() {
    let rename = Endpoint::patch(route::pattern("/users/:id"))
        .params::<UserPath>()
        .query::<Page>()
        .body::<Rename>()
        .response::<User>()
        .middleware(middleware::from_fn(|req, next| next.run(req)))
        .body_limit(4096)
        .status(StatusCode::ACCEPTED)
        .name("rename")
        .description("Renames a user")
        .build()
        .expect("a valid contract");
    // Slots in another order.
    let _reordered = Endpoint::put(route::pattern("/users/:id"))
        .response::<User>()
        .body::<Rename>()
        .params::<UserPath>()
        .build();
    let _health = Endpoint::get(route::static_path("/health")).build();
    let _file = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build();
    // Literal routes, their names checked while compiling (renames read).
    let _checked = Endpoint::get(route!("/users/:id"))
        .params::<UserPath>()
        .build();
    let _item = Endpoint::get(route!("/users/:userId/items/:item"))
        .response::<User>()
        .params::<ItemPath>()
        .build();
    let _tail = Endpoint::get(route!("/files/*path").allow_dot_segments())
        .params::<FilePath>()
        .build();
    let _static = Endpoint::get(route!("/health")).build();
    let _remove = Endpoint::delete(route::pattern("/users/:id"))
        .params::<UserPath>()
        .body::<Rename>()
        .build();
    let handlers: Vec<AnyHandler> =
        vec![
            handler(rename, |ctx: Ctx<UserPath, Page, Rename>| async move {
                Ok(User {
                    id: ctx.params.id,
                    name: ctx.body.name,
                })
            })
            .into(),
        ];
    assert_eq!(handlers.len(), 1);
}
