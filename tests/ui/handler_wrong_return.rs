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
    // The contract answers a `User`; this function answers its id.
    let _ = handler(get_user.clone(), |ctx: Ctx<UserPath>| async move {
        Ok(ctx.params.id)
    });
    // Not a `Result` at all.
    let _ = handler(get_user, |ctx: Ctx<UserPath>| async move {
        User { id: ctx.params.id }
    });
}
