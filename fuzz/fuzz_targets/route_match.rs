//! Arbitrary methods and paths through the router; and arbitrary param values through
//! "build the path from the contract, match it back".
#![no_main]

use libfuzzer_sys::fuzz_target;
use pactum::{pipeline::Body, route, Endpoint};
use pactum_fuzz::{check_answer, handle, RepoPath};

const METHODS: [&str; 8] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };

    // 1. Any path, any method: an answer, never a 5xx.
    let method = METHODS[usize::from(first) % METHODS.len()];
    if let Ok(uri) = format!("/{text}").parse::<http::Uri>() {
        let request = http::Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap();
        let response = handle(request);
        check_answer(&response);
    }

    // 2. Any param value: the built path matches back to the same value.
    let middle = (text.len() / 2..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let (org, repo) = text.split_at(middle);
    if org.is_empty() || repo.is_empty() {
        return;
    }
    let contract = Endpoint::get(route::pattern("/orgs/:org/repos/:repo"))
        .params::<RepoPath>()
        .response::<RepoPath>()
        .build()
        .unwrap();
    let params = RepoPath {
        org: org.to_owned(),
        repo: repo.to_owned(),
    };
    let path = contract.path_for(&params).unwrap();
    let response = handle(
        http::Request::get(path.as_str())
            .body(Body::empty())
            .unwrap(),
    );
    assert_eq!(response.status(), 200, "{path}");
    let back: RepoPath = serde_json::from_slice(response.body().as_bytes().unwrap()).unwrap();
    assert_eq!(back, params, "{path}");
});
