//! A route table of any size, for the route-matching benchmarks (criterion's `route` group
//! and the instruction counts of the peer benchmark).

use pactum::{contract::NoContent, handler, route, Endpoint, Pipeline};
use serde::{Deserialize, Serialize};
use validator::Validate;

/// The params of the pattern routes.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct ItemPath {
    pub(crate) id: u64,
}

/// A pipeline with `n` routes: even ones `GET /svcNNNN/items/:id`, odd ones
/// `GET /svcNNNN/status` (the same path lengths whatever `n`).
pub(crate) fn table(n: usize) -> Pipeline {
    let handlers = (0..n).map(|i| {
        if i % 2 == 0 {
            let endpoint = Endpoint::get(route::pattern(format!("/svc{i:04}/items/:id")))
                .params::<ItemPath>()
                .build()
                .expect("valid contract");
            handler(endpoint, |_| async { Ok(NoContent) }).into()
        } else {
            let endpoint = Endpoint::get(route::static_path(format!("/svc{i:04}/status")))
                .build()
                .expect("valid contract");
            handler(endpoint, |_| async { Ok(NoContent) }).into()
        }
    });
    Pipeline::new(handlers.collect::<Vec<_>>()).expect("valid routes")
}

/// Eight paths spread over the table (first, a third, two thirds, last), with params and
/// static.
pub(crate) fn lookups(n: usize) -> Vec<String> {
    let mut paths = Vec::new();
    for i in [0, n / 3, 2 * n / 3, n - 1] {
        let even = i - i % 2;
        let odd = (i | 1).min(n - 1);
        paths.push(format!("/svc{even:04}/items/42"));
        paths.push(format!("/svc{odd:04}/status"));
    }
    paths
}
