use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
#[serde(rename_all = "kebab-case")]
struct Tenant {
    x_tenant: u32,
}

fn main() {
    let _ = Endpoint::get(route::static_path("/users"))
        .headers::<Tenant>()
        .headers::<Tenant>()
        .build();
}
