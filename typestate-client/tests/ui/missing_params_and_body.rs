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
    let replace_user = Endpoint::put(route::pattern("/users/:id"))
        .params::<UserPath>()
        .body::<NewUser>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&replace_user).send();
}
