use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

// `ms` is required and the type has no `Default`: the query must be given.
#[derive(Serialize, Deserialize, Validate)]
struct SlowQuery {
    ms: u64,
}

fn main() {
    let slow = Endpoint::get(route!("/slow"))
        .query::<SlowQuery>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&slow).send();
}
