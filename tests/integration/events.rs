//! Row 19 of the conformance fixture, server-sent events, on every adapter; then what a stream
//! does when its client goes away, when the server shuts down, and while it is silent.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use pactum::{handler, handler::AnyHandler, route, sse::Event, sse::Events, Endpoint};
use serde_json::json;

use crate::api::{events, EventsQuery, Tick};
use crate::support::{eventually, native_with, options, warp_with, TestServer};

pub async fn streams_count_events_then_ends(app: &TestServer) {
    let answer = app.get("/events?count=3").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.headers["content-type"], "text/event-stream");
    assert_eq!(answer.headers["cache-control"], "no-cache");
    assert_eq!(
        answer.text,
        "id: 1\ndata: {\"n\":1}\n\nid: 2\ndata: {\"n\":2}\n\nid: 3\ndata: {\"n\":3}\n\n"
    );
}

pub async fn a_bad_count_is_a_json_400(app: &TestServer) {
    for path in ["/events?count=0", "/events?count=101"] {
        let answer = app.get(path).await;
        assert_eq!(answer.headers["content-type"], "application/json", "{path}");
        answer.assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["count"], "message": "must be between 1 and 100"},
            ]}),
        );
    }
    let missing = app.get("/events").await;
    assert_eq!(missing.status, 400);
    assert_eq!(missing.json()["details"][0]["path"], json!(["count"]));
}

pub async fn the_typed_client_reads_typed_events(app: &TestServer) {
    let client = pactum_client::Client::new(app.url("").as_str()).expect("valid base URL");
    let stream = client
        .call(&events())
        .query(EventsQuery { count: 5 })
        .send()
        .await
        .expect("the stream starts");
    let received: Vec<Event<Tick>> = stream
        .map(|event| event.expect("each event decodes"))
        .collect()
        .await;
    let expected: Vec<Event<Tick>> = (1..=5)
        .map(|n| Event::new(Tick { n }).with_id(n.to_string()))
        .collect();
    assert_eq!(received, expected);

    let refused = client
        .call(&events())
        .query(EventsQuery { count: 0 })
        .send()
        .await
        .expect_err("refused before sending");
    assert!(refused.is_validation(), "{refused:?}");
}

on_every_adapter!(
    streams_count_events_then_ends,
    a_bad_count_is_a_json_400,
    the_typed_client_reads_typed_events
);

/// Counts the streams alive: one is counted from its first poll until it is dropped.
#[derive(Clone, Default)]
struct Open(Arc<AtomicUsize>);

struct Alive(Open);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0 .0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Open {
    fn now(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Waits (up to 5 s) until no stream is alive.
    async fn until_none(&self) {
        assert!(
            eventually(Duration::from_secs(5), || self.now() == 0).await,
            "{} event streams still open",
            self.now()
        );
    }
}

/// `GET /ticks`: an event every `every` (as fast as it is read with zero), forever, counted
/// in `open`; keep-alive comments after `keep_alive` of silence.
fn ticks(open: &Open, every: Duration, keep_alive: Duration) -> AnyHandler {
    let endpoint = Endpoint::get(route!("/ticks"))
        .response::<Events<Tick>>()
        .build()
        .expect("valid contract");
    let open = open.clone();
    handler(endpoint, move |_| {
        let open = open.clone();
        async move {
            open.0.fetch_add(1, Ordering::SeqCst);
            let alive = Alive(open);
            let ticks = futures_util::stream::unfold((alive, 0), move |(alive, n)| async move {
                if n > 0 && !every.is_zero() {
                    // The stream's pace, the behaviour under test.
                    tokio::time::sleep(every).await;
                }
                Some((Event::new(Tick { n }), (alive, n + 1)))
            });
            Ok(Events::new(ticks).keep_alive(Some(keep_alive)))
        }
    })
    .into()
}

/// Reads chunks of `response` until one holds `needle`.
async fn read_until(response: &mut reqwest::Response, needle: &str) {
    let mut seen = String::new();
    while !seen.contains(needle) {
        let chunk = tokio::time::timeout(Duration::from_secs(5), response.chunk())
            .await
            .expect("a chunk in time")
            .expect("the stream reads")
            .expect("the stream goes on");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
}

/// A stream ticking every 10 ms, served by `serve`: a client reads its first events, leaves,
/// and the stream is dropped (three times), and the server goes on serving.
async fn a_client_that_leaves_drops_the_stream<F, Fut>(serve: F)
where
    F: FnOnce(Vec<AnyHandler>) -> Fut,
    Fut: std::future::Future<Output = TestServer>,
{
    let open = Open::default();
    let every = Duration::from_millis(10);
    let app = serve(vec![ticks(&open, every, Duration::from_secs(15))]).await;
    for _ in 0..3 {
        let mut response = app.client.get(app.url("/ticks")).send().await.unwrap();
        read_until(&mut response, "data: {\"n\":1}").await;
        assert_eq!(open.now(), 1);
        drop(response);
        open.until_none().await;
    }
    assert_eq!(app.get("/missing").await.status, 404);
}

#[tokio::test]
async fn native_drops_the_stream_of_a_client_that_leaves() {
    a_client_that_leaves_drops_the_stream(|handlers| native_with(handlers, options())).await;
}

/// With `http1_half_close` the server does not read the connection while the stream is
/// open: the client's leaving is found by the stream's next write, and the stream dropped.
#[tokio::test]
async fn with_half_close_the_stream_of_a_client_that_leaves_is_dropped_at_its_next_write() {
    a_client_that_leaves_drops_the_stream(|handlers| {
        native_with(handlers, options().http1_half_close(true))
    })
    .await;
}

/// A stream silent for longer than the test (an event and a keep-alive comment every 30 s)
/// is dropped as soon as its client leaves, not at its next write: the native server watches
/// the connection while the stream waits.
#[tokio::test]
async fn native_drops_a_silent_stream_as_soon_as_its_client_leaves() {
    let open = Open::default();
    let every = Duration::from_secs(30);
    let app = native_with(vec![ticks(&open, every, every)], options()).await;
    let mut response = app.client.get(app.url("/ticks")).send().await.unwrap();
    read_until(&mut response, "data: {\"n\":0}").await;
    assert_eq!(open.now(), 1);
    drop(response);
    open.until_none().await;
    assert_eq!(app.get("/missing").await.status, 404);
}

#[tokio::test]
async fn warp_drops_the_stream_of_a_client_that_leaves() {
    a_client_that_leaves_drops_the_stream(warp_with).await;
}

#[tokio::test]
async fn a_graceful_shutdown_ends_open_streams_cleanly() {
    let open = Open::default();
    let handlers = vec![ticks(
        &open,
        Duration::from_millis(50),
        Duration::from_secs(15),
    )];
    let (addr, server, client) = native_with(handlers, options()).await.into_parts();
    let mut responses = Vec::new();
    for _ in 0..2 {
        let mut response = client
            .get(format!("http://{addr}/ticks"))
            .send()
            .await
            .unwrap();
        read_until(&mut response, "data: {\"n\":0}").await;
        responses.push(response);
    }
    assert_eq!(open.now(), 2);
    let shutdown = tokio::spawn(server.shutdown());
    for mut response in responses {
        // The answer ends as a stream ends (the chunked body's last chunk), not broken off.
        let rest = tokio::time::timeout(Duration::from_secs(5), async {
            let mut rest = Vec::new();
            while let Some(chunk) = response.chunk().await.expect("ends cleanly") {
                rest.extend_from_slice(&chunk);
            }
            rest
        })
        .await
        .expect("the stream ends at shutdown");
        assert!(rest.ends_with(b"\n\n") || rest.is_empty(), "{rest:?}");
    }
    let all_closed = tokio::time::timeout(Duration::from_secs(10), shutdown)
        .await
        .expect("shutdown finishes")
        .expect("shutdown task");
    assert!(all_closed, "every connection closed before the deadline");
    open.until_none().await;
}

#[tokio::test]
async fn a_silent_stream_gets_keep_alive_comments() {
    let open = Open::default();
    // One event, then silence far longer than the keep-alive period.
    let handlers = vec![ticks(
        &open,
        Duration::from_secs(60),
        Duration::from_millis(50),
    )];
    let app = native_with(handlers, options()).await;
    let mut response = app.client.get(app.url("/ticks")).send().await.unwrap();
    read_until(&mut response, "data: {\"n\":0}\n\n").await;
    for _ in 0..2 {
        read_until(&mut response, ":\n\n").await;
    }
    drop(response);
    open.until_none().await;
}

/// A client that asks for an endless stream, then stops reading: once the server's buffers
/// towards it are full, the stream waits on the peer, and that wait is timed like an idle
/// keep-alive connection (the header read timeout): the connection is closed and the stream
/// dropped, on both adapters — it does not hold its connection (and a file descriptor) for
/// ever.
#[tokio::test]
async fn a_stream_whose_client_stops_reading_is_dropped_at_its_send_deadline() {
    use ::warp::Filter;
    use tokio::io::AsyncWriteExt;
    let deadline = Duration::from_millis(300);
    for adapter in ["native", "warp"] {
        let open = Open::default();
        let handlers = vec![ticks(&open, Duration::ZERO, Duration::from_secs(15))];
        let options = options().header_read_timeout(deadline);
        let server = match adapter {
            "native" => pactum::serve(handlers, options).await.expect("starts"),
            _ => {
                let pipeline = pactum::Pipeline::new(handlers).expect("valid handler list");
                let filter = pactum_warp::filter_with(pipeline).or(pactum_warp::not_found());
                pactum_warp::serve(filter, options).await.expect("starts")
            }
        };
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .set_recv_buffer_size(4096)
            .expect("a small receive buffer");
        let mut tcp = socket.connect(server.local_addr()).await.expect("connect");
        tcp.write_all(b"GET /ticks HTTP/1.1\r\nhost: localhost\r\n\r\n")
            .await
            .expect("the request goes out");
        assert!(
            eventually(Duration::from_secs(5), || open.now() == 1).await,
            "{adapter}: the stream starts"
        );
        // Never read: the stream fills the buffers, then waits on the peer.
        open.until_none().await;
        drop(tcp);
        server.shutdown().await;
    }
}
