use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Search {
    text: String,
}

fn main() {
    let _ = Endpoint::get(route::static_path("/search"))
        .body::<Search>()
        .build();
}
