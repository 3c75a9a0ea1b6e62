use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct NewUser {
    name: String,
}

fn main() {
    let _ = Endpoint::post(route::static_path("/users"))
        .body::<NewUser>()
        .body::<NewUser>()
        .build();
}
