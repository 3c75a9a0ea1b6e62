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
    let get_user = Endpoint::get(route::pattern("/users/:id"))
        .params::<UserPath>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&get_user).send();
}
