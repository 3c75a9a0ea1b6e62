//! How the native server reads a request: a client that half-closes its connection once its
//! request is sent (`ServerOptions::http1_half_close`), and large bodies, read in many
//! chunks, on one kept-alive connection.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{client, native_with, options, read_to_close, warp, Running, TestServer};

/// Sends `GET /slow?ms=300` on a new connection, closes the sending side, and reads what
/// comes back until the server closes.
async fn half_closed_request(app: &TestServer) -> String {
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream
        .write_all(b"GET /slow?ms=300 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    stream.shutdown().await.expect("half-close");
    read_to_close(&mut stream, Duration::from_secs(5)).await
}

/// With the option on, a client that half-closes after its request gets its answer, then
/// the connection is closed.
#[tokio::test]
async fn a_half_closed_client_is_answered_with_the_option() {
    let app = native_with(crate::api::handlers(), options().http1_half_close(true)).await;
    let answer = half_closed_request(&app).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with(r#"{"slept":300}"#), "{answer}");
    assert_eq!(app.get("/health").await.status, 200, "still serving");
}

/// The same on the warp adapter served by `pactum_warp::serve`, which takes the option too.
#[tokio::test]
async fn a_half_closed_client_is_answered_with_the_option_through_warp() {
    let pipeline = pactum::Pipeline::new(crate::api::handlers()).expect("valid handlers");
    let filter = pactum_warp::filter_with(pipeline);
    let server = pactum_warp::serve(filter, options().http1_half_close(true))
        .await
        .expect("server starts");
    let app = TestServer {
        addr: server.local_addr(),
        running: Running::Server(server),
        client: client(),
    };
    let answer = half_closed_request(&app).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with(r#"{"slept":300}"#), "{answer}");
}

/// By default (hyper's and axum's), the close is taken for the client leaving while its
/// request is in flight: the connection is closed with no answer, and the server goes on.
#[tokio::test]
async fn a_half_closed_client_is_taken_for_gone_by_default() {
    let app = native_with(crate::api::handlers(), options()).await;
    let answer = half_closed_request(&app).await;
    assert_eq!(answer, "", "no answer");
    assert_eq!(app.get("/health").await.status, 200, "still serving");
}

/// An `/echo` body of about `bytes`, its items numbered from `first`.
fn echo_body(bytes: usize, first: usize) -> Value {
    let items: Vec<Value> = (first..first + bytes / 28)
        .map(|i| json!({"sku": format!("sku-{i:08}"), "qty": 1 + i % 99}))
        .collect();
    json!({ "items": items })
}

/// Large bodies (each over what hyper's first read holds) on one kept-alive connection:
/// each is read whole and answered as sent, whatever the one before it was.
async fn large_bodies_one_after_another(app: &TestServer) {
    for (round, bytes) in [100_000, 20_000, 100_000, 300_000, 9_000]
        .into_iter()
        .enumerate()
    {
        let body = echo_body(bytes, round * 100_000);
        let text = body.to_string();
        assert!(text.len() > 8 * 1024, "{}", text.len());
        let answer = app.post_json("/echo", text).await;
        answer.assert(201, body);
    }
}

#[tokio::test]
async fn large_bodies_are_read_whole_natively() {
    large_bodies_one_after_another(&native_with(crate::api::handlers(), options()).await).await;
}

#[tokio::test]
async fn large_bodies_are_read_whole_with_half_close() {
    let app = native_with(crate::api::handlers(), options().http1_half_close(true)).await;
    large_bodies_one_after_another(&app).await;
}

#[tokio::test]
async fn large_bodies_are_read_whole_through_warp() {
    large_bodies_one_after_another(&warp().await).await;
}
