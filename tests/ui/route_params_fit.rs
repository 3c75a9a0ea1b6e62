// What the route check accepts: the names in another order, `rename`, `rename_all`, a
// skipped field, a catch-all, a generic params type; and any params type on a route made at
// run time (checked by `build()`).
use pactum::{route, Endpoint, Params};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Serialize, Deserialize, Validate, Params)]
struct RepoPath {
    #[serde(rename = "repo")]
    name: String,
    org: String,
    #[serde(skip)]
    _cached: Option<u64>,
}

#[derive(Serialize, Deserialize, Validate, Params)]
#[serde(rename_all = "camelCase")]
struct ItemPath {
    item_id: u64,
    user_id: u64,
}

#[derive(Serialize, Deserialize, Validate, Params)]
struct FilePath<T> {
    path: String,
    owner: T,
}

#[derive(Serialize, Deserialize, Validate)]
struct NotDerived {
    id: u64,
}

fn main() {
    let _ = Endpoint::get(route!("/orgs/:org/repos/:repo"))
        .params::<RepoPath>()
        .build();
    let _ = Endpoint::get(route!("/users/{userId}/items/{itemId}"))
        .params::<ItemPath>()
        .build();
    let _ = Endpoint::get(route!("/files/:owner/*path"))
        .params::<FilePath<u64>>()
        .build();
    let _ = Endpoint::get(pactum::route::pattern("/users/:id"))
        .params::<NotDerived>()
        .build();
    let _ = Endpoint::get(pactum::route::dynamic("/raw/*id"))
        .params::<NotDerived>()
        .build();
}
