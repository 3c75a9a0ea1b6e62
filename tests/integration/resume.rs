//! Resumable event streams, on every adapter: the fixture's `/events` resumes after the
//! client's `Last-Event-ID` and answers 204 when nothing follows it; the typed client resumes a
//! stream whose connection broke, so that each event arrives once, and stops on a 204, on a
//! clean end, or after its bounded attempts.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use pactum::error::BoxError;
use pactum::{handler, handler::AnyHandler, route, sse::Event, sse::Events, Ctx, Endpoint};
use pactum_client::{Client, Reconnect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use crate::api::{events, EventsQuery, Tick};
use crate::support::{native_with, options, warp_own_server_with, warp_with, TestServer};

/// The answer's text with `Last-Event-ID: id`.
async fn resumed(app: &TestServer, path: &str, id: &str) -> crate::support::Answer {
    let request = app.client.get(app.url(path)).header("last-event-id", id);
    app.send(request).await
}

fn ticks(ids: std::ops::RangeInclusive<u32>) -> String {
    ids.map(|n| format!("id: {n}\ndata: {{\"n\":{n}}}\n\n"))
        .collect()
}

pub async fn resumes_after_the_last_event_id(app: &TestServer) {
    let answer = resumed(app, "/events?count=5", "2").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.headers["content-type"], "text/event-stream");
    assert_eq!(answer.text, ticks(3..=5));

    let answer = resumed(app, "/events?count=5", "4").await;
    assert_eq!(answer.text, ticks(5..=5));
}

pub async fn nothing_after_the_last_event_id_is_a_204(app: &TestServer) {
    for id in ["3", "4", "4294967295"] {
        let answer = resumed(app, "/events?count=3", id).await;
        assert_eq!(answer.status, 204, "Last-Event-ID: {id}");
        assert_eq!(answer.text, "", "no body");
        assert!(!answer.headers.contains_key("content-type"), "{id}");
        assert!(!answer.headers.contains_key("content-length"), "{id}");
    }
}

pub async fn an_id_that_is_not_a_number_starts_over(app: &TestServer) {
    for id in ["abc", "-1", "1.5", "", "2 "] {
        let answer = resumed(app, "/events?count=3", id).await;
        assert_eq!(answer.status, 200, "Last-Event-ID: {id:?}");
        // hyper and warp trim a value's trailing spaces: "2 " is "2".
        let expected = if id == "2 " {
            ticks(3..=3)
        } else {
            ticks(1..=3)
        };
        assert_eq!(answer.text, expected, "Last-Event-ID: {id:?}");
    }
    // The query is checked first: a bad count is still a 400.
    let answer = resumed(app, "/events?count=0", "2").await;
    assert_eq!(answer.status, 400);
}

pub async fn the_typed_client_sends_and_stops_on_204(app: &TestServer) {
    let client = Client::new(app.url("").as_str()).expect("valid base URL");
    let stream = client
        .call(&events())
        .query(EventsQuery { count: 3 })
        .header("last-event-id", "1")
        .send()
        .await
        .expect("the stream starts");
    let ids: Vec<String> = stream
        .map(|event| event.expect("decodes").id().unwrap_or_default().to_owned())
        .collect()
        .await;
    assert_eq!(ids, ["2", "3"]);

    let answer = client
        .call(&events())
        .query(EventsQuery { count: 3 })
        .header("last-event-id", "3")
        .send_full()
        .await
        .expect("a 204 is an empty stream");
    assert_eq!(answer.status(), 204);
    assert_eq!(answer.into_value().count().await, 0);
}

on_every_adapter!(
    resumes_after_the_last_event_id,
    nothing_after_the_last_event_id_is_a_204,
    an_id_that_is_not_a_number_starts_over,
    the_typed_client_sends_and_stops_on_204
);

/// What the `/flaky` server saw: each request's `Last-Event-ID`; and when to cut the first
/// connection (once the client has read event 3).
#[derive(Default)]
struct Flaky {
    seen: Mutex<Vec<Option<String>>>,
    cut: Notify,
}

/// `GET /flaky`: events 1 to 6 with ids, resumed after `Last-Event-ID`; the first answer breaks
/// off after event 3, once the client has read it (the connection is cut: a broken stream, not
/// its end).
fn flaky(flaky: &Arc<Flaky>) -> AnyHandler {
    let endpoint = Endpoint::get(route!("/flaky"))
        .response::<Events<Tick>>()
        .build()
        .expect("valid contract");
    let flaky = Arc::clone(flaky);
    handler(endpoint, move |ctx: Ctx| {
        let flaky = Arc::clone(&flaky);
        async move {
            let first = {
                let mut seen = flaky.seen.lock().unwrap();
                seen.push(ctx.last_event_id().map(str::to_owned));
                seen.len() == 1
            };
            let after: u32 = ctx
                .last_event_id()
                .and_then(|id| id.parse().ok())
                .unwrap_or(0);
            if after >= 6 {
                return Ok(Events::finished());
            }
            let events = futures_util::stream::iter(after + 1..=6).then(move |n| {
                let flaky = Arc::clone(&flaky);
                async move {
                    if n == 4 && first {
                        flaky.cut.notified().await;
                        return Err(BoxError::from("the connection is cut here"));
                    }
                    // The server asks for a quick reconnection.
                    Ok(Event::new(Tick { n })
                        .with_id(n.to_string())
                        .with_retry(Duration::from_millis(5)))
                }
            });
            Ok(Events::try_new(events))
        }
    })
    .into()
}

/// The typed client reads `/flaky` once: each event once, in order, after one reconnection
/// that sent `Last-Event-ID: 3`.
async fn each_event_once_after_a_broken_connection(app: TestServer, flaky: &Flaky) {
    let client = Client::builder()
        .base_url(app.url("").as_str())
        .reconnect(Reconnect::new().with_delay(Duration::from_secs(30)))
        .build()
        .expect("client");
    let endpoint = Endpoint::get(route!("/flaky"))
        .response::<Events<Tick>>()
        .build()
        .expect("valid contract");
    let mut stream = client
        .call(&endpoint)
        .send()
        .await
        .expect("the stream starts");
    let read = async {
        let mut received = Vec::new();
        while let Some(event) = stream.next().await {
            let n = event.expect("each event decodes").data().n;
            if n == 3 {
                flaky.cut.notify_one();
            }
            received.push(n);
        }
        received
    };
    let received = tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("the server's retry: (5 ms) is honoured, not the policy's 30 s");
    assert_eq!(received, [1, 2, 3, 4, 5, 6]);
    assert_eq!(*flaky.seen.lock().unwrap(), [None, Some("3".to_owned())]);
}

#[tokio::test]
async fn native_the_typed_client_resumes_a_broken_stream() {
    let flaky_app = Arc::default();
    let app = native_with(vec![flaky(&flaky_app)], options()).await;
    each_event_once_after_a_broken_connection(app, &flaky_app).await;
}

#[tokio::test]
async fn warp_the_typed_client_resumes_a_broken_stream() {
    let flaky_app = Arc::default();
    let app = warp_with(vec![flaky(&flaky_app)]).await;
    each_event_once_after_a_broken_connection(app, &flaky_app).await;
}

#[tokio::test]
async fn warp_own_server_the_typed_client_resumes_a_broken_stream() {
    let flaky_app = Arc::default();
    let app = warp_own_server_with(vec![flaky(&flaky_app)]).await;
    each_event_once_after_a_broken_connection(app, &flaky_app).await;
}

/// Reads a request head; its `Last-Event-ID`, if any.
async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).await.expect("read"),
            1,
            "a whole head"
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).expect("ASCII head");
    head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("last-event-id")
            .then(|| value.trim().to_owned())
    })
}

const STREAM_HEAD: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\
    transfer-encoding: chunked\r\n\r\n";

/// `text` as one chunk of a chunked body.
fn chunk(text: &str) -> Vec<u8> {
    format!("{:x}\r\n{text}\r\n", text.len()).into_bytes()
}

/// A raw server: the first connection sends event 1 and half of event 2, then is cut; the
/// second (which must carry `Last-Event-ID: 1`) sends events 2 and 3 and is cut again; the
/// third (`Last-Event-ID: 3`) gets a 204. The client gets 1, 2, 3 once each: half an event is
/// never handed out.
#[tokio::test]
async fn a_half_sent_event_is_dropped_and_a_204_ends_the_resumed_stream() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("bound");
    let server = tokio::spawn(async move {
        let mut ids = Vec::new();
        for answer in 0..3 {
            let (mut stream, _) = listener.accept().await.expect("accept");
            ids.push(read_head(&mut stream).await);
            let bytes = match answer {
                0 => [
                    STREAM_HEAD,
                    &chunk("id: 1\ndata: {\"n\":1}\n\nid: 2\ndata: {\"n\""),
                ]
                .concat(),
                1 => [STREAM_HEAD, &chunk(&ticks(2..=3))].concat(),
                _ => b"HTTP/1.1 204 No Content\r\n\r\n".to_vec(),
            };
            stream.write_all(&bytes).await.expect("write");
            // Cut: no last chunk.
            drop(stream);
        }
        ids
    });
    let client = Client::builder()
        .base_url(format!("http://{addr}").as_str())
        .reconnect(Reconnect::new().with_delay(Duration::from_millis(5)))
        .build()
        .expect("client");
    let stream = client
        .call(&events())
        .query(EventsQuery { count: 3 })
        .send()
        .await
        .expect("the stream starts");
    let received: Vec<u32> = stream
        .map(|event| event.expect("each event decodes").data().n)
        .collect()
        .await;
    assert_eq!(received, [1, 2, 3]);
    let ids = server.await.expect("server task");
    assert_eq!(ids, [None, Some("1".to_owned()), Some("3".to_owned())]);
}

/// A raw server that sends one event, cuts the connection, and is gone: the client tries
/// `retries` times, then yields the error and ends. With `Reconnect::never()` it does not try.
#[tokio::test]
async fn the_attempts_are_bounded() {
    for (policy, attempts) in [
        (Reconnect::new(), 3),
        (Reconnect::never(), 0),
        (Reconnect::new().with_retries(1), 1),
    ] {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("bound");
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.expect("accept");
            read_head(&mut stream).await;
            let bytes = [STREAM_HEAD, &chunk(&ticks(1..=1))].concat();
            stream.write_all(&bytes).await.expect("write");
            drop(stream);
            // Later attempts: the connection cut before any byte of an answer. Each one the
            // client made was accepted before it saw it fail, so before `stop`.
            let mut later = 0;
            loop {
                tokio::select! {
                    biased;
                    accepted = listener.accept() => {
                        later += 1;
                        drop(accepted.expect("accept"));
                    }
                    _ = &mut stopped => break later,
                }
            }
        });
        let client = Client::builder()
            .base_url(format!("http://{addr}").as_str())
            .reconnect(policy.with_delay(Duration::from_millis(5)))
            .build()
            .expect("client");
        let mut stream = client
            .call(&events())
            .query(EventsQuery { count: 3 })
            .send()
            .await
            .expect("the stream starts");
        let first = stream.next().await.expect("one event").expect("decodes");
        assert_eq!(first.data().n, 1);
        let error = stream
            .next()
            .await
            .expect("then an error")
            .expect_err("broken");
        assert!(stream.next().await.is_none(), "and the end");
        let error = error.to_string();
        if attempts > 0 {
            assert!(error.contains(&format!("{attempts} attempts")), "{error}");
        } else {
            assert!(error.contains("broke"), "{error}");
        }
        stop.send(()).expect("the server waits");
        assert_eq!(server.await.expect("server task"), attempts);
    }
}
