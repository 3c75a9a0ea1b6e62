use pactum::{handler, route, Ctx, Endpoint, Params};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate, Params)]
struct UserPath {
    id: u64,
}

#[derive(Serialize, Deserialize, Validate)]
struct User {
    id: u64,
}

fn main() {
    let get_user = Endpoint::get(route!("/users/:id"))
        .params::<UserPath>()
        .response::<User>()
        .build()
        .unwrap();
    // The right `Result`, from a closure that is not `async`.
    let _ = handler(get_user, |ctx: Ctx<UserPath>| {
        Ok::<_, pactum::Error>(User { id: ctx.params.id })
    });
}
