use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct Signed {
    signature: String,
}

fn main() {
    let health = Endpoint::get(route::static_path("/health")).build().unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client
        .call(&health)
        .header_params(Signed {
            signature: "s".into(),
        })
        .send();
}
