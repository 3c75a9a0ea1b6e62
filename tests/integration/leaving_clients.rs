//! A client that leaves while its request is in flight, with `ServerOptions::http1_half_close`
//! off (the default): on plain TCP the native server peeks at the socket while the answer
//! waits (hyper's own check, a read mid-request, is off there), and drops the request with
//! the connection as soon as the client has gone — however long the handler would have run.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{eventually, native_with, options, read_to_close};

/// A client leaves a handler that would sleep 10 s: the server's `on_client_error` hook hears
/// of it at once, and the server goes on serving.
#[tokio::test]
async fn a_client_that_leaves_a_waiting_handler_is_noticed_at_once() {
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let heard = Arc::clone(&errors);
    let hook = move |error: &(dyn std::error::Error + 'static)| {
        heard.lock().unwrap().push(error.to_string());
    };
    let app = native_with(crate::api::handlers(), options().on_client_error(hook)).await;
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream
        .write_all(b"GET /slow?ms=10000 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    // The handler is asleep by then.
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(stream);
    let gone = |errors: &[String]| {
        errors
            .iter()
            .any(|error| error.contains("closed the connection before its answer"))
    };
    assert!(
        eventually(Duration::from_secs(3), || gone(&errors.lock().unwrap())).await,
        "{:?}",
        errors.lock().unwrap()
    );
    assert_eq!(app.get("/health").await.status, 200, "still serving");
}

/// Bytes that come while an answer waits are the next request (pipelined), not a close: both
/// are answered, in order.
#[tokio::test]
async fn a_request_sent_while_an_answer_waits_is_not_taken_for_a_close() {
    let app = native_with(crate::api::handlers(), options()).await;
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream
        .write_all(b"GET /slow?ms=300 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    tokio::time::sleep(Duration::from_millis(100)).await;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .await
        .expect("write");
    let answers = read_to_close(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(
        answers.matches("HTTP/1.1 200 OK\r\n").count(),
        2,
        "{answers}"
    );
    let slept = answers.find(r#"{"slept":300}"#).expect("the first answer");
    let health = answers
        .rfind("HTTP/1.1 200 OK\r\n")
        .expect("the second answer");
    assert!(slept < health, "in order: {answers}");
}
