//! Arbitrary bytes as the JSON body of `POST /echo`: parse, validate, answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pactum::pipeline::Body;
use pactum_fuzz::{check_answer, handle, read_as_pipeline, Echo};
use validator::Validate;

fuzz_target!(|data: &[u8]| {
    let request = http::Request::post("/echo")
        .header("content-type", "application/json")
        .body(Body::from(data.to_vec()))
        .unwrap();
    let response = handle(request);
    check_answer(&response);
    match response.status().as_u16() {
        201 => {
            // What was accepted is valid, and is what the input said, read as the pipeline
            // reads numbers (`1.0` is the integer 1; plain serde_json would refuse it).
            let echoed: Echo = serde_json::from_slice(response.body().as_bytes().unwrap()).unwrap();
            assert!(echoed.validate().is_ok());
            let input: Echo = read_as_pipeline(data).expect("an accepted body reads as an Echo");
            assert_eq!(echoed, input);
        }
        400 => {}
        other => panic!("unexpected status {other}"),
    }
});
