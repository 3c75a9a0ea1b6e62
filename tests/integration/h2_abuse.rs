//! HTTP/2 abuse over real sockets, on both adapters (the native server, and the warp adapter
//! served by `pactum_warp::serve`): idle connections, zero-window readers, dead peers, stalled
//! bodies, rapid reset, CONTINUATION flood, oversized header lists, the concurrent-stream
//! limit, PING and SETTINGS floods. Short timeouts (300 ms) keep every test well under a
//! second or two; each prints its figures (`--nocapture`).
#![allow(clippy::print_stderr)] // the figures

use std::time::{Duration, Instant};

use pactum::{Pipeline, ServerOptions};
use tokio::net::TcpStream;

use crate::h2_frames::{
    frame, get, goaway, request_block, rst_stream, Frame, Next, Raw, ACK, CANCEL, CONTINUATION,
    DATA, END_HEADERS, ENHANCE_YOUR_CALM, HEADERS, NO_ERROR, PING, REFUSED_STREAM, RST_STREAM,
    SETTINGS, SETTINGS_INITIAL_WINDOW_SIZE,
};
use crate::support;

/// The idle (and header read) timeout of these tests.
const IDLE: Duration = Duration::from_millis(300);

#[derive(Debug, Clone, Copy)]
enum Adapter {
    Native,
    Warp,
}

const BOTH: [Adapter; 2] = [Adapter::Native, Adapter::Warp];

fn app() -> Pipeline {
    Pipeline::new(crate::api::handlers()).expect("valid handler list")
}

fn short() -> ServerOptions {
    support::options().header_read_timeout(IDLE)
}

async fn start(
    adapter: Adapter,
    pipeline: Pipeline,
    options: ServerOptions,
) -> pactum::server::Server {
    use warp::Filter;
    match adapter {
        Adapter::Native => pactum::serve(pipeline, options).await.expect("starts"),
        Adapter::Warp => {
            let app = pactum_warp::filter_with(pipeline).or(pactum_warp::not_found());
            pactum_warp::serve(app, options).await.expect("starts")
        }
    }
}

async fn raw(server: &pactum::server::Server, settings: &[(u16, u32)]) -> Raw<TcpStream> {
    let tcp = TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    Raw::open(tcp, settings).await
}

/// Reads the server's SETTINGS and acknowledges them; returns their payload.
async fn handshake(raw: &mut Raw<TcpStream>) -> Vec<u8> {
    loop {
        match raw.next(Duration::from_secs(2)).await {
            Next::Frame(f) if f.kind == SETTINGS && f.flags & ACK == 0 => {
                assert!(raw.send(&frame(SETTINGS, ACK, 0, &[])).await);
                return f.payload;
            }
            Next::Frame(_) => {}
            other => panic!("no SETTINGS from the server: {other:?}"),
        }
    }
}

/// Samples [`rss_kib`] every 10 ms until the returned sender is dropped; resolves to the
/// highest value seen.
fn rss_peak() -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<u64>,
) {
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let peak = tokio::spawn(async move {
        let mut peak = support::rss_kib();
        loop {
            tokio::select! {
                _ = &mut stopped => return peak.max(support::rss_kib()),
                // The sampling period, not a wait for the server.
                _ = tokio::time::sleep(Duration::from_millis(10)) => peak = peak.max(support::rss_kib()),
            }
        }
    });
    (stop, peak)
}

fn kinds(frames: &[(Duration, Frame)]) -> Vec<(u8, u32)> {
    frames.iter().map(|(_, f)| (f.kind, f.stream)).collect()
}

// ---------------------------------------------------------------------------------------
// Idle connections.
// ---------------------------------------------------------------------------------------

/// The preface and SETTINGS, then nothing: a GOAWAY at the idle timeout; the client does not
/// answer its PING, so the socket is closed one idle timeout later.
#[tokio::test]
async fn a_silent_h2_connection_gets_a_goaway_at_the_idle_timeout_then_is_closed() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        let (frames, closed) = raw.until_closed(Duration::from_secs(5)).await;
        let (at, away) = goaway(&frames).expect("a GOAWAY");
        assert_eq!(away.code(), NO_ERROR, "{adapter:?}");
        assert!(
            at >= IDLE * 9 / 10 && at < IDLE * 3,
            "{adapter:?}: GOAWAY after {at:?}"
        );
        assert!(
            closed >= at && closed < IDLE * 5,
            "{adapter:?}: closed after {closed:?}"
        );
        eprintln!("{adapter:?}: silent h2 connection: GOAWAY at {at:?}, closed at {closed:?}");
    }
}

/// A HEADERS frame never finished (no END_HEADERS, no CONTINUATION): no stream is open
/// yet, so the connection is idle: a GOAWAY at the idle timeout, then closed.
#[tokio::test]
async fn an_unfinished_header_block_is_closed_as_idle() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        let block = request_block("GET", "/health", &[]);
        assert!(raw.send(&frame(HEADERS, 0, 1, &block)).await);
        let (frames, closed) = raw.until_closed(Duration::from_secs(5)).await;
        let (at, _) = goaway(&frames).expect("a GOAWAY");
        assert!(at >= IDLE * 9 / 10, "{adapter:?}: GOAWAY at {at:?}");
        assert!(closed < IDLE * 5, "{adapter:?}: closed after {closed:?}");
        assert!(
            !frames.iter().any(|(_, f)| f.kind == HEADERS),
            "{adapter:?}: answered"
        );
        eprintln!("{adapter:?}: unfinished HEADERS: GOAWAY at {at:?}, closed at {closed:?}");
    }
}

/// A client that answers the GOAWAY's PING (the `h2` crate) is closed at the idle timeout,
/// counted from its last answer.
#[tokio::test]
async fn an_h2_client_idle_after_its_request_is_closed_at_the_idle_timeout() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let tcp = TcpStream::connect(server.local_addr())
            .await
            .expect("connect");
        let (mut client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        let connection = tokio::spawn(async move {
            let _ = connection.await;
            Instant::now()
        });
        // Slower than the idle timeout: a stream being worked on is never idle.
        let request = http::Request::get("http://localhost/slow?ms=500")
            .body(())
            .expect("request");
        let (response, _) = client.send_request(request, true).expect("sent");
        let response = response.await.expect("answered");
        assert_eq!(response.status(), 200, "{adapter:?}");
        let mut body = response.into_body();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.expect("body");
            let _ = body.flow_control().release_capacity(chunk.len());
        }
        let answered = Instant::now();
        let closed = tokio::time::timeout(Duration::from_secs(5), connection)
            .await
            .expect("closed within 5 s")
            .expect("connection task");
        let idle = closed - answered;
        assert!(
            idle >= IDLE * 8 / 10 && idle < IDLE * 2,
            "{adapter:?}: closed {idle:?} after its answer"
        );
        drop(client);
        eprintln!("{adapter:?}: h2 client idle after its answer: closed after {idle:?}");
    }
}

/// The filed attack: hundreds of connections that send the preface and SETTINGS, then
/// nothing. All are closed; a new client is served.
#[tokio::test]
async fn hundreds_of_idle_h2_connections_are_all_closed() {
    const CONNECTIONS: usize = 300;
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let addr = server.local_addr();
        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..CONNECTIONS {
            tasks.push(tokio::spawn(async move {
                let tcp = TcpStream::connect(addr).await.expect("connect");
                let mut raw = Raw::open(tcp, &[]).await;
                raw.until_closed(Duration::from_secs(5)).await.1
            }));
        }
        let mut slowest = Duration::ZERO;
        for task in tasks {
            slowest = slowest.max(task.await.expect("task"));
        }
        let all = started.elapsed();
        assert!(
            slowest < IDLE * 5,
            "{adapter:?}: the last closed after {slowest:?}"
        );
        support::install_crypto();
        let client = reqwest::Client::builder()
            .http2_prior_knowledge()
            .build()
            .expect("client");
        let answer = client
            .get(format!("http://{addr}/health"))
            .send()
            .await
            .expect("served");
        assert_eq!(answer.status(), 200);
        eprintln!(
            "{adapter:?}: {CONNECTIONS} idle h2 connections: all closed by {slowest:?} \
             ({all:?} from the first connect)"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Zero-window readers and dead peers.
// ---------------------------------------------------------------------------------------

/// A client that never opens its flow-control window gets its response headers, never its
/// body — a one-piece answer's or a stream's (an event stream, whose body is never asked for a
/// frame): the stream waits on the peer from its headers on, so the connection counts as idle
/// (the send deadline is the idle timeout), gets a GOAWAY at the idle timeout and is closed
/// one idle timeout later, its buffers freed.
#[tokio::test]
async fn a_zero_window_reader_is_closed_at_the_send_deadline() {
    for (adapter, path) in BOTH
        .into_iter()
        .flat_map(|adapter| [(adapter, "/health"), (adapter, "/events?count=100")])
    {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[(SETTINGS_INITIAL_WINDOW_SIZE, 0)]).await;
        handshake(&mut raw).await;
        assert!(raw.send(&get(1, path)).await);
        let (frames, closed) = raw.until_closed(Duration::from_secs(5)).await;
        let headers = frames
            .iter()
            .find(|(_, f)| f.kind == HEADERS && f.stream == 1)
            .map(|(at, _)| *at)
            .expect("the response headers");
        assert!(
            !frames
                .iter()
                .any(|(_, f)| f.kind == DATA && !f.payload.is_empty()),
            "{adapter:?} {path}: no body through a zero window: {:?}",
            kinds(&frames)
        );
        let (at, away) = goaway(&frames).expect("a GOAWAY");
        assert_eq!(away.code(), NO_ERROR, "{adapter:?} {path}");
        assert!(
            at - headers >= IDLE * 9 / 10 && at - headers < IDLE * 3,
            "{adapter:?} {path}: GOAWAY at {at:?}, headers at {headers:?}"
        );
        assert!(
            closed < IDLE * 6,
            "{adapter:?} {path}: closed after {closed:?}"
        );
        eprintln!(
            "{adapter:?} {path}: zero-window reader: headers at {headers:?}, GOAWAY at {at:?}, \
             closed at {closed:?}"
        );
    }
}

/// A reader that opens its window a little at a time, more often than the idle timeout,
/// makes progress: its stream is not cut at the send deadline, however long it lasts.
#[tokio::test]
async fn a_slow_reader_that_keeps_reading_is_not_cut() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[(SETTINGS_INITIAL_WINDOW_SIZE, 0)]).await;
        handshake(&mut raw).await;
        assert!(raw.send(&get(1, "/events?count=20")).await);
        let started = Instant::now();
        let mut body = Vec::new();
        let mut ended = false;
        // 40 bytes of window every IDLE / 3: the 20 events (~460 bytes) take ~4 idle timeouts.
        while !ended {
            assert!(
                started.elapsed() < IDLE * 20,
                "{adapter:?}: not done after {:?}: {:?}",
                started.elapsed(),
                String::from_utf8_lossy(&body)
            );
            let update = crate::h2_frames::window_update(1, 40);
            assert!(raw.send(&update).await, "{adapter:?}: closed while reading");
            let until = Instant::now() + IDLE / 3;
            loop {
                match raw
                    .next(until.saturating_duration_since(Instant::now()))
                    .await
                {
                    Next::Frame(f) if f.kind == DATA && f.stream == 1 => {
                        body.extend_from_slice(&f.payload);
                        ended = f.flags & crate::h2_frames::END_STREAM != 0;
                    }
                    Next::Frame(f) => assert_ne!(f.kind, crate::h2_frames::GOAWAY, "{adapter:?}"),
                    Next::Quiet => break,
                    Next::Closed => panic!("{adapter:?}: closed while the client reads"),
                }
            }
        }
        let text = String::from_utf8(body).expect("UTF-8");
        assert!(
            text.ends_with("id: 20\ndata: {\"n\":20}\n\n"),
            "{adapter:?}: {text}"
        );
        assert!(
            started.elapsed() > IDLE * 2,
            "{adapter:?}: the window paced it"
        );
    }
}

/// Many zero-window streams (20 connections × 100 streams): all closed, the memory they
/// held given back to the allocator.
#[tokio::test]
async fn thousands_of_zero_window_streams_are_closed() {
    const CONNECTIONS: u32 = 20;
    const STREAMS: u32 = 100;
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let addr = server.local_addr();
        let before = support::rss_kib();
        let (stop, peak) = rss_peak();
        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..CONNECTIONS {
            tasks.push(tokio::spawn(async move {
                let tcp = TcpStream::connect(addr).await.expect("connect");
                let mut raw = Raw::open(tcp, &[(SETTINGS_INITIAL_WINDOW_SIZE, 0)]).await;
                let mut burst = Vec::new();
                for i in 0..STREAMS {
                    burst.extend(get(1 + 2 * i, "/users?limit=100"));
                }
                assert!(raw.send(&burst).await);
                let (frames, closed) = raw.until_closed(Duration::from_secs(5)).await;
                let answered = frames.iter().filter(|(_, f)| f.kind == HEADERS).count();
                (answered, closed)
            }));
        }
        let mut slowest = Duration::ZERO;
        let mut answered = 0;
        for task in tasks {
            let (n, closed) = task.await.expect("task");
            answered += n;
            slowest = slowest.max(closed);
        }
        drop(stop);
        let peak = peak.await.expect("sampler");
        // Every connection's task has ended once the shutdown returns: then the figure after.
        server.shutdown().await;
        let after = support::rss_kib();
        assert_eq!(answered, (CONNECTIONS * STREAMS) as usize, "{adapter:?}");
        assert!(
            slowest < IDLE * 6,
            "{adapter:?}: the last closed after {slowest:?}"
        );
        eprintln!(
            "{adapter:?}: {} zero-window streams: all closed by {slowest:?} ({:?} in all); \
             RSS {before} KiB before, {peak} KiB while open, {after} KiB after",
            CONNECTIONS * STREAMS,
            started.elapsed()
        );
    }
}

/// A peer that stops answering (its PINGs unanswered) while a stream is in flight is taken
/// for dead at the keep-alive timeout, long before the handler would answer.
#[tokio::test]
async fn a_dead_peer_is_detected_by_the_keep_alive_ping() {
    let keep_alive = Duration::from_millis(200);
    for adapter in BOTH {
        let options = short()
            .http2_keep_alive_interval(keep_alive)
            .http2_keep_alive_timeout(keep_alive);
        let server = start(adapter, app(), options).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        assert!(raw.send(&get(1, "/slow?ms=5000")).await);
        let (frames, closed) = raw.until_closed(Duration::from_secs(4)).await;
        let ping = frames
            .iter()
            .find(|(_, f)| f.kind == PING && f.flags & ACK == 0)
            .map(|(at, _)| *at)
            .expect("a keep-alive PING");
        assert!(
            !frames.iter().any(|(_, f)| f.kind == HEADERS),
            "{adapter:?}: closed before the answer"
        );
        assert!(
            closed >= keep_alive && closed < keep_alive * 6,
            "{adapter:?}: closed after {closed:?}"
        );
        eprintln!("{adapter:?}: dead peer: PING at {ping:?}, closed at {closed:?}");
    }
}

/// By default the server sends no keep-alive PING (dead peers are TCP keep-alive's): a
/// connection that stays silent through a slow request, its answer and the idle timeout
/// sees its answer, then the GOAWAY; the one PING is the graceful close's own (h2 times the
/// peer's last streams with it, its payload a constant), after the GOAWAY.
#[tokio::test]
async fn no_keep_alive_ping_by_default() {
    /// h2's `SHUTDOWN_PAYLOAD` (`proto::ping_pong`).
    const CLOSING: [u8; 8] = [0x0b, 0x7b, 0xa2, 0xf0, 0x8b, 0x9b, 0xfe, 0x54];
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        assert!(raw.send(&get(1, "/slow?ms=1200")).await);
        let (frames, _) = raw.until_closed(Duration::from_secs(5)).await;
        assert!(
            frames
                .iter()
                .any(|(_, f)| f.kind == HEADERS && f.stream == 1),
            "{adapter:?}: no answer"
        );
        let (goaway_at, _) = goaway(&frames).expect("the idle GOAWAY");
        let pings: Vec<_> = frames
            .iter()
            .filter(|(at, f)| f.kind == PING && (*at < goaway_at || f.payload != CLOSING))
            .collect();
        assert!(pings.is_empty(), "{adapter:?}: PINGs {pings:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Requests that never finish: the request timeout (on by default).
// ---------------------------------------------------------------------------------------

#[test]
fn the_request_timeout_is_on_by_default() {
    assert_eq!(
        pactum::pipeline::DEFAULT_REQUEST_TIMEOUT,
        Duration::from_secs(30)
    );
    let builder = Pipeline::builder(crate::api::handlers());
    assert!(
        format!("{builder:?}").contains("request_timeout: Some(30s)"),
        "{builder:?}"
    );
}

fn timed_app() -> Pipeline {
    Pipeline::builder(crate::api::handlers())
        .request_timeout(IDLE)
        .build()
        .expect("valid handler list")
}

/// HEADERS announcing a body that never comes: the JSON 503 at the request timeout.
#[tokio::test]
async fn an_h2_body_that_never_arrives_is_answered_at_the_request_timeout() {
    for adapter in BOTH {
        let server = start(adapter, timed_app(), support::options()).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        let block = request_block(
            "POST",
            "/echo",
            &[
                ("content-type", "application/json"),
                ("content-length", "20"),
            ],
        );
        let sent = Instant::now();
        assert!(raw.send(&frame(HEADERS, END_HEADERS, 1, &block)).await);
        let body = loop {
            match raw.next(Duration::from_secs(3)).await {
                Next::Frame(f) if f.kind == DATA && f.stream == 1 => break f.payload,
                Next::Frame(_) => {}
                other => panic!("{adapter:?}: no answer: {other:?}"),
            }
        };
        let waited = sent.elapsed();
        assert_eq!(
            String::from_utf8_lossy(&body),
            r#"{"error":"Request timeout"}"#,
            "{adapter:?}"
        );
        assert!(
            waited >= IDLE * 9 / 10 && waited < IDLE * 4,
            "{adapter:?}: answered after {waited:?}"
        );
        eprintln!("{adapter:?}: h2 body never sent: 503 after {waited:?}");
    }
}

/// The same over HTTP/1.1: a `Content-Length` whose bytes never come.
#[tokio::test]
async fn an_http1_body_that_never_arrives_is_answered_at_the_request_timeout() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    for adapter in BOTH {
        let server = start(adapter, timed_app(), support::options()).await;
        let mut tcp = TcpStream::connect(server.local_addr())
            .await
            .expect("connect");
        let sent = Instant::now();
        tcp.write_all(
            b"POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
              content-length: 20\r\n\r\n",
        )
        .await
        .expect("write");
        let mut answer = vec![0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(3), tcp.read(&mut answer))
            .await
            .expect("answered within 3 s")
            .expect("read");
        let waited = sent.elapsed();
        let answer = String::from_utf8_lossy(&answer[..n]);
        assert!(answer.starts_with("HTTP/1.1 503"), "{adapter:?}: {answer}");
        assert!(
            answer.ends_with(r#"{"error":"Request timeout"}"#),
            "{adapter:?}: {answer}"
        );
        assert!(
            waited >= IDLE * 9 / 10 && waited < IDLE * 4,
            "{adapter:?}: answered after {waited:?}"
        );
        eprintln!("{adapter:?}: HTTP/1.1 body never sent: 503 after {waited:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Floods h2 cuts off itself: rapid reset, CONTINUATION, oversized header lists, streams
// past the limit.
// ---------------------------------------------------------------------------------------

/// CVE-2023-44487: HEADERS + RST_STREAM in a loop. h2 counts the streams reset before they
/// are accepted (20 by default) and answers GOAWAY ENHANCE_YOUR_CALM.
#[tokio::test]
async fn rapid_reset_is_cut_off_with_a_goaway() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        let mut burst = Vec::new();
        for i in 0..1000u32 {
            let id = 1 + 2 * i;
            burst.extend(get(id, "/slow?ms=1000"));
            burst.extend(rst_stream(id, CANCEL));
        }
        let sent = Instant::now();
        let _ = raw.send(&burst).await; // the server may close before it is all written
        let (frames, _) = raw.until_closed(Duration::from_secs(5)).await;
        let closed = sent.elapsed();
        let (_, away) = goaway(&frames).expect("a GOAWAY");
        assert_eq!(away.code(), ENHANCE_YOUR_CALM, "{adapter:?}");
        let last = u32::from_be_bytes(away.payload[..4].try_into().expect("4 bytes"));
        assert!(
            last < 2 * 100,
            "{adapter:?}: streams up to {last} processed"
        );
        assert!(
            closed < Duration::from_secs(2),
            "{adapter:?}: closed after {closed:?}"
        );
        eprintln!(
            "{adapter:?}: rapid reset: GOAWAY ENHANCE_YOUR_CALM, last stream {last} \
             ({} streams), closed {closed:?} after the burst",
            last.div_ceil(2)
        );
    }
}

/// HEADERS without END_HEADERS, then CONTINUATION frames without end: cut off after a few.
#[tokio::test]
async fn a_continuation_flood_is_cut_off() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        let mut flood = frame(HEADERS, 0, 1, &request_block("GET", "/health", &[]));
        let mut piece = Vec::new();
        crate::h2_frames::field(&mut piece, "x", "y");
        for _ in 0..10_000 {
            flood.extend(frame(CONTINUATION, 0, 1, &piece));
        }
        let sent = Instant::now();
        let _ = raw.send(&flood).await;
        let (frames, _) = raw.until_closed(Duration::from_secs(5)).await;
        let closed = sent.elapsed();
        let (_, away) = goaway(&frames).expect("a GOAWAY");
        assert_eq!(away.code(), ENHANCE_YOUR_CALM, "{adapter:?}");
        assert!(
            closed < Duration::from_secs(2),
            "{adapter:?}: closed after {closed:?}"
        );
        eprintln!(
            "{adapter:?}: CONTINUATION flood: GOAWAY ENHANCE_YOUR_CALM ({:?}), closed \
             {closed:?} after it started",
            String::from_utf8_lossy(&away.payload[8..])
        );
    }
}

/// A header list over the limit (64 KiB decoded, here from a 3 KB field repeated through
/// the HPACK table: an HPACK bomb) is refused: 431, or the stream reset; the connection
/// keeps serving.
#[tokio::test]
async fn an_oversized_header_list_is_refused() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let tcp = TcpStream::connect(server.local_addr())
            .await
            .expect("connect");
        let (mut client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        tokio::spawn(connection);
        let mut request = http::Request::get("http://localhost/health");
        let big = "a".repeat(3000);
        for _ in 0..25 {
            request = request.header("x-big", big.as_str());
        }
        let (response, _) = client
            .send_request(request.body(()).expect("request"), true)
            .expect("sent");
        match response.await {
            Ok(response) => assert_eq!(response.status(), 431, "{adapter:?}"),
            Err(error) => assert_eq!(
                error.reason(),
                Some(h2::Reason::REFUSED_STREAM),
                "{adapter:?}: {error}"
            ),
        }
        let mut client = client.ready().await.expect("the connection still serves");
        let health = http::Request::get("http://localhost/health")
            .body(())
            .expect("request");
        let (response, _) = client.send_request(health, true).expect("sent");
        assert_eq!(response.await.expect("answered").status(), 200);
    }
}

/// The server allows 200 concurrent streams (SETTINGS_MAX_CONCURRENT_STREAMS); a client that
/// opens more gets REFUSED_STREAM for each one past it, and the 200 answered.
#[tokio::test]
async fn streams_past_the_concurrency_limit_are_refused() {
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        let mut raw = raw(&server, &[]).await;
        let settings = handshake(&mut raw).await;
        let max_streams = settings
            .chunks(6)
            .find(|s| s[..2] == [0, 3])
            .map(|s| u32::from_be_bytes(s[2..6].try_into().expect("4 bytes")));
        assert_eq!(max_streams, Some(200), "{adapter:?}");
        let mut burst = Vec::new();
        for i in 0..210u32 {
            burst.extend(get(1 + 2 * i, "/slow?ms=300"));
        }
        assert!(raw.send(&burst).await);
        let (mut answered, mut refused) = (0, 0);
        while answered + refused < 210 {
            match raw.next(Duration::from_secs(5)).await {
                Next::Frame(f) if f.kind == HEADERS => answered += 1,
                Next::Frame(f) if f.kind == RST_STREAM => {
                    assert_eq!(f.code(), REFUSED_STREAM, "{adapter:?}");
                    refused += 1;
                }
                Next::Frame(_) => {}
                other => panic!("{adapter:?}: {answered} answered, {refused} refused: {other:?}"),
            }
        }
        assert_eq!((answered, refused), (200, 10), "{adapter:?}");
    }
}

// ---------------------------------------------------------------------------------------
// PING and SETTINGS floods: cut off past 1,000 within 10 s (h2 has no limit of its own).
// ---------------------------------------------------------------------------------------

/// h2 answers every PING and SETTINGS frame (one pending answer at a time, so memory stays
/// bounded); the server counts them from the frame headers it reads and closes a connection
/// that sends more than 1,000 (acknowledgements aside) within 10 s. A flood of 5,000 is cut
/// off after about 1,000 answers; the server goes on serving other connections. Bounded
/// in count and time; the figures are printed.
#[tokio::test]
async fn ping_and_settings_floods_are_cut_off() {
    const LIMIT: usize = 1_000;
    const BATCH: usize = 100;
    for adapter in BOTH {
        let server = start(adapter, app(), short()).await;
        for (name, kind, payload) in [("PING", PING, &[7u8; 8][..]), ("SETTINGS", SETTINGS, &[])] {
            let mut raw = raw(&server, &[]).await;
            handshake(&mut raw).await;
            let batch = frame(kind, 0, 0, payload).repeat(BATCH);
            let (rss, started) = (support::rss_kib(), Instant::now());
            let (mut sent, mut acks, mut closed) = (0, 0, false);
            while !closed && sent < 5 * LIMIT {
                if !raw.send(&batch).await {
                    break;
                }
                sent += BATCH;
                let mut in_batch = 0;
                while in_batch < BATCH {
                    match raw.next(Duration::from_secs(5)).await {
                        Next::Frame(f) if f.kind == kind && f.flags & ACK != 0 => in_batch += 1,
                        Next::Frame(_) => {}
                        Next::Closed => {
                            closed = true;
                            break;
                        }
                        Next::Quiet => panic!("{adapter:?}: {name} flood: silent after {acks}"),
                    }
                }
                acks += in_batch;
            }
            let closed = closed || matches!(raw.next(Duration::from_secs(2)).await, Next::Closed);
            assert!(closed, "{adapter:?}: {name} flood of {sent} not cut off");
            assert!(
                (LIMIT - BATCH..=LIMIT).contains(&acks),
                "{adapter:?}: {acks} {name} frames answered before the cut-off"
            );
            let grown = support::rss_kib().saturating_sub(rss);
            eprintln!(
                "{adapter:?}: {name} flood cut off after {acks} answers ({sent} sent) in {:?}, \
                 RSS +{grown} KiB",
                started.elapsed()
            );
        }
        // A connection that keeps within the limit is served as before.
        let mut raw = raw(&server, &[]).await;
        handshake(&mut raw).await;
        assert!(raw.send(&frame(PING, 0, 0, &[1; 8]).repeat(50)).await);
        assert!(raw.send(&get(1, "/health")).await);
        loop {
            match raw.next(Duration::from_secs(2)).await {
                Next::Frame(f) if f.kind == HEADERS && f.stream == 1 => break,
                Next::Frame(_) => {}
                other => panic!("{adapter:?}: not served after 50 PINGs: {other:?}"),
            }
        }
    }
}
