use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Default, Serialize, Deserialize, Validate)]
struct Page {
    limit: u32,
}

fn main() {
    let list_users = Endpoint::get(route!("/users"))
        .query::<Page>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client
        .call(&list_users)
        .query(Page { limit: 10 })
        .query(Page { limit: 20 })
        .send();
}
