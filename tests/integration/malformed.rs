//! Thousands of malformed HTTP/1.1 requests ([`crate::mutations`], seeded), on a few
//! keep-alive connections per adapter (a new one when the server closes, and for each request
//! whose framing is broken: sent, then the connection closed for writing): every answer is a
//! 4xx with the JSON error body (or a 2xx: some mutations leave a valid request), or the
//! connection closes cleanly; never a 5xx, never a stall. After each batch a valid request is
//! answered 200, and the process's RSS (the server runs in it) comes back near where it was.
//!
//! `PACTUM_MALFORMED_CASES` sets the number of cases per adapter (default 10,000: 20,000 in
//! all, about 20 s in a debug build); `PACTUM_MALFORMED_SEED` the seed.
#![allow(clippy::print_stderr)] // the figures

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::hyper_answers::RawAnswer;
use crate::mutations::{case, Case};
use crate::support::{self, TestServer};

/// Connections per adapter, each sending its share of a batch in order.
const CONNECTIONS: u64 = 4;
const BATCHES: u64 = 10;
/// How long an answer may take: a stall fails the test.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What came back, by kind.
#[derive(Debug, Default)]
struct Tally {
    sent: u64,
    statuses: BTreeMap<u16, u64>,
    /// Closed without an answer (FIN or reset).
    closed: u64,
    reset: u64,
    /// Everything that breaks the rule: how many, and the first few with their case.
    failed: u64,
    failures: Vec<String>,
    kinds: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.sent += other.sent;
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        for (kind, n) in other.kinds {
            *self.kinds.entry(kind).or_default() += n;
        }
        self.closed += other.closed;
        self.reset += other.reset;
        self.failed += other.failed;
        self.failures.extend(other.failures);
        self.failures.truncate(20);
    }

    /// Checks one answer: a 4xx with the JSON error body, or a success; never a 5xx.
    fn answer(&mut self, answer: &RawAnswer, index: u64, case: &Case) {
        *self.statuses.entry(answer.status).or_default() += 1;
        let fail = match answer.status {
            200..=299 => None,
            400..=499 => match answer.json() {
                Some(body) if body["error"].is_string() => None,
                _ => Some("a 4xx without the JSON error body"),
            },
            _ => Some("neither 2xx nor 4xx"),
        };
        if answer.header("transfer-encoding").is_some() {
            self.fail(index, case, "a chunked answer", answer);
        }
        if let Some(why) = fail {
            self.fail(index, case, why, answer);
        }
    }

    fn fail(&mut self, index: u64, case: &Case, why: &str, what: &dyn std::fmt::Debug) {
        self.failed += 1;
        if self.failures.len() < 20 {
            let request = String::from_utf8_lossy(&case.bytes[..case.bytes.len().min(300)]);
            self.failures.push(format!(
                "case {index} ({}): {why}: {what:?}\n  request: {request:?}",
                case.kind
            ));
        }
    }
}

/// A kept-alive connection and the bytes read past the last answer.
struct Connection {
    stream: TcpStream,
    read: Vec<u8>,
    answered: u64,
}

enum Read {
    Answer(RawAnswer),
    /// Closed (or reset) with nothing pending.
    Closed {
        reset: bool,
    },
    /// Closed in the middle of an answer, or no answer in time.
    Broken(String),
}

impl Connection {
    async fn open(addr: SocketAddr) -> Self {
        Self {
            stream: TcpStream::connect(addr).await.expect("connect"),
            read: Vec::new(),
            answered: 0,
        }
    }

    async fn next_answer(&mut self) -> Read {
        let mut chunk = vec![0u8; 64 * 1024];
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            if let Some((answer, used)) = RawAnswer::parse(&self.read) {
                self.read.drain(..used);
                self.answered += 1;
                return Read::Answer(answer);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let read = tokio::time::timeout(left, self.stream.read(&mut chunk)).await;
            let (closed, reset) = match read {
                Err(_) => return Read::Broken(format!("no answer in {ANSWER_TIMEOUT:?}")),
                Ok(Ok(0)) => (true, false),
                Ok(Ok(n)) => {
                    self.read.extend_from_slice(&chunk[..n]);
                    (false, false)
                }
                Ok(Err(_)) => (true, true),
            };
            if closed {
                if self.read.is_empty() {
                    return Read::Closed { reset };
                }
                let pending = String::from_utf8_lossy(&self.read[..self.read.len().min(200)]);
                return Read::Broken(format!("closed mid-answer: {pending:?}"));
            }
        }
    }
}

/// Whether the server closes the connection after `answer`.
fn closes_after(answer: &RawAnswer) -> bool {
    answer.header("connection") == Some("close") || answer.version_1_0
}

/// Sends the cases of one worker on kept-alive connections.
async fn worker(addr: SocketAddr, seed: u64, indices: Vec<u64>) -> Tally {
    let mut tally = Tally::default();
    let mut connection: Option<Connection> = None;
    for index in indices {
        let case = case(seed, index);
        tally.sent += 1;
        *tally.kinds.entry(case.kind).or_default() += 1;
        if !case.keeps_framing {
            broken_framing(addr, index, &case, &mut tally).await;
            continue;
        }
        // A connection the server closed while idle (after an answer it did not mark) shows
        // as closed on the next request: sent again once, on a new connection.
        for attempt in 0..2 {
            let mut open = match connection.take() {
                Some(open) => open,
                None => Connection::open(addr).await,
            };
            let reused = open.answered > 0;
            let _ = open.stream.write_all(&case.bytes).await;
            match open.next_answer().await {
                Read::Answer(answer) => {
                    tally.answer(&answer, index, &case);
                    if !closes_after(&answer) {
                        connection = Some(open);
                    }
                }
                Read::Closed { .. } if reused && attempt == 0 => continue,
                Read::Closed { reset } => {
                    tally.closed += 1;
                    tally.reset += u64::from(reset);
                }
                Read::Broken(why) => tally.fail(index, &case, &why, &""),
            }
            break;
        }
    }
    tally
}

/// A request whose framing is broken: on its own connection, closed for writing after it,
/// every answer read until the server closes.
async fn broken_framing(addr: SocketAddr, index: u64, case: &Case, tally: &mut Tally) {
    let mut open = Connection::open(addr).await;
    let _ = open.stream.write_all(&case.bytes).await;
    let _ = open.stream.shutdown().await;
    loop {
        match open.next_answer().await {
            Read::Answer(answer) => tally.answer(&answer, index, case),
            Read::Closed { reset } => {
                if open.answered == 0 {
                    tally.closed += 1;
                }
                tally.reset += u64::from(reset);
                break;
            }
            Read::Broken(why) => {
                tally.fail(index, case, &why, &"");
                break;
            }
        }
    }
}

async fn assert_still_serving(app: &TestServer, after: &str) {
    let answer = tokio::time::timeout(Duration::from_secs(10), app.get("/health"))
        .await
        .unwrap_or_else(|_| panic!("no answer to a valid request after {after}"));
    assert_eq!(answer.status, 200, "after {after}: {answer:?}");
}

/// Sends `cases` cases to `app` in batches; the tally, and the peak RSS seen.
async fn run(app: &TestServer, adapter: &str, cases: u64, seed: u64) -> (Tally, u64) {
    let mut tally = Tally::default();
    let mut peak = 0;
    let per_batch = cases.div_ceil(BATCHES);
    for batch in 0..BATCHES {
        let range = batch * per_batch..((batch + 1) * per_batch).min(cases);
        let workers: Vec<_> = (0..CONNECTIONS)
            .map(|w| {
                let indices: Vec<u64> = range.clone().filter(|i| i % CONNECTIONS == w).collect();
                tokio::spawn(worker(app.addr, seed, indices))
            })
            .collect();
        for worker in workers {
            tally.merge(worker.await.expect("worker"));
        }
        assert_still_serving(app, &format!("{adapter} batch {batch}")).await;
        peak = peak.max(support::rss_kib());
    }
    (tally, peak)
}

/// Both adapters, one after the other, so that the RSS figures are each one's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_never_get_a_5xx() {
    let cases = setting("PACTUM_MALFORMED_CASES", 10_000);
    let seed = setting("PACTUM_MALFORMED_SEED", 0x5EED);
    for adapter in ["native", "warp"] {
        let app = match adapter {
            "native" => support::native().await,
            _ => support::warp().await,
        };
        let started = Instant::now();
        // Warm-up (other cases of the same seed): the allocator's arenas and the server's
        // buffers, before the baseline.
        let _ = worker(app.addr, seed, (cases..cases + 300).collect()).await;
        let baseline = support::rss_kib();
        let (tally, peak) = run(&app, adapter, cases, seed).await;
        // Every connection's task has ended once the shutdown returns: then the figure after.
        let (_, server, _) = app.into_parts();
        server.shutdown().await;
        let after = support::rss_kib();
        eprintln!(
            "{adapter}: {} malformed requests (seed {seed:#x}) in {:.1} s; answers by status \
             {:?}; closed without an answer {} ({} reset); by mutation {:?}; \
             RSS baseline {baseline} KiB, peak {} KiB, after {after} KiB",
            tally.sent,
            started.elapsed().as_secs_f64(),
            tally.statuses,
            tally.closed,
            tally.reset,
            tally.kinds,
            peak.max(baseline),
        );
        assert_eq!(tally.sent, cases);
        assert_eq!(
            tally.failed,
            0,
            "failures on {adapter} (the first {}):\n{}",
            tally.failures.len(),
            tally.failures.join("\n")
        );
        assert!(
            tally.statuses.keys().all(|s| *s < 500),
            "{:?}",
            tally.statuses
        );
        // Generous: other tests run in this process at the same time.
        assert!(
            after <= baseline + 64 * 1024,
            "{adapter}: RSS {after} KiB after, baseline {baseline} KiB"
        );
    }
}
