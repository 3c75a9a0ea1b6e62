//! The access log (`PipelineBuilder::access_log`, on by default): one `pactum::access` event
//! at INFO per request — routed, 404, 405, rejected — in the request's span, over real
//! sockets on the native server and the warp adapter, captured as plain and as JSON lines
//! (what the server chapter shows); none when turned off. Its own test binary: tracing caches
//! each callsite's interest process-wide, so a scoped subscriber is only reliable where no
//! other test hits the callsite concurrently (and the cases here run one after the other).
#![allow(missing_docs)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use pactum::Pipeline;
use pactum_test_kit as support;
use serde_json::Value;
use tracing_subscriber::fmt::MakeWriter;

/// Every line the subscriber writes.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Lines {
    type Writer = Lines;

    fn make_writer(&'a self) -> Lines {
        self.clone()
    }
}

impl Lines {
    /// The lines of the access log.
    fn access(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .filter(|line| line.contains("pactum::access"))
            .map(str::to_owned)
            .collect()
    }
}

/// The requests each server gets, and what each access line must say.
const REQUESTS: [(&str, &str, &str, &str); 5] = [
    ("GET", "/health", "route=/health", "status=200"),
    ("GET", "/users/12345", "route=/users/:id", "status=404"),
    ("GET", "/nowhere", "route=unmatched", "status=404"),
    ("DELETE", "/health", "route=/health", "status=405"),
    ("POST", "/users", "route=/users", "status=400"),
];

/// Sends [`REQUESTS`] to the native server and the warp adapter, each with `pipeline`.
async fn send_to_both(pipeline: impl Fn() -> Pipeline) {
    for app in [
        support::native_with(pipeline(), support::options()).await,
        support::warp_with(pipeline()).await,
    ] {
        for (method, path, _, status) in REQUESTS {
            let request = app
                .client
                .request(method.parse().unwrap(), app.url(path))
                .header("content-type", "application/json")
                .body(r#"{"name":""}"#);
            let answer = app.send(request).await;
            assert_eq!(
                format!("status={}", answer.status),
                status,
                "{method} {path}"
            );
        }
    }
}

fn with_lines(lines: &Lines, json: bool, run: impl FnOnce()) {
    let builder = tracing_subscriber::fmt()
        .with_writer(lines.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO);
    if json {
        tracing::subscriber::with_default(builder.json().finish(), run);
    } else {
        tracing::subscriber::with_default(builder.finish(), run);
    }
}

fn block_on(future: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future);
}

fn conformance() -> Pipeline {
    Pipeline::new(support::conformance::handlers()).unwrap()
}

#[test]
fn every_request_has_an_access_line_plain_and_json_and_none_when_off() {
    // Plain text: the span's fields, then the answer's.
    let plain = Lines::default();
    with_lines(&plain, false, || block_on(send_to_both(conformance)));
    let lines = plain.access();
    assert_eq!(lines.len(), 2 * REQUESTS.len(), "{lines:#?}");
    for (line, (method, path, route, status)) in lines.iter().zip(REQUESTS.iter().cycle()) {
        for part in [
            format!("method={method}"),
            (*route).to_owned(),
            (*status).to_owned(),
            "client=127.0.0.1".to_owned(),
            "request_id=".to_owned(),
            "latency_us=".to_owned(),
            " INFO ".to_owned(),
        ] {
            assert!(
                line.contains(&part),
                "{method} {path}: {part} in {line}\n{lines:#?}"
            );
        }
    }
    // A whole body's size: `{"status":"ok"}`.
    assert!(lines[0].contains("bytes=15"), "{}", lines[0]);

    // JSON: one object a line, the span's fields under `span`.
    let json = Lines::default();
    with_lines(&json, true, || block_on(send_to_both(conformance)));
    let lines = json.access();
    assert_eq!(lines.len(), 2 * REQUESTS.len(), "{lines:#?}");
    for (line, (method, _, route, status)) in lines.iter().zip(REQUESTS.iter().cycle()) {
        let line: Value = serde_json::from_str(line).unwrap();
        assert_eq!(line["target"], "pactum::access");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["span"]["name"], "request");
        assert_eq!(line["span"]["method"], *method);
        assert_eq!(
            format!("route={}", line["span"]["route"].as_str().unwrap()),
            *route
        );
        assert_eq!(format!("status={}", line["fields"]["status"]), *status);
        assert!(line["fields"]["latency_us"].is_u64(), "{line}");
        assert!(line["span"]["request_id"].is_string(), "{line}");
    }

    // Off: no line, every request still served.
    let off = Lines::default();
    with_lines(&off, false, || {
        block_on(send_to_both(|| {
            Pipeline::builder(support::conformance::handlers())
                .access_log(false)
                .build()
                .unwrap()
        }))
    });
    assert_eq!(off.access(), Vec::<String>::new());
}
