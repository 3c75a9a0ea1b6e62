//! Memory per open SSE stream and per in-flight multipart upload: each server alone, its
//! resident memory (`VmRSS`) read before and after N connections that each hold one open
//! answer or one unfinished request, measured as `memory.rs` measures idle connections.
//!
//! - **SSE:** each connection sends `GET /events`, reads the answer's head and its first
//!   event (`data: {"n":0}`, the same bytes on every server) and stays open; the server's
//!   stream stays pending after that event. Every server writes a keep-alive comment after
//!   15 s of silence: a run ends within a few seconds of its first stream, before any is due.
//! - **Upload:** each connection sends the head of `POST /upload` (`multipart/form-data`, a
//!   `Content-Length` of the whole 64 KiB body) and the body's first part — the text field
//!   `title` and the first [`UPLOAD_SENT`] bytes of the file field `file` — then stalls: the
//!   server holds a handler waiting for the rest of the file.
//!
//! A run: start the server (pinned to the server core), warm it with one whole exchange of
//! the kind measured (a stream opened, its first event read, closed; an upload sent whole,
//! its answer read), wait 300 ms, read `VmRSS`; open the N connections (in batches of 100),
//! read `VmRSS` until it has not changed for 500 ms, check in `/proc/PID/fd` that the server
//! holds the N sockets, and read it again. Memory per stream = (after − before) / N; three
//! runs per server in rotating order, their median. HTTP/1.1 only; pactum's servers, axum and
//! warp (raw hyper has no SSE or multipart of its own).
//!
//! Before measuring, every server is checked: the same status, content type and first event
//! bytes on `GET /events`, and byte for byte the same answer to a whole upload.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::api;
use crate::servers::ServerKind;

use super::memory::{
    add_to_json, one_run_warmed, print_table, ratio_row, read_answer, Held, MemoryRun, BATCH, RUNS,
};
use super::*;

/// The bytes of the file field sent before an upload stalls.
const UPLOAD_SENT: usize = 16 * 1024;

/// What each connection of a run holds open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Open {
    /// An SSE answer, its first event read.
    Sse,
    /// A multipart upload, the first 16 KiB of its file sent.
    Upload,
}

impl Open {
    const ALL: [Self; 2] = [Self::Sse, Self::Upload];

    fn name(self) -> &'static str {
        match self {
            Self::Sse => "open SSE stream (GET /events)",
            Self::Upload => "in-flight multipart upload (POST /upload)",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Self::Sse => "sse",
            Self::Upload => "upload",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Self::Sse => "stream",
            Self::Upload => "upload",
        }
    }
}

/// The servers that serve `GET /events` and `POST /upload`: all but raw hyper.
pub(super) fn servers(config: &Config) -> Vec<ServerKind> {
    config
        .servers
        .iter()
        .copied()
        .filter(|k| !matches!(k, ServerKind::RawHyper | ServerKind::RawHyperDefaults))
        .collect()
}

/// Every run, by what was held open and server.
#[derive(Default)]
pub(super) struct StreamMemory {
    runs: BTreeMap<(Open, ServerKind), Vec<MemoryRun>>,
}

impl StreamMemory {}

/// Checks the servers' answers, then measures each, `connections` per run.
pub(super) fn measure(exe: &Path, config: &Config, connections: usize) -> Result<StreamMemory> {
    let kinds = servers(config);
    let mut memory = StreamMemory::default();
    if kinds.is_empty() {
        return Ok(memory);
    }
    verify(exe, &kinds)?;
    let started = std::time::Instant::now();
    for open in Open::ALL {
        println!(
            "\nmemory per {} ({connections} connections, {RUNS} runs per server)",
            open.name()
        );
        for round in 0..RUNS {
            for i in 0..kinds.len() {
                let kind = kinds[(i + round) % kinds.len()];
                let run = one_run_warmed(
                    exe,
                    config,
                    kind,
                    connections,
                    |port| warm(open, port),
                    |port| {
                        match open {
                            Open::Sse => open_streams(port, connections),
                            Open::Upload => open_uploads(port, connections),
                        }
                        .map(|conns| Box::new(conns) as Box<dyn Held>)
                    },
                )?;
                println!(
                    "  {:<19} run {}: {:>8} -> {:>8} KiB  {:>6.2} KiB/{}",
                    kind.name(),
                    round + 1,
                    run.before_kib,
                    run.after_kib,
                    run.per_connection_kib(),
                    open.unit()
                );
                memory.runs.entry((open, kind)).or_default().push(run);
            }
        }
    }
    println!(
        "stream memory measured in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(memory)
}

/// One whole exchange: what every later one reuses is allocated before `VmRSS` is read.
fn warm(open: Open, port: u16) -> Result<()> {
    match open {
        Open::Sse => first_event(&mut connect(port)?, port).map(drop),
        Open::Upload => whole_upload(port).map(drop),
    }
}

fn connect(port: u16) -> Result<TcpStream> {
    let stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    Ok(stream)
}

fn events_request(port: u16) -> String {
    format!("GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n")
}

/// `n` connections, each with `GET /events` answered and its first event read.
fn open_streams(port: u16, n: usize) -> Result<Vec<TcpStream>> {
    let mut conns = Vec::with_capacity(n);
    while conns.len() < n {
        let start = conns.len();
        for _ in 0..BATCH.min(n - start) {
            let mut stream = connect(port)?;
            stream
                .write_all(events_request(port).as_bytes())
                .map_err(|e| format!("send: {e}"))?;
            conns.push(stream);
        }
        for stream in &mut conns[start..] {
            let (_, event) = read_first_event(stream)?;
            if event != expected_event() {
                return Err(format!(
                    "first event: {:?}",
                    String::from_utf8_lossy(&event)
                ));
            }
        }
    }
    Ok(conns)
}

/// The first event every server sends: `data: ` and the tick's JSON, then a blank line.
fn expected_event() -> Vec<u8> {
    let json = serde_json::to_string(&api::FIRST_TICK).expect("serialisable");
    format!("data: {json}\n\n").into_bytes()
}

/// Sends `GET /events` on a new connection and reads the answer's head and first event.
fn first_event(stream: &mut TcpStream, port: u16) -> Result<(String, Vec<u8>)> {
    stream
        .write_all(events_request(port).as_bytes())
        .map_err(|e| format!("send: {e}"))?;
    read_first_event(stream)
}

/// Reads an SSE answer's head and its body up to the end of the first event (its blank
/// line), chunked or not.
fn read_first_event(stream: &mut TcpStream) -> Result<(String, Vec<u8>)> {
    let mut buf = Vec::with_capacity(512);
    let mut chunk = [0u8; 512];
    loop {
        let n = stream.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("connection closed before the first event".into());
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        if !head.starts_with("HTTP/1.1 200") {
            return Err(format!("answer: {head}"));
        }
        let chunked = header(&head, "transfer-encoding").is_some_and(|v| v.contains("chunked"));
        let body = &buf[end + 4..];
        let data = if chunked {
            dechunk(body)?
        } else {
            body.to_vec()
        };
        if let Some(at) = data.windows(2).position(|w| w == b"\n\n") {
            if data.len() > at + 2 {
                return Err("more than one event at once".into());
            }
            return Ok((head, data));
        }
    }
}

/// The data of the whole chunks at the start of `body` (a partial chunk is left out).
fn dechunk(mut body: &[u8]) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    while let Some(line) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..line])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .ok_or("bad chunk size")?;
        let rest = &body[line + 2..];
        if rest.len() < size + 2 {
            break;
        }
        data.extend_from_slice(&rest[..size]);
        body = &rest[size + 2..];
    }
    Ok(data)
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (n, value) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// `n` connections, each with the head of `POST /upload` and the body's first part sent.
fn open_uploads(port: u16, n: usize) -> Result<Vec<TcpStream>> {
    let upload = api::upload_body();
    let mut first = api::upload_head(port).into_bytes();
    first.extend_from_slice(&upload.bytes[..upload.file_start + UPLOAD_SENT]);
    let mut conns = Vec::with_capacity(n);
    for _ in 0..n {
        let mut stream = connect(port)?;
        stream.write_all(&first).map_err(|e| format!("send: {e}"))?;
        conns.push(stream);
    }
    Ok(conns)
}

/// Sends one whole upload on a new connection; its answer.
fn whole_upload(port: u16) -> Result<String> {
    let mut stream = connect(port)?;
    let mut request = api::upload_head(port).into_bytes();
    request.extend_from_slice(&api::upload_body().bytes);
    stream
        .write_all(&request)
        .map_err(|e| format!("send: {e}"))?;
    let mut buf = Vec::new();
    read_answer(&mut stream, &mut buf)?;
    Ok(crate::http::normalise(&buf))
}

/// Every server must send the same first event and answer an upload the same.
fn verify(exe: &Path, kinds: &[ServerKind]) -> Result<()> {
    println!("\nchecking GET /events and POST /upload on every server");
    let expected = expected_event();
    let mut reference: Option<(ServerKind, String)> = None;
    for &kind in kinds {
        let server = Server::spawn(exe, kind, None, None)?;
        let result = (|| {
            let mut stream = connect(server.port)?;
            let (head, event) = first_event(&mut stream, server.port)?;
            let content_type = header(&head, "content-type").unwrap_or_default().to_owned();
            if !content_type.starts_with("text/event-stream") || event != expected {
                return Err(format!(
                    "{} answers GET /events with {content_type:?} and {:?}",
                    kind.name(),
                    String::from_utf8_lossy(&event)
                ));
            }
            whole_upload(server.port)
        })();
        server.stop();
        let answer = result?;
        match &reference {
            None => reference = Some((kind, answer)),
            Some((ref_kind, ref_answer)) if *ref_answer != answer => {
                return Err(format!(
                    "{} and {} answer POST /upload differently:\n--- {}\n{ref_answer}\n--- {}\n{answer}",
                    ref_kind.name(),
                    kind.name(),
                    ref_kind.name(),
                    kind.name()
                ));
            }
            Some(_) => {}
        }
    }
    println!(
        "  GET /events            identical first event: {:?} (200, text/event-stream)",
        String::from_utf8_lossy(&expected)
    );
    if let Some((_, answer)) = reference {
        println!(
            "  POST /upload           identical: {}",
            answer.replace("\r\n", " | ")
        );
    }
    Ok(())
}

/// Prints the table and the ratios of pactum-native to each peer; adds them to `json`.
pub(super) fn report(memory: &StreamMemory, config: &Config, json: &mut Value) {
    let mut rows = Vec::new();
    let mut ratios = Vec::new();
    for open in Open::ALL {
        println!(
            "\n=== Memory per {} (KiB; VmRSS after − before, ÷ connections) ===",
            open.name()
        );
        let runs_of = |kind| memory.runs.get(&(open, kind)).map(Vec::as_slice);
        print_table(config, runs_of, |kind, med, runs, ratio| {
            rows.push(json!({
                "server": kind.name(),
                "open": open.key(),
                "protocol": "HTTP/1.1",
                "kib_per_connection_median": med,
                "runs": runs.iter().map(MemoryRun::json_row).collect::<Vec<_>>(),
            }));
            if let Some(ratio) = ratio {
                ratios.push(ratio_row(kind, format!("KiB per {}", open.name()), ratio));
            }
        });
    }
    add_to_json(json, "memory_per_stream", rows, ratios);
}
