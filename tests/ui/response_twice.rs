use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct User {
    name: String,
}

fn main() {
    let _ = Endpoint::get(route::static_path("/me"))
        .response::<User>()
        .response::<User>()
        .build();
}
