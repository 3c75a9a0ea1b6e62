use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

// Every field is optional, but the type does not implement `Default`: the query must still
// be given, or `Default` derived.
#[derive(Serialize, Deserialize, Validate)]
struct Filter {
    tag: Option<String>,
    page: Option<u32>,
}

fn main() {
    let list = Endpoint::get(route!("/items"))
        .query::<Filter>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&list).send();
}
