//! Memory per idle keep-alive connection: each server alone, its resident memory (`VmRSS`)
//! read before and after N connections that each sent one `GET /hello`, read the whole
//! answer and stay open, idle.
//!
//! A run: start the server (pinned to the server core), warm it with one request on a
//! connection then closed, wait 300 ms, read `VmRSS`; open the N connections from the driver
//! (in batches of [`BATCH`]: connect the batch, send the request on each, read each answer),
//! then read `VmRSS` every 100 ms until it has not changed for 500 ms (at most 4 s), check in
//! `/proc/PID/fd` that the server still holds the N sockets, and read it again. Memory per
//! connection = (after − before) / N. The connections are idle for a few seconds only: the
//! measurement ends before pactum's 10 s idle timeout closes them (the fd count checks it).
//! Each server is measured [`RUNS`] times, in a rotating order; the table gives every run and
//! their median (the allocator makes a single run noisy).
//!
//! HTTP/1.1, and h2c (HTTP/2 with prior knowledge: the client preface and SETTINGS, one
//! request on stream 1, the `h2` crate on a tokio runtime in the driver) for every server
//! that serves it (raw-hyper-defaults is HTTP/1.1 only).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::http::Endpoint;
use crate::servers::ServerKind;

use super::*;

/// Runs per server and protocol.
pub(super) const RUNS: usize = 3;
/// Connections opened at once (connect, send, then read the answers).
pub(super) const BATCH: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Protocol {
    Http1,
    H2c,
}

impl Protocol {
    fn name(self) -> &'static str {
        match self {
            Self::Http1 => "HTTP/1.1",
            Self::H2c => "h2c",
        }
    }

    fn serves(self, kind: ServerKind) -> bool {
        !(self == Self::H2c && kind == ServerKind::RawHyperDefaults)
    }
}

/// One run: `VmRSS` before and after, in KiB.
#[derive(Debug, Clone, Copy)]
pub(super) struct MemoryRun {
    pub(super) before_kib: u64,
    pub(super) after_kib: u64,
    pub(super) connections: usize,
}

impl MemoryRun {
    pub(super) fn per_connection_kib(&self) -> f64 {
        (self.after_kib as f64 - self.before_kib as f64) / self.connections as f64
    }

    pub(super) fn json_row(&self) -> Value {
        json!({
            "connections": self.connections,
            "rss_before_kib": self.before_kib,
            "rss_after_kib": self.after_kib,
            "kib_per_connection": self.per_connection_kib(),
        })
    }
}

/// Every run, by server and protocol.
#[derive(Default)]
pub(super) struct Memory {
    runs: BTreeMap<(Protocol, ServerKind), Vec<MemoryRun>>,
}

/// Measures every server of the configuration, `connections` idle connections per run.
pub(super) fn measure(exe: &Path, config: &Config, connections: usize) -> Result<Memory> {
    println!(
        "\nmemory per idle keep-alive connection ({connections} connections, GET /hello on each, {RUNS} runs per server)"
    );
    let started = Instant::now();
    let mut memory = Memory::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    for protocol in [Protocol::Http1, Protocol::H2c] {
        let kinds: Vec<ServerKind> = config
            .servers
            .iter()
            .copied()
            .filter(|&k| protocol.serves(k))
            .collect();
        for round in 0..RUNS {
            for i in 0..kinds.len() {
                let kind = kinds[(i + round) % kinds.len()];
                let run = match protocol {
                    Protocol::Http1 => one_run(exe, config, kind, connections, |port| {
                        open_http1(port, connections).map(|conns| Box::new(conns) as Box<dyn Held>)
                    }),
                    Protocol::H2c => one_run(exe, config, kind, connections, |port| {
                        open_h2c(&runtime, port, connections)
                    }),
                }?;
                println!(
                    "  {:<9} {:<19} run {}: {:>8} -> {:>8} KiB  {:>6.2} KiB/connection",
                    protocol.name(),
                    kind.name(),
                    round + 1,
                    run.before_kib,
                    run.after_kib,
                    run.per_connection_kib()
                );
                memory.runs.entry((protocol, kind)).or_default().push(run);
            }
        }
    }
    println!(
        "memory measured in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(memory)
}

/// The open connections of a run, held until its end.
pub(super) trait Held {}
impl<T> Held for T {}

fn one_run(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    connections: usize,
    open: impl FnOnce(u16) -> Result<Box<dyn Held>>,
) -> Result<MemoryRun> {
    // Warm: the first request allocates what every later one reuses.
    let warm = |port| {
        let mut warm = crate::http::Conn::connect(port).map_err(|e| e.to_string())?;
        warm.send(Endpoint::Hello).map_err(|e| e.to_string())?;
        Ok(())
    };
    one_run_warmed(exe, config, kind, connections, warm, open)
}

/// One run, the server warmed by `warm` (given its port) before the first reading.
pub(super) fn one_run_warmed(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    connections: usize,
    warm: impl FnOnce(u16) -> Result<()>,
    open: impl FnOnce(u16) -> Result<Box<dyn Held>>,
) -> Result<MemoryRun> {
    let server = Server::spawn(exe, kind, Some(config.server_cpu), None)?;
    let result = (|| {
        warm(server.port)?;
        std::thread::sleep(Duration::from_millis(300));
        let before_kib = rss_kib(server.pid)?;
        let fds_before = open_fds(server.pid);
        let conns = open(server.port)?;
        let after_kib = stable_rss_kib(server.pid)?;
        let fds = open_fds(server.pid);
        if fds < fds_before + connections {
            return Err(format!(
                "{}: {} sockets open, {connections} expected (connections closed before the measurement)",
                kind.name(),
                fds.saturating_sub(fds_before)
            ));
        }
        // Read again: the figure is the server's memory with every connection still open.
        let after_kib = after_kib.max(rss_kib(server.pid)?);
        drop(conns);
        Ok(MemoryRun {
            before_kib,
            after_kib,
            connections,
        })
    })();
    server.stop();
    result
}

/// `VmRSS` of a process, in KiB.
fn rss_kib(pid: u32) -> Result<u64> {
    status_kib(pid, "VmRSS").ok_or_else(|| format!("no VmRSS in /proc/{pid}/status"))
}

/// `VmRSS` once it has not changed for 500 ms (read every 100 ms, at most 4 s).
fn stable_rss_kib(pid: u32) -> Result<u64> {
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut last = rss_kib(pid)?;
    let mut same = 0;
    while same < 5 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        let now = rss_kib(pid)?;
        if now == last {
            same += 1;
        } else {
            same = 0;
            last = now;
        }
    }
    Ok(last)
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|dir| dir.count())
        .unwrap_or(0)
}

/// `n` HTTP/1.1 keep-alive connections, each with one `GET /hello` answered.
fn open_http1(port: u16, n: usize) -> Result<Vec<TcpStream>> {
    let request = Endpoint::Hello.request(port);
    let mut conns = Vec::with_capacity(n);
    let mut buf = Vec::with_capacity(1024);
    while conns.len() < n {
        let start = conns.len();
        for _ in 0..BATCH.min(n - start) {
            let mut stream =
                TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
            stream.set_nodelay(true).map_err(|e| e.to_string())?;
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .map_err(|e| e.to_string())?;
            stream
                .write_all(&request)
                .map_err(|e| format!("send: {e}"))?;
            conns.push(stream);
        }
        for stream in &mut conns[start..] {
            read_answer(stream, &mut buf)?;
        }
    }
    Ok(conns)
}

/// Reads one whole answer (its head and `content-length` bytes of body).
pub(super) fn read_answer(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<()> {
    buf.clear();
    let mut chunk = [0u8; 1024];
    loop {
        let n = stream.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("connection closed before the answer".into());
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]);
        if !head.starts_with("HTTP/1.1 200") {
            return Err(format!("answer: {head}"));
        }
        let length: usize = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())
                    .flatten()
            })
            .ok_or("no content-length")?;
        if buf.len() >= end + 4 + length {
            return Ok(());
        }
    }
}

/// `n` h2c connections, each with one `GET /hello` answered on stream 1; the connections
/// run on `runtime`'s tasks (idle: polled only while the runtime runs, which it need not for
/// the server to keep them).
fn open_h2c(runtime: &tokio::runtime::Runtime, port: u16, n: usize) -> Result<Box<dyn Held>> {
    runtime.block_on(async move {
        let mut conns = Vec::with_capacity(n);
        while conns.len() < n {
            let mut batch = tokio::task::JoinSet::new();
            for _ in 0..BATCH.min(n - conns.len()) {
                batch.spawn(h2c_connection(port));
            }
            while let Some(conn) = batch.join_next().await {
                conns.push(conn.map_err(|e| e.to_string())??);
            }
        }
        Ok(Box::new(H2cConnections(conns)) as Box<dyn Held>)
    })
}

/// The open h2c connections: their request handles and the tasks driving them (aborted when
/// dropped).
struct H2cConnections(Vec<H2cConnection>);

/// One h2c connection: its request handle, and the task driving it.
type H2cConnection = (
    ::h2::client::SendRequest<bytes::Bytes>,
    tokio::task::JoinHandle<()>,
);

impl Drop for H2cConnections {
    fn drop(&mut self) {
        for (_, task) in &self.0 {
            task.abort();
        }
    }
}

async fn h2c_connection(port: u16) -> Result<H2cConnection> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let (send, connection) = ::h2::client::handshake(tcp)
        .await
        .map_err(|e| format!("h2 handshake: {e}"))?;
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut send = send.ready().await.map_err(|e| format!("h2: {e}"))?;
    let request = ::http::Request::get(format!("http://127.0.0.1:{port}/hello"))
        .body(())
        .map_err(|e| e.to_string())?;
    let (answer, _) = send
        .send_request(request, true)
        .map_err(|e| format!("h2 request: {e}"))?;
    let answer = answer.await.map_err(|e| format!("h2 answer: {e}"))?;
    if answer.status() != ::http::StatusCode::OK {
        return Err(format!("h2 answer: {}", answer.status()));
    }
    let mut body = answer.into_body();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.map_err(|e| format!("h2 body: {e}"))?;
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    Ok((send, task))
}

/// Prints the table and the ratios of pactum-native to each peer; adds them to `json`.
pub(super) fn report(memory: &Memory, config: &Config, json: &mut Value) {
    println!("\n=== Memory per idle keep-alive connection (KiB; VmRSS after − before, ÷ connections) ===");
    let mut rows = Vec::new();
    let mut ratios = Vec::new();
    for protocol in [Protocol::Http1, Protocol::H2c] {
        println!("\n{}", protocol.name());
        let runs_of = |kind| memory.runs.get(&(protocol, kind)).map(Vec::as_slice);
        print_table(config, runs_of, |kind, med, runs, ratio| {
            rows.push(json!({
                "server": kind.name(),
                "protocol": protocol.name(),
                "kib_per_connection_median": med,
                "runs": runs.iter().map(MemoryRun::json_row).collect::<Vec<_>>(),
            }));
            if let Some(ratio) = ratio {
                ratios.push(ratio_row(
                    kind,
                    format!("KiB per idle connection ({})", protocol.name()),
                    ratio,
                ));
            }
        });
    }
    add_to_json(json, "memory_per_connection", rows, ratios);
}

/// Prints one table of memory runs: a row per server of the configuration that has runs,
/// with each run, their median and pactum-native's ratio to it; `row` gets the same figures
/// for the JSON.
pub(super) fn print_table<'a>(
    config: &Config,
    runs_of: impl Fn(ServerKind) -> Option<&'a [MemoryRun]>,
    mut row: impl FnMut(ServerKind, f64, &[MemoryRun], Option<f64>),
) {
    println!(
        "  {:<19} {:>8} {:>8} {:>8} {:>8}  {:>16}",
        "server", "median", "run 1", "run 2", "run 3", "pactum-native ÷"
    );
    let median_of =
        |runs: &[MemoryRun]| median(runs.iter().map(MemoryRun::per_connection_kib).collect());
    let native = runs_of(ServerKind::PactumNative).map(median_of);
    for &kind in &config.servers {
        let Some(runs) = runs_of(kind) else {
            continue;
        };
        let med = median_of(runs);
        let ratio = match native {
            Some(n) if kind != ServerKind::PactumNative && med > 0.0 => Some(n / med),
            _ => None,
        };
        let run = |i: usize| {
            runs.get(i)
                .map(|r| format!("{:.2}", r.per_connection_kib()))
                .unwrap_or_else(|| "-".into())
        };
        println!(
            "  {:<19} {:>8.2} {:>8} {:>8} {:>8}  {:>16}",
            kind.name(),
            med,
            run(0),
            run(1),
            run(2),
            fmt_opt(ratio, |v| format!("{v:.3}")),
        );
        row(kind, med, runs, ratio);
    }
}

/// A ratio of pactum-native to `kind` for the JSON's `ratios`.
pub(super) fn ratio_row(kind: ServerKind, measure: String, value: f64) -> Value {
    json!({
        "ratio": format!("pactum-native / {}", kind.name()),
        "measure": measure,
        "value": value,
        "goal": "(info)",
    })
}

/// Adds a section's rows to `json` under `key`, and its ratios to the JSON's `ratios`.
pub(super) fn add_to_json(json: &mut Value, key: &str, rows: Vec<Value>, ratios: Vec<Value>) {
    if let Some(object) = json.as_object_mut() {
        object.insert(key.into(), Value::Array(rows));
        if let Some(Value::Array(all)) = object.get_mut("ratios") {
            all.extend(ratios);
        }
    }
}
