use pactum::Params;
use serde::Deserialize;

#[derive(Deserialize)]
struct Org {
    org: String,
}

#[derive(Deserialize, Params)]
struct RepoPath {
    #[serde(flatten)]
    org: Org,
    repo: String,
}

fn main() {}
