use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Page {
    limit: u32,
}

fn main() {
    let _ = Endpoint::get(route::static_path("/users"))
        .query::<Page>()
        .query::<Page>()
        .build();
}
