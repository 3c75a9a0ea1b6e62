use pactum::{route, Endpoint};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
#[serde(rename_all = "kebab-case")]
struct Signed {
    x_signature: String,
}

fn main() {
    let webhook = Endpoint::post(route::static_path("/webhooks"))
        .headers::<Signed>()
        .build()
        .unwrap();
    let client = Client::new("http://localhost").unwrap();
    let _ = client.call(&webhook).send();
}
