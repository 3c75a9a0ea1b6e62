//! The conformance binary as a process: graceful shutdown on SIGTERM and the header read
//! timeout, on both adapters. (Every row of the fixture runs against it in `behaviour.rs`.)

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{eventually, fixture, read_by_server, read_to_close, Running, TestServer};

fn signal(app: &TestServer, name: &str) {
    let Running::Process(child) = &app.running else {
        panic!("not a process")
    };
    let pid = child.id().expect("running").to_string();
    let status = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

async fn exit_status(app: TestServer) -> std::process::ExitStatus {
    let Running::Process(mut child) = app.running else {
        panic!("not a process")
    };
    tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("exits in time")
        .expect("wait works")
}

async fn sigterm_lets_in_flight_requests_finish(adapter: &str) {
    let app = fixture(adapter).await;
    let mut slow = TcpStream::connect(app.addr).await.expect("connect");
    slow.write_all(b"GET /slow?ms=600 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    // The signal that the request is in flight: the server process has read it.
    let client = slow.local_addr().expect("bound");
    assert!(
        eventually(Duration::from_secs(5), || read_by_server(app.addr, client)).await,
        "the server did not read the request"
    );
    signal(&app, "TERM");
    let answer = read_to_close(&mut slow, Duration::from_secs(15)).await;
    assert!(
        answer.starts_with("HTTP/1.1 200 "),
        "in-flight request answered: {answer:?}"
    );
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(body).expect("a JSON body"),
        json!({"slept": 600})
    );
    let addr = app.addr;
    assert!(exit_status(app).await.success(), "exit status 0");
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

async fn sigint_stops_an_idle_server(adapter: &str) {
    let app = fixture(adapter).await;
    signal(&app, "INT");
    assert!(exit_status(app).await.success());
}

async fn stalled_headers_are_cut_off(adapter: &str) {
    let app = fixture(adapter).await;
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream
        .write_all(b"GET /health HTTP/1.1\r\nhost: x\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    // The fixture keeps the default 10 s header read timeout.
    let answer = read_to_close(&mut stream, Duration::from_secs(20)).await;
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(9) && waited < Duration::from_secs(15),
        "closed after {waited:?}: {answer:?}"
    );
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

macro_rules! both_adapters {
    ($($case:ident),*) => {
        mod native {
            $(#[tokio::test]
            async fn $case() { super::$case("native").await })*
        }
        mod warp {
            $(#[tokio::test]
            async fn $case() { super::$case("warp").await })*
        }
    };
}

both_adapters!(
    sigterm_lets_in_flight_requests_finish,
    sigint_stops_an_idle_server,
    stalled_headers_are_cut_off
);
