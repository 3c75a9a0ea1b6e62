//! Whole raw HTTP/1.1 byte streams through hyper and the native service, in memory.
#![no_main]

use std::time::Duration;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use libfuzzer_sys::fuzz_target;
use pactum::server::PactumService;
use pactum_fuzz::{block_on, pipeline};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fuzz_target!(|data: &[u8]| {
    let output = block_on(async {
        let (mut client, server) = tokio::io::duplex(256 * 1024);
        let service = TowerToHyperService::new(PactumService::new(pipeline()));
        let connection = tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .max_buf_size(16 * 1024)
                .serve_connection(TokioIo::new(server), service)
                .await;
        });
        let _ = client.write_all(data).await;
        let _ = client.shutdown().await;
        let mut output = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut output)).await;
        connection.abort();
        output
    });
    check_responses(&output);
});

/// Every response hyper wrote: never a 5xx; a pactum JSON error parses as an `ErrorBody`.
fn check_responses(mut output: &[u8]) {
    while !output.is_empty() {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut response = httparse::Response::new(&mut headers);
        let Ok(httparse::Status::Complete(head_len)) = response.parse(output) else {
            return;
        };
        let status = response.code.unwrap_or(0);
        assert!(status < 500, "server error {status}");
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).into_owned())
        };
        let length: usize = header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let Some(body) = output.get(head_len..head_len + length) else {
            return;
        };
        if status >= 400 && header("content-type").as_deref() == Some("application/json") {
            let body: pactum::error::ErrorBody =
                serde_json::from_slice(body).expect("JSON error body");
            assert!(!body.error.is_empty());
        }
        output = &output[head_len + length..];
    }
}
