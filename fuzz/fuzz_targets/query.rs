//! Arbitrary text as the query string of `GET /search`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pactum::pipeline::Body;
use pactum_fuzz::{check_answer, handle};

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(uri) = format!("/search?{query}").parse::<http::Uri>() else {
        return;
    };
    let request = http::Request::get(uri).body(Body::empty()).unwrap();
    let response = handle(request);
    check_answer(&response);
    assert!(
        matches!(response.status().as_u16(), 200 | 400),
        "{}",
        response.status()
    );
});
