use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct NewUser {
    name: String,
}

fn main() {
    let _ = Endpoint::post(route::static_path("/users"))
        .body::<NewUser>()
        .build();
}
