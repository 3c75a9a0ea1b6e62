use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct UserPath {
    id: u64,
}

#[derive(Serialize, Deserialize, Validate)]
struct NewUser {
    name: String,
}

#[derive(Serialize, Deserialize, Validate)]
struct Filter {
    tag: String,
}

fn main() {
    let create_user = Endpoint::post(route::static_path("/users"))
        .body::<NewUser>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&create_user).send();
}
