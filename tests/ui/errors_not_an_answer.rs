use pactum::{route, Endpoint};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
struct NotFound {
    id: u64,
}

fn main() {
    let _ = Endpoint::get(route::static_path("/me"))
        .errors::<NotFound>()
        .build();
}
