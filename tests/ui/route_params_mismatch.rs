use pactum::{route, Endpoint, Params};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate, Params)]
struct RepoPath {
    org: String,
    name: String,
}

fn main() {
    let _ = Endpoint::get(route!("/orgs/:org/repos/:repo"))
        .params::<RepoPath>()
        .build();
}
