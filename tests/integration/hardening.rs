//! The native server's hardened connection handling, over real sockets: header read timeout,
//! head and header-count limits, graceful shutdown and its deadline, the client-error hook,
//! request timeout, connection limit, h2c and keep-alive.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pactum::Pipeline;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{
    self, arrivals, arrived, eventually, listening, native, native_with, options, read_to_close,
};

const HEALTH: &[u8] = b"GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";

/// Reads one HTTP/1.1 response with a `content-length` from a kept-alive connection.
async fn read_response(stream: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let read = async {
        loop {
            let n = stream.read(&mut chunk).await.expect("read");
            assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&buf));
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).into_owned();
            if let Some(end) = text.find("\r\n\r\n") {
                let length: usize = text[..end]
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse().ok())?
                    })
                    .unwrap_or(0);
                if buf.len() >= end + 4 + length {
                    return text;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("a response within 5 s")
}

fn status_of(raw: &str) -> &str {
    raw.get(9..12).unwrap_or(raw)
}

// ---------------------------------------------------------------------------------------
// Slowloris: the header read timeout.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn unfinished_headers_are_closed_after_the_header_timeout() {
    let errors = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&errors);
    let app = native_with(
        crate::api::handlers(),
        options()
            .header_read_timeout(Duration::from_millis(300))
            .on_client_error(move |_| {
                seen.fetch_add(1, Ordering::SeqCst);
            }),
    )
    .await;
    let mut slow = TcpStream::connect(app.addr).await.expect("connect");
    slow.write_all(b"GET /health HTTP/1.1\r\nhost: x\r\nx-slow: 1\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    // Other clients are served while it hangs.
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
    let answer = read_to_close(&mut slow, Duration::from_secs(5)).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "still open after {waited:?}: {answer:?}"
    );
    assert!(
        waited >= Duration::from_millis(200),
        "closed too early ({waited:?}): {answer:?}"
    );
    assert!(!answer.contains(" 200 "), "{answer}");
    // The timeout is a client error, reported to the hook.
    assert!(
        eventually(Duration::from_secs(2), || errors.load(Ordering::SeqCst)
            >= 1)
        .await,
        "on_client_error was not called for the header timeout"
    );
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn headers_trickled_byte_by_byte_are_still_cut_off() {
    let app = native_with(
        crate::api::handlers(),
        options().header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    let stream = TcpStream::connect(app.addr).await.expect("connect");
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "GET /health HTTP/1.1\r\nhost: x\r\nx-padding: {}",
        "a".repeat(200)
    );
    // One byte every 20 ms: the head would take over 4 s to arrive. The sleep below is the
    // slow client under test, not a wait for the server.
    let trickle = tokio::spawn(async move {
        for byte in head.into_bytes() {
            if writer.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let started = Instant::now();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), reader.read_to_end(&mut answer)).await;
    let waited = started.elapsed();
    trickle.abort();
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        waited < Duration::from_secs(3),
        "a trickling client kept its connection for {waited:?}"
    );
    assert!(!answer.contains(" 200 "), "{answer}");
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

/// The timeout runs per connection: after an answer, the next head is timed again — an idle
/// keep-alive connection is closed — but a request in flight is never cut by it, however long
/// its handler takes.
#[tokio::test]
async fn the_head_timeout_spares_requests_in_flight_and_closes_idle_connections() {
    let app = native_with(
        crate::api::handlers(),
        options().header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    // Slower than the head timeout, twice on the same connection.
    for _ in 0..2 {
        stream
            .write_all(b"GET /slow?ms=700 HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .expect("write");
        let answer = read_response(&mut stream).await;
        assert_eq!(status_of(&answer), "200", "{answer}");
        assert!(answer.ends_with(r#"{"slept":700}"#), "{answer}");
    }
    // Then idle: closed after the timeout.
    let started = Instant::now();
    let rest = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let waited = started.elapsed();
    assert!(rest.is_empty(), "{rest}");
    assert!(
        waited >= Duration::from_millis(200) && waited < Duration::from_secs(3),
        "an idle keep-alive connection closed after {waited:?}"
    );
}

/// A client that connects and never sends a byte holds a connection (and, with
/// `max_connections`, a slot) as surely as one that stops mid-head.
#[tokio::test]
async fn a_silent_connection_is_closed_after_the_header_timeout() {
    let app = native_with(
        crate::api::handlers(),
        options().header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    let mut silent = TcpStream::connect(app.addr).await.expect("connect");
    let started = Instant::now();
    let answer = read_to_close(&mut silent, Duration::from_secs(5)).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "a connection that sent nothing was still open after {waited:?} ({answer:?})"
    );
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

/// The first bytes of the HTTP/2 preface, then nothing: the server cannot yet tell HTTP/1
/// from HTTP/2, and must still apply the header timeout.
#[tokio::test]
async fn a_stalled_protocol_preface_is_closed_after_the_header_timeout() {
    let app = native_with(
        crate::api::handlers(),
        options().header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    let mut stalled = TcpStream::connect(app.addr).await.expect("connect");
    stalled
        .write_all(b"PRI * HTTP/2.0\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    let answer = read_to_close(&mut stalled, Duration::from_secs(5)).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "a connection stalled in the preface was still open after {waited:?} ({answer:?})"
    );
}

/// With a connection limit, idle sockets that never send a request must not starve real
/// clients for longer than the header timeout.
#[tokio::test]
async fn silent_connections_cannot_hold_every_connection_slot() {
    let app = native_with(
        crate::api::handlers(),
        options()
            .max_connections(1)
            .header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    // `connect` returns once the kernel has queued the connection, and the server accepts in
    // that order (a permit first, then the oldest queued): the silent one takes the slot.
    let _silent = TcpStream::connect(app.addr).await.expect("connect");
    let mut real = TcpStream::connect(app.addr).await.expect("connect");
    real.write_all(HEALTH).await.expect("write");
    let started = Instant::now();
    let answer = read_to_close(&mut real, Duration::from_secs(5)).await;
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "a real client was not served within {:?} while a silent one held the slot: {answer:?}",
        started.elapsed()
    );
}

// ---------------------------------------------------------------------------------------
// Head limits: 431.
// ---------------------------------------------------------------------------------------

fn request_with_header_bytes(bytes: usize) -> Vec<u8> {
    format!(
        "GET /health HTTP/1.1\r\nhost: x\r\nx-big: {}\r\nconnection: close\r\n\r\n",
        "a".repeat(bytes)
    )
    .into_bytes()
}

#[tokio::test]
async fn a_head_over_max_head_bytes_is_431() {
    let app = native_with(crate::api::handlers(), options().max_head_bytes(16 * 1024)).await;
    let small = app.raw(&request_with_header_bytes(8 * 1024)).await;
    assert_eq!(status_of(&small), "200", "{small}");
    let big = app.raw(&request_with_header_bytes(20 * 1024)).await;
    assert!(
        big.starts_with("HTTP/1.1 431"),
        "{}",
        &big[..big.len().min(200)]
    );
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn the_default_head_limit_is_64_kib() {
    let app = native().await;
    let under = app.raw(&request_with_header_bytes(60 * 1024)).await;
    assert_eq!(
        status_of(&under),
        "200",
        "{}",
        &under[..under.len().min(200)]
    );
    let over = app.raw(&request_with_header_bytes(100 * 1024)).await;
    assert!(
        over.starts_with("HTTP/1.1 431"),
        "{}",
        &over[..over.len().min(200)]
    );
}

/// A request head of exactly `total` bytes, its end included.
fn head_of_exactly(total: usize) -> Vec<u8> {
    let bare = request_with_header_bytes(0).len();
    let head = request_with_header_bytes(total - bare);
    assert_eq!(head.len(), total);
    head
}

/// Sends `request` in writes that end at `splits` (offsets), pausing between them, so that
/// the server's reads end there too; returns everything answered until the close.
async fn raw_split(addr: std::net::SocketAddr, request: &[u8], splits: &[usize]) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut from = 0;
    for &to in splits.iter().chain([&request.len()]) {
        // The server may answer 431 and close before the last write: its answer is read below.
        if stream.write_all(&request[from..to]).await.is_err() {
            break;
        }
        from = to;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    read_to_close(&mut stream, Duration::from_secs(5)).await
}

/// The limit counts the head's bytes, whatever the reads that bring them: a head of exactly
/// 64 KiB is served and one byte more is refused, sent at once, its first bytes one by one
/// (the server reads them to tell HTTP/2's preface apart), split around hyper's read sizes
/// or before its last byte, or behind another request on the connection.
#[tokio::test]
async fn the_head_limit_is_exact_whatever_the_reads() {
    let app = native().await;
    let limit = 64 * 1024;
    let one_by_one: Vec<usize> = (1..=24).collect();
    let splits: [&[usize]; 8] = [
        &[],
        &one_by_one,
        &[4096],
        &[8192],
        &[8193, 16 * 1024 - 1],
        &[40_000],
        &[limit - 1],
        &[1, limit],
    ];
    for split in splits {
        let at = raw_split(app.addr, &head_of_exactly(limit), split).await;
        assert_eq!(
            status_of(&at),
            "200",
            "{split:?}: {}",
            &at[..at.len().min(200)]
        );
        let over = raw_split(app.addr, &head_of_exactly(limit + 1), split).await;
        assert!(
            over.starts_with("HTTP/1.1 431"),
            "{split:?}: {}",
            &over[..over.len().min(200)]
        );
    }
    // Pipelined behind a small request, in one write: the second head's own bytes count.
    let small = b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n";
    let over = [&small[..], &head_of_exactly(limit + 1)].concat();
    let answers = app.raw(&over).await;
    assert!(answers.starts_with("HTTP/1.1 200"), "{}", &answers[..200]);
    assert_eq!(answers.matches("HTTP/1.1 431").count(), 1, "{answers}");
    let at = [&small[..], &head_of_exactly(limit)].concat();
    let answers = app.raw(&at).await;
    assert_eq!(answers.matches("HTTP/1.1 200").count(), 2, "{answers}");
}

fn request_with_headers(count: usize) -> Vec<u8> {
    let mut head = String::from("GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n");
    for i in 0..count {
        head.push_str(&format!("x-h{i}: {i}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

#[tokio::test]
async fn more_than_max_headers_is_431() {
    let app = native_with(crate::api::handlers(), options().max_headers(10)).await;
    // host + connection + 6 = 8 headers.
    let few = app.raw(&request_with_headers(6)).await;
    assert_eq!(status_of(&few), "200", "{few}");
    let many = app.raw(&request_with_headers(20)).await;
    assert!(many.starts_with("HTTP/1.1 431"), "{many}");
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn a_header_count_limit_above_hyper_s_100_is_kept() {
    // Above 100 hyper parses into arrays it allocates per head: the limit still holds both ways.
    let app = native_with(crate::api::handlers(), options().max_headers(200)).await;
    let ok = app.raw(&request_with_headers(150)).await;
    assert_eq!(status_of(&ok), "200", "{ok}");
    let many = app.raw(&request_with_headers(250)).await;
    assert!(many.starts_with("HTTP/1.1 431"), "{many}");
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn the_default_header_count_limit_is_100() {
    let app = native().await;
    let ok = app.raw(&request_with_headers(90)).await;
    assert_eq!(status_of(&ok), "200", "{ok}");
    let many = app.raw(&request_with_headers(150)).await;
    assert!(many.starts_with("HTTP/1.1 431"), "{many}");
}

// ---------------------------------------------------------------------------------------
// Graceful shutdown.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn shutdown_lets_an_in_flight_request_finish() {
    let (middleware, mut requests) = arrivals();
    let app = Pipeline::builder(crate::api::handlers()).middleware(middleware);
    let (addr, server, client) = native_with(app, options()).await.into_parts();
    // An idle kept-alive connection must not hold the shutdown up.
    let warm = client
        .get(format!("http://{addr}/health"))
        .send()
        .await
        .expect("sent");
    assert_eq!(warm.status(), 200);
    let in_flight = tokio::spawn({
        let client = client.clone();
        async move {
            let response = client
                .get(format!("http://{addr}/slow?ms=400"))
                .send()
                .await?;
            let status = response.status().as_u16();
            let body: serde_json::Value = response.json().await?;
            Ok::<_, reqwest::Error>((status, body))
        }
    });
    arrived(&mut requests, "/slow").await;
    let started = Instant::now();
    let finished = server.shutdown().await;
    let took = started.elapsed();
    assert!(finished, "shutdown reported unfinished connections");
    assert!(
        took >= Duration::from_millis(200),
        "shutdown returned after {took:?}, before the request could finish"
    );
    assert!(took < Duration::from_secs(5), "shutdown took {took:?}");
    let (status, body) = in_flight
        .await
        .expect("task")
        .expect("the in-flight request completes");
    assert_eq!((status, body), (200, json!({"slept": 400})));
    // The listener is closed.
    let refused = tokio::time::timeout(Duration::from_secs(2), TcpStream::connect(addr)).await;
    assert!(
        matches!(refused, Ok(Err(_))),
        "a new connection was accepted after shutdown: {refused:?}"
    );
}

#[tokio::test]
async fn shutdown_of_an_idle_server_is_prompt() {
    let (addr, server, _) = native().await.into_parts();
    let started = Instant::now();
    assert!(server.shutdown().await);
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn shutdown_gives_up_at_its_deadline() {
    let (middleware, mut requests) = arrivals();
    let (addr, server, client) = native_with(
        Pipeline::builder(crate::api::handlers()).middleware(middleware),
        options().shutdown_timeout(Duration::from_millis(200)),
    )
    .await
    .into_parts();
    let in_flight = tokio::spawn({
        let client = client.clone();
        async move {
            let response = client
                .get(format!("http://{addr}/slow?ms=5000"))
                .send()
                .await?;
            response.text().await
        }
    });
    arrived(&mut requests, "/slow").await;
    let started = Instant::now();
    let finished = server.shutdown().await;
    let took = started.elapsed();
    assert!(!finished, "shutdown claimed the 5 s request finished");
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_secs(2),
        "shutdown took {took:?} with a 200 ms deadline"
    );
    // The request that outlived the deadline is cut off, not answered late.
    let outcome = tokio::time::timeout(Duration::from_secs(3), in_flight)
        .await
        .expect("the cut-off request ends promptly")
        .expect("task");
    assert!(outcome.is_err(), "{outcome:?}");
}

const KEEP_ALIVE_HEALTH: &[u8] = b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n";

/// A server with `options`, and a keep-alive connection to it that has had its answer and is
/// left idle.
async fn with_an_idle_connection(
    options: pactum::ServerOptions,
) -> (pactum::server::Server, TcpStream) {
    let (addr, server, _) = native_with(crate::api::handlers(), options)
        .await
        .into_parts();
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(KEEP_ALIVE_HEALTH).await.expect("write");
    let answer = read_response(&mut stream).await;
    assert_eq!(status_of(&answer), "200", "{answer}");
    assert!(
        !answer.contains("connection: close"),
        "kept alive: {answer}"
    );
    (server, stream)
}

#[tokio::test]
async fn with_no_idle_wait_a_shutdown_closes_an_idle_connection_at_once() {
    let (server, mut stream) =
        with_an_idle_connection(options().shutdown_idle_wait(Duration::ZERO)).await;
    let started = Instant::now();
    let shutdown = tokio::spawn(server.shutdown());
    // Far below the default wait (1 s), far above what it takes (a few ms).
    let bound = Duration::from_millis(300);
    let read = tokio::time::timeout(bound, stream.read(&mut [0; 16]))
        .await
        .expect("the idle keep-alive connection is closed within 300 ms")
        .expect("read");
    assert_eq!(read, 0, "closed without a byte");
    // Its client closes it too, as a client does with a pooled connection the server closed.
    drop(stream);
    let finished = tokio::time::timeout(bound, shutdown)
        .await
        .expect("the shutdown ends within 300 ms more")
        .expect("task");
    assert!(finished, "every connection closed in time");
    let took = started.elapsed();
    assert!(took < Duration::from_millis(500), "took {took:?}");
}

#[tokio::test]
async fn the_idle_wait_keeps_a_draining_connection_for_its_next_request() {
    // Long enough for a loaded machine to send the next request within it (the connection
    // closes as soon as it is answered).
    let long_wait = Duration::from_secs(5);
    let (server, mut stream) =
        with_an_idle_connection(options().shutdown_idle_wait(long_wait)).await;
    let addr = server.local_addr();
    let shutdown = tokio::spawn(server.shutdown());
    // The accept loop closes its listener and starts draining in one step.
    assert!(
        eventually(Duration::from_secs(5), || !listening(addr)).await,
        "still accepting"
    );
    // A proxy's next request on the idle connection (a POST behind nginx) is answered, and
    // the answer tells it to close the connection.
    stream.write_all(KEEP_ALIVE_HEALTH).await.expect("write");
    let answer = read_response(&mut stream).await;
    assert_eq!(status_of(&answer), "200", "{answer}");
    assert!(answer.contains("connection: close"), "{answer}");
    assert_eq!(stream.read(&mut [0; 16]).await.expect("read"), 0, "closed");
    drop(stream);
    assert!(shutdown.await.expect("task"), "every connection closed");

    // Left open by its client, the connection is closed once the wait is over, not before.
    let wait = Duration::from_millis(600);
    let (server, mut stream) = with_an_idle_connection(options().shutdown_idle_wait(wait)).await;
    let started = Instant::now();
    let shutdown = tokio::spawn(server.shutdown());
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut [0; 16]))
        .await
        .expect("closed after the wait")
        .expect("read");
    assert_eq!(read, 0);
    let took = started.elapsed();
    assert!(
        took >= wait - Duration::from_millis(50) && took < wait * 3,
        "closed after {took:?}, the wait is {wait:?}"
    );
    drop(stream);
    assert!(shutdown.await.expect("task"));
}

// ---------------------------------------------------------------------------------------
// Hooks, timeouts, limits.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn client_errors_reach_the_hook_and_get_a_400() {
    let errors = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&errors);
    let app = native_with(
        crate::api::handlers(),
        options().on_client_error(move |_error| {
            seen.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .await;
    let raw = app.raw(b"this is not http at all\r\n\r\n").await;
    assert!(raw.starts_with("HTTP/1.1 400"), "{raw:?}");
    assert!(
        eventually(Duration::from_secs(2), || errors.load(Ordering::SeqCst)
            == 1)
        .await,
        "hook called {} times",
        errors.load(Ordering::SeqCst)
    );
    // The server keeps serving, and a clean request does not call the hook.
    let ok = app.raw(HEALTH).await;
    assert_eq!(status_of(&ok), "200", "{ok}");
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
    // Once the shutdown has closed every connection, no call of the hook is pending.
    let (_, server, _) = app.into_parts();
    assert!(server.shutdown().await);
    assert_eq!(errors.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn max_connections_holds_the_next_connection_until_one_closes() {
    let app = native_with(crate::api::handlers(), options().max_connections(1)).await;
    let get = b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n";
    let mut first = TcpStream::connect(app.addr).await.expect("connect");
    first.write_all(get).await.expect("write");
    assert_eq!(status_of(&read_response(&mut first).await), "200");

    // The kernel completes the handshake, but the server does not serve it yet.
    let mut second = TcpStream::connect(app.addr).await.expect("connect");
    second.write_all(get).await.expect("write");
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(400), second.read(&mut byte)).await;
    assert!(
        early.is_err(),
        "the second connection was served while the first was open"
    );

    // The first connection is still served.
    first.write_all(get).await.expect("write");
    assert_eq!(status_of(&read_response(&mut first).await), "200");

    drop(first);
    let answer = read_response(&mut second).await;
    assert_eq!(status_of(&answer), "200", "{answer}");
}

#[tokio::test]
async fn h2c_prior_knowledge_is_served() {
    let app = native().await;
    support::install_crypto();
    let h2 = reqwest::Client::builder()
        .http2_prior_knowledge()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client builds");
    let response = h2.get(app.url("/health")).send().await.expect("sent");
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<serde_json::Value>().await.expect("json"),
        json!({"status": "ok"})
    );
    // Bodies, errors and several streams on one connection.
    let created = h2
        .post(app.url("/users"))
        .header("content-type", "application/json")
        .body(r#"{"name":"Ada","email":"ada@example.com"}"#)
        .send()
        .await
        .expect("sent");
    assert_eq!(created.version(), reqwest::Version::HTTP_2);
    assert_eq!(created.status(), 201);
    let (a, b) = tokio::join!(
        h2.get(app.url("/slow?ms=100")).send(),
        h2.get(app.url("/users/9")).send()
    );
    assert_eq!(a.expect("sent").status(), 200);
    let missing = b.expect("sent");
    assert_eq!(missing.status(), 404);
    assert_eq!(
        missing.json::<serde_json::Value>().await.expect("json"),
        json!({"error": "User not found"})
    );
}

#[tokio::test]
async fn keep_alive_serves_sequential_requests_on_one_connection() {
    let app = native().await;
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    for path in ["/health", "/users/1", "/health"] {
        let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("write");
        let answer = read_response(&mut stream).await;
        let expected = if path == "/health" { "200" } else { "404" };
        assert_eq!(status_of(&answer), expected, "{answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("connection: close"),
            "{answer}"
        );
    }
}

#[tokio::test]
async fn a_pooled_client_reuses_its_connection() {
    // With room for one connection only, the second request on a kept-alive client is served
    // at once only if it goes over the same connection.
    let app = native_with(crate::api::handlers(), options().max_connections(1)).await;
    let started = Instant::now();
    for _ in 0..3 {
        app.get("/health")
            .await
            .assert(200, json!({"status": "ok"}));
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "requests waited {:?}: the connection was not reused",
        started.elapsed()
    );
}

#[tokio::test]
async fn keep_alive_can_be_turned_off() {
    let app = native_with(crate::api::handlers(), options().keep_alive(false)).await;
    let raw = app.raw(b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n").await;
    assert_eq!(status_of(&raw), "200", "{raw}");
    assert!(
        raw.to_ascii_lowercase().contains("connection: close"),
        "{raw}"
    );
}

/// A client that sends its whole request before reading (as curl and most scripts do) gets
/// the 413 of a body the server refused before reading it (a `Content-Length` over the
/// limit): the server reads and drops the rest before it closes (a lingering close, bounded
/// in time and bytes), instead of resetting the connection under the client's writes.
async fn a_refused_body_still_being_sent_gets_its_answer(app: &support::TestServer) {
    // Past what the sockets' buffers hold, under the lingering close's 16 MiB.
    let body = vec![b'x'; 8 * 1024 * 1024];
    let head = format!(
        "POST /users HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream.write_all(head.as_bytes()).await.expect("head sent");
    let sent = stream.write_all(&body).await;
    assert!(sent.is_ok(), "the body's writes were refused: {sent:?}");
    let answer = read_to_close(&mut stream, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"Payload too large"}"#),
        "{answer}"
    );
}

#[tokio::test]
async fn a_refused_body_still_being_sent_gets_its_answer_native() {
    a_refused_body_still_being_sent_gets_its_answer(&native().await).await;
}

#[tokio::test]
async fn a_refused_body_still_being_sent_gets_its_answer_warp() {
    a_refused_body_still_being_sent_gets_its_answer(&support::warp().await).await;
}

/// An HTTP/2 connection keeps its `max_connections` slot after it moves to a task of its own
/// (once its preface is read), and gives it back when it ends.
#[tokio::test]
async fn an_h2c_connection_holds_its_connection_slot_until_it_ends() {
    let app = native_with(crate::api::handlers(), options().max_connections(1)).await;
    let tcp = TcpStream::connect(app.addr).await.expect("connect");
    let (client, connection) = h2::client::handshake(tcp).await.expect("handshake");
    let driver = tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut client = client.ready().await.expect("ready");
    let request = pactum::http::Request::get(app.url("/health"))
        .body(())
        .expect("request");
    let (answer, _) = client.send_request(request, true).expect("sent");
    assert_eq!(answer.await.expect("answered").status(), 200);

    // The slot is held: a second connection waits.
    let mut second = TcpStream::connect(app.addr).await.expect("connect");
    second.write_all(HEALTH).await.expect("write");
    let mut buf = [0u8; 64];
    let waited = tokio::time::timeout(Duration::from_millis(500), second.read(&mut buf)).await;
    assert!(
        waited.is_err(),
        "served while the h2c connection held the only slot"
    );

    // The h2c connection ends: the slot is given back, the waiting one served.
    drop(client);
    driver.abort();
    let answer = read_to_close(&mut second, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
}
