use pactum::{route, Endpoint, Params};
use serde::{Deserialize, Serialize};
use validator::Validate;

// `rename_all` is read: the fields are `userId` and `itemId`, not the route's snake_case names.
#[derive(Serialize, Deserialize, Validate, Params)]
#[serde(rename_all = "camelCase")]
struct ItemPath {
    user_id: u64,
    item_id: u64,
}

fn main() {
    let _ = Endpoint::get(route!("/users/:user_id/items/:item_id"))
        .params::<ItemPath>()
        .build();
}
