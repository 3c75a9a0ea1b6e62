//! HTTP's own rules the server keeps, on every adapter, over raw sockets: `OPTIONS *` asks
//! about the server itself (RFC 9110 §9.3.7); an HTTP/1.1 request has exactly one valid
//! `Host` (RFC 9112 §3.2); an HTTP/2 request has no more header fields than an HTTP/1.1 one
//! may. The last two are kept by pactum's connection: on the native server and on the warp
//! adapter served by `pactum_warp::serve` (warp's own server keeps hyper's rules).

use std::time::Duration;

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{raw_response, read_response, read_to_close, TestServer};

on_every_adapter!(options_asterisk_lists_every_method_the_server_serves);
on_every_adapter!(@one native_host, crate::support::native; host_rule, http2_header_count, http2_expect_continue);
on_every_adapter!(@one warp_host, crate::support::warp; host_rule, http2_header_count, http2_expect_continue);
on_every_adapter!(@one fixture_native_host, crate::support::fixture_native; host_rule, http2_header_count, http2_expect_continue);
on_every_adapter!(@one fixture_warp_host, crate::support::fixture_warp; host_rule, http2_header_count, http2_expect_continue);

/// `OPTIONS *` is answered 204 with `Allow`: every method some route serves (HEAD with GET),
/// and OPTIONS; no route has the path `*`, so it is not a 404.
async fn options_asterisk_lists_every_method_the_server_serves(app: &TestServer) {
    let answer = raw_response(
        app.addr,
        b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 204, "{}", answer.head);
    assert_eq!(
        answer.header("allow"),
        Some("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
        "{}",
        answer.head
    );
    // Any other method on `*` has no route.
    let answer = raw_response(
        app.addr,
        b"GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 404, "{}", answer.head);
}

/// RFC 9112 §3.2: an HTTP/1.1 request without a `Host`, with two `Host` lines or with an
/// invalid one is answered 400 with the JSON error body, and the connection closed; the
/// service never sees it. HTTP/1.0 may leave `Host` out.
async fn host_rule(app: &TestServer) {
    let refused: [&[u8]; 7] = [
        b"GET /health HTTP/1.1\r\n\r\n",
        b"GET /health HTTP/1.1\r\naccept: */*\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
        b"GET /health HTTP/1.1\r\naccept: */*\r\nHost: a\r\nhost: b\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: a b\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: user@evil.example\r\n\r\n",
        b"GET /health HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
    ];
    for request in refused {
        let name = String::from_utf8_lossy(request);
        let mut stream = TcpStream::connect(app.addr).await.unwrap();
        stream.write_all(request).await.unwrap();
        let answer = read_response(&mut stream).await;
        assert_eq!(answer.status, 400, "{name:?}: {}", answer.head);
        assert_eq!(
            answer.header("content-type"),
            Some("application/json"),
            "{name:?}"
        );
        assert_eq!(answer.json(), json!({"error": "Bad request"}), "{name:?}");
        assert_eq!(answer.header("connection"), Some("close"), "{name:?}");
        let rest = read_to_close(&mut stream, Duration::from_secs(5)).await;
        assert_eq!(rest, "", "{name:?}: closed after the answer");
    }
    // Served: one valid `Host` anywhere in the head, IPv6 and empty ones included; HTTP/1.0
    // without one.
    let served: [&[u8]; 4] = [
        b"GET /health HTTP/1.1\r\naccept: */*\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
        b"GET /health HTTP/1.0\r\n\r\n",
    ];
    for request in served {
        let answer = raw_response(app.addr, request).await;
        let name = String::from_utf8_lossy(request);
        assert_eq!(answer.status, 200, "{name:?}: {}", answer.head);
        assert_eq!(answer.json(), json!({"status": "ok"}), "{name:?}");
    }
    // On a kept-alive connection: the first request served, the second refused.
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\n\r\n")
        .await
        .unwrap();
    let both = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let second = both
        .find("HTTP/1.1 400 ")
        .expect("the second answer, a 400");
    assert!(both.starts_with("HTTP/1.1 200 "), "{both:?}");
    assert!(
        both[second..].ends_with(r#"{"error":"Bad request"}"#),
        "{both:?}"
    );
}

/// Over HTTP/2 the header count limit holds as over HTTP/1.1 (`ServerOptions::max_headers`,
/// 100 by default): past it, 431 with the JSON error body, and the connection serves on.
async fn http2_header_count(app: &TestServer) {
    let tcp = TcpStream::connect(app.addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.expect("handshake");
    tokio::spawn(connection);
    let mut client = client.ready().await.expect("ready");
    for (count, status) in [(100, 200), (101, 431), (1_500, 431), (0, 200)] {
        let mut request = http::Request::get(format!("http://{}/health", app.addr));
        for i in 0..count {
            request = request.header(format!("x-h{i}"), "a");
        }
        let (response, _) = client
            .send_request(request.body(()).unwrap(), true)
            .expect("sent");
        let response = response.await.expect("an answer");
        assert_eq!(response.status(), status, "{count} headers");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{count} headers"
        );
        let body = h2_body(response.into_body()).await;
        let expected = match status {
            200 => json!({"status": "ok"}),
            _ => json!({"error": "Request header fields too large"}),
        };
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&body).unwrap(),
            expected
        );
        client = client.ready().await.expect("still serving");
    }
}

/// `Expect: 100-continue` over HTTP/2: a body over the limit is refused at once, before the
/// client sends it; an upload that waits is served once sent. hyper 1.12 sends no `100` on
/// HTTP/2 (hyperium/hyper#2743): curl waits a second, then sends — the patch proposed upstream
/// is in `src/server/upstream/` (README.md).
async fn http2_expect_continue(app: &TestServer) {
    let tcp = TcpStream::connect(app.addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.expect("handshake");
    tokio::spawn(connection);
    let mut client = client.ready().await.expect("ready");
    let post = |length: usize| {
        http::Request::post(format!("http://{}/users", app.addr))
            .header("expect", "100-continue")
            .header("content-type", "application/json")
            .header("content-length", length)
            .body(())
            .unwrap()
    };
    // 2 MiB announced, nothing sent: the 413 comes without the body.
    let (response, _body) = client
        .send_request(post(2 * 1024 * 1024), false)
        .expect("sent");
    let response = tokio::time::timeout(Duration::from_secs(5), response)
        .await
        .expect("answered before the body")
        .expect("an answer");
    assert_eq!(response.status(), 413);
    let body = h2_body(response.into_body()).await;
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).unwrap()["error"],
        "Payload too large"
    );
    // A body within the limit, sent after the head: created.
    let user = br#"{"name":"Ada","email":"expect@example.com","age":36}"#;
    let mut client = client.ready().await.expect("still serving");
    let (response, mut body) = client.send_request(post(user.len()), false).expect("sent");
    body.send_data(bytes::Bytes::from_static(user), true)
        .expect("body sent");
    let response = response.await.expect("an answer");
    assert_eq!(response.status(), 201);
}

/// The whole body of an HTTP/2 answer, its window given back as it is read.
async fn h2_body(mut body: h2::RecvStream) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.expect("a body chunk");
        body.flow_control()
            .release_capacity(chunk.len())
            .expect("window given back");
        out.extend_from_slice(&chunk);
    }
    out
}
