use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct UserPath {
    id: u64,
}

fn main() {
    let _ = Endpoint::get(route!("/users/:id"))
        .params::<UserPath>()
        .build();
}
