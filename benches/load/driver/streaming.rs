//! Streaming: a 100 MiB download and a 100 MiB upload through pactum's servers, each on one
//! connection — the server's CPU time per byte (all its threads, user and system, from
//! `/proc/PID/task/*/schedstat`), its resident memory before, at its peak and after, and
//! instructions per byte under callgrind (marginal between two sizes).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Instant;

use serde_json::{json, Value};

use crate::servers::ServerKind;

use super::*;

const MIB: u64 = 1024 * 1024;

/// The two directions.
#[derive(Debug, Clone, Copy)]
enum Direction {
    Download,
    Upload,
}

impl Direction {
    const ALL: [Self; 2] = [Self::Download, Self::Upload];

    fn name(self) -> &'static str {
        match self {
            Self::Download => "download (GET /stream)",
            Self::Upload => "upload (PUT /stream)",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Self::Download => "download",
            Self::Upload => "upload",
        }
    }
}

/// Measures every pactum server of the run; prints the table, returns the JSON rows.
pub(super) fn measure(exe: &Path, config: &Config) -> Result<Vec<Value>> {
    let servers: Vec<ServerKind> = config
        .servers
        .iter()
        .copied()
        .filter(|k| matches!(k, ServerKind::PactumNative | ServerKind::PactumWarp))
        .collect();
    if servers.is_empty() {
        return Ok(Vec::new());
    }
    let size = 100 * MIB;
    println!(
        "\n=== Streaming: 100 MiB on one connection, the server's CPU time (user + system) ==="
    );
    println!(
        "  {:<15} {:<24} {:>9} {:>10} {:>8} {:>22} {:>9}",
        "server", "direction", "CPU ms", "GiB/s CPU", "wall ms", "RSS before/peak/after", "Ir/byte"
    );
    let mut rows = Vec::new();
    for kind in servers {
        for direction in Direction::ALL {
            let server = Server::spawn(exe, kind, Some(config.server_cpu), None)?;
            let cpu_before = cpu_ns(server.pid)?;
            let rss_before = status_kib(server.pid, "VmRSS").unwrap_or(0);
            let started = Instant::now();
            transfer(server.port, direction, size).map_err(|e| e.to_string())?;
            let wall = started.elapsed();
            let cpu = cpu_ns(server.pid)? - cpu_before;
            let peak = status_kib(server.pid, "VmHWM").unwrap_or(0);
            let after = status_kib(server.pid, "VmRSS").unwrap_or(0);
            server.stop();
            let per_byte = match config.callgrind {
                Some(_) => Some(instructions_per_byte(exe, config, kind, direction)?),
                None => None,
            };
            let gib_per_s = size as f64 / (1u64 << 30) as f64 / (cpu as f64 / 1e9);
            println!(
                "  {:<15} {:<24} {:>9.1} {:>10.2} {:>8.0} {:>22} {:>9}",
                kind.name(),
                direction.name(),
                cpu as f64 / 1e6,
                gib_per_s,
                wall.as_secs_f64() * 1e3,
                format!(
                    "{:.1}/{:.1}/{:.1} MiB",
                    rss_before as f64 / 1024.0,
                    peak as f64 / 1024.0,
                    after as f64 / 1024.0
                ),
                per_byte.map_or("-".to_owned(), |v| format!("{v:.3}")),
            );
            rows.push(json!({
                "server": kind.name(),
                "direction": direction.key(),
                "bytes": size,
                "server_cpu_ms": cpu as f64 / 1e6,
                "gib_per_cpu_second": gib_per_s,
                "wall_ms": wall.as_secs_f64() * 1e3,
                "rss_kib": { "before": rss_before, "peak": peak, "after": after },
                "instructions_per_byte": per_byte,
            }));
        }
    }
    Ok(rows)
}

/// Instructions per byte: the server under callgrind, one transfer of 8 MiB, then of 40 MiB.
fn instructions_per_byte(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    direction: Direction,
) -> Result<f64> {
    let (small, large) = (8 * MIB, 40 * MIB);
    let mut totals = Vec::new();
    for size in [small, large] {
        let out = config.out.join(format!(
            "callgrind.{}.stream-{}.{}",
            kind.name(),
            direction.key(),
            size / MIB
        ));
        let server = Server::spawn(exe, kind, Some(config.server_cpu), Some(&out))?;
        transfer(server.port, direction, size).map_err(|e| e.to_string())?;
        server.stop();
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / (large - small) as f64)
}

/// One transfer of `size` bytes on a fresh connection, its answer checked.
fn transfer(port: u16, direction: Direction, size: u64) -> io::Result<()> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(600)))?;
    match direction {
        Direction::Download => {
            write!(
                stream,
                "GET /stream?size={size} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            )?;
            let mut reader = BufReader::with_capacity(256 * 1024, stream);
            let length = read_head(&mut reader)?;
            if length != Some(size) {
                return Err(io::Error::other(format!("content-length {length:?}")));
            }
            let copied = io::copy(&mut reader.take(size), &mut io::sink())?;
            if copied != size {
                return Err(io::Error::other(format!("{copied} bytes of {size}")));
            }
        }
        Direction::Upload => {
            write!(
                stream,
                "PUT /stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
                 Content-Type: application/octet-stream\r\nContent-Length: {size}\r\n\r\n"
            )?;
            let block = vec![b'x'; 256 * 1024];
            let mut left = size;
            while left > 0 {
                let n = left.min(block.len() as u64) as usize;
                stream.write_all(&block[..n])?;
                left -= n as u64;
            }
            let mut reader = BufReader::new(stream);
            let length = read_head(&mut reader)?.unwrap_or(0);
            let mut body = String::new();
            reader.take(length).read_to_string(&mut body)?;
            if body != format!("{{\"bytes\":{size}}}") {
                return Err(io::Error::other(format!("upload answered {body}")));
            }
        }
    }
    Ok(())
}

/// Reads a 200 answer's head; its `Content-Length`.
fn read_head(reader: &mut impl BufRead) -> io::Result<Option<u64>> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    if !line.starts_with("HTTP/1.1 200") {
        return Err(io::Error::other(format!("answered {line:?}")));
    }
    let mut length = None;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            return Ok(length);
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
}

/// The CPU time of every thread of a process so far, in nanoseconds.
fn cpu_ns(pid: u32) -> Result<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map_err(|e| e.to_string())?;
    let mut total = 0;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Ok(total)
}
