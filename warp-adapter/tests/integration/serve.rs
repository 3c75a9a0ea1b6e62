//! `pactum_warp::serve`: a filter on pactum's native server, with its hardened settings.

use std::time::Duration;

use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use warp::Filter;

use crate::support;
use pactum_test_kit::{client, options, raw_response, serve_filter};

fn app() -> impl Filter<Extract = (impl warp::Reply,), Error = std::convert::Infallible> + Clone {
    warp::path("api")
        .and(pactum_warp::filter(support::users()).unwrap())
        .or(pactum_warp::not_found())
        .with(warp::log("pactum_warp::tests"))
}

/// Sends half a request head and reports whether the server closed the connection within
/// `wait`.
async fn closes_slow_client(addr: std::net::SocketAddr, wait: Duration) -> bool {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /api/users/1 HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let read = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {} // a 408 answer, then the close
            }
        }
    };
    tokio::time::timeout(wait, read).await.is_ok()
}

#[tokio::test]
async fn header_read_timeout_closes_slow_clients() {
    let server = pactum_warp::serve(
        app(),
        options().header_read_timeout(Duration::from_millis(200)),
    )
    .await
    .unwrap();
    assert!(closes_slow_client(server.local_addr(), Duration::from_secs(5)).await);

    // Other clients are served meanwhile and after.
    let res = client()
        .get(format!("http://{}/api/users/1", server.local_addr()))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(server.shutdown().await);
}

#[tokio::test]
async fn warp_own_server_keeps_slow_clients() {
    // Why `serve` exists: warp's server sets no timer, so hyper's header timeout is off.
    let server = serve_filter(app()).await;
    assert!(!closes_slow_client(server.addr, Duration::from_millis(700)).await);
}

#[tokio::test]
async fn oversized_heads_get_431() {
    let server = pactum_warp::serve(app(), options()).await.unwrap();
    let addr = server.local_addr();

    let big = format!(
        "GET /api/users/1 HTTP/1.1\r\nHost: test\r\nX-Big: {}\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    assert_eq!(raw_response(addr, big.as_bytes()).await.status, 431);

    let mut many = String::from("GET /api/users/1 HTTP/1.1\r\nHost: test\r\n");
    for i in 0..120 {
        many.push_str(&format!("X-H{i}: v\r\n"));
    }
    many.push_str("\r\n");
    assert_eq!(raw_response(addr, many.as_bytes()).await.status, 431);

    let ok = raw_response(addr, b"GET /api/users/1 HTTP/1.1\r\nHost: test\r\n\r\n").await;
    assert_eq!(ok.status, 200);
    assert!(server.shutdown().await);
}

#[tokio::test]
async fn graceful_shutdown_stops_accepting() {
    let server = pactum_warp::serve(app(), options()).await.unwrap();
    let addr = server.local_addr();
    let res = client()
        .get(format!("http://{addr}/api/users/1"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    drop(res);
    assert!(server.shutdown().await);
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn with_no_idle_wait_a_shutdown_closes_an_idle_connection_at_once() {
    let server = pactum_warp::serve(app(), options()).await.unwrap();
    let mut stream = TcpStream::connect(server.local_addr()).await.unwrap();
    stream
        .write_all(b"GET /api/users/1 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut head = Vec::new();
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut buf = [0; 1024];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed before the answer");
        head.extend_from_slice(&buf[..n]);
    }
    assert!(head.starts_with(b"HTTP/1.1 200"), "{head:?}");
    // The connection is kept alive, idle. Far below the default wait (1 s):
    let bound = Duration::from_millis(300);
    let shutdown = tokio::spawn(server.shutdown());
    let read = tokio::time::timeout(bound, stream.read(&mut [0; 16]))
        .await
        .expect("the idle keep-alive connection is closed within 300 ms")
        .unwrap();
    assert_eq!(read, 0);
    // Its client closes it too, as a client does with a pooled connection the server closed.
    drop(stream);
    let finished = tokio::time::timeout(bound, shutdown)
        .await
        .expect("the shutdown ends within 300 ms more")
        .unwrap();
    assert!(finished);
}
