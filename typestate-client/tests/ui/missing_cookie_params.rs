use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Session {
    session: String,
}

fn main() {
    let me = Endpoint::get(route::static_path("/me"))
        .cookies::<Session>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&me).send();
}
