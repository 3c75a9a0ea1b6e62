use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};

// Stands for a `validator` of another major version in the user's Cargo.toml: a trait named
// `Validate` that is not the one pactum's contracts require.
mod validator_0_16 {
    pub trait Validate {}
}

#[derive(Serialize, Deserialize)]
struct NewUser {
    name: String,
}

impl validator_0_16::Validate for NewUser {}

fn main() {
    let _ = Endpoint::post(route!("/users")).body::<NewUser>();
}
