//! Over real sockets on 127.0.0.1:0 against the native server: HTTP/1.1 and HTTP/2 (h2c).

use std::time::Duration;

use pactum::http::StatusCode;
use pactum_client::Client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::scenarios;
use crate::support::contracts::*;
use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_over_http1() {
    let server = server().await;
    let client = Client::new(base_url(&server, "")).unwrap();
    scenarios::all(&client).await;
    let client = scenarios::with_defaults(Client::builder().base_url(base_url(&server, "/")));
    scenarios::headers_are_sent(&client).await;
    let err = client.call(&missing()).send().await.unwrap_err();
    assert_eq!(err.error_body().unwrap().error, "Not found");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_over_h2c() {
    let server = server().await;
    let client = Client::builder()
        .base_url(base_url(&server, ""))
        .configure_reqwest(|b| b.http2_prior_knowledge())
        .build()
        .unwrap();
    scenarios::all(&client).await;
    server.shutdown().await;
}

#[tokio::test]
async fn the_base_path_is_kept() {
    let prefixed = pactum::Endpoint::get(pactum::route::static_path("/api/v1/seen"))
        .response::<Seen>()
        .build()
        .unwrap();
    let mut handlers = handlers();
    handlers.push(
        pactum::handler(prefixed, |ctx: pactum::Ctx| async move {
            Ok(Seen {
                method: ctx.method.to_string(),
                path: ctx.url().path().to_owned(),
                query: ctx.url().query().map(str::to_owned),
                headers: Default::default(),
            })
        })
        .into(),
    );
    let server = pactum::serve(handlers, pactum_test_kit::options())
        .await
        .unwrap();
    for prefix in ["/api/v1", "/api/v1/"] {
        let client = Client::new(base_url(&server, prefix)).unwrap();
        let seen = client.call(&seen()).send().await.unwrap();
        assert_eq!(seen.path, "/api/v1/seen", "{prefix}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn timeouts_are_reported() {
    let server = server().await;
    let client = Client::builder()
        .base_url(base_url(&server, ""))
        .timeout(Duration::from_millis(100))
        .build()
        .unwrap();
    let err = client.call(&slow()).send().await.unwrap_err();
    assert!(err.is_timeout() && err.is_transport(), "{err:?}");
    assert!(err.url().is_some());
    // The client still works afterwards.
    client.call(&health()).send().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn connection_failures_are_transport_errors() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let client = Client::new(format!("http://{addr}")).unwrap();
    let err = client.call(&health()).send().await.unwrap_err();
    assert!(err.is_transport() && !err.is_timeout(), "{err:?}");
    assert_eq!(err.status(), None);
    assert!(std::error::Error::source(&err).is_some());
}

/// A one-shot HTTP/1.1 server answering `response` to the first request.
async fn raw_server(response: &'static str) -> (String, tokio::task::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = socket.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            request.extend_from_slice(&buf[..n]);
        }
        socket.write_all(response.as_bytes()).await.unwrap();
        socket.shutdown().await.unwrap();
        String::from_utf8_lossy(&request).into_owned()
    });
    (format!("http://{addr}"), task)
}

#[tokio::test]
async fn foreign_error_bodies_fall_back_to_text() {
    let (base, task) = raw_server(
        "HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: 14\r\nconnection: close\r\n\r\nupstream down\n",
    )
    .await;
    let client = Client::new(&base).unwrap();
    let err = client
        .call(&list_users())
        .query(ListQuery {
            tags: vec!["a".into(), "b c".into()],
            ..ListQuery::default()
        })
        .send()
        .await
        .unwrap_err();
    assert!(err.is_status());
    assert_eq!(err.status(), Some(StatusCode::BAD_GATEWAY));
    assert_eq!(err.error_body().unwrap().error, "upstream down");
    let request = task.await.unwrap();
    assert!(
        // serde_qs writes a `None` as a bare key, which it reads back as `None`.
        request.starts_with("GET /users?tags[0]=a&tags[1]=b+c&limit&active HTTP/1.1\r\n"),
        "{request}"
    );
}

#[tokio::test]
async fn a_non_json_success_is_a_decode_error() {
    let (base, task) = raw_server(
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 6\r\nconnection: close\r\n\r\n<html>",
    )
    .await;
    let client = Client::new(&base).unwrap();
    let err = client
        .call(&get_user())
        .params(UserPath { id: 1 })
        .send()
        .await
        .unwrap_err();
    assert!(err.is_decode(), "{err:?}");
    assert_eq!(err.status(), Some(StatusCode::OK));
    assert!(!err.details().is_empty());
    task.await.unwrap();
}

#[tokio::test]
async fn client_side_failures_send_nothing() {
    // A listener that is never accepted from: a request would hang until the timeout.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let client = Client::builder()
        .base_url(format!("http://{}", listener.local_addr().unwrap()))
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    scenarios::client_side_validation_sends_nothing(&client).await;
    assert!(started.elapsed() < Duration::from_secs(1));
    // Nothing connected.
    let accepted = tokio::time::timeout(Duration::from_millis(50), listener.accept()).await;
    assert!(accepted.is_err(), "a connection was made");
}
