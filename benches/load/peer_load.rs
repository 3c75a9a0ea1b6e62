//! The peer load benchmark: pactum against raw hyper, axum and warp, side by side.
//!
//! Run it with `benches/peer-load.sh` (it installs wrk, builds this binary in release mode and
//! runs it). The binary has these modes:
//!
//! - `peer_load [OPTIONS]` (the driver): starts every server on 127.0.0.1, checks that they
//!   answer the endpoints byte for byte the same, then measures each server's own cost
//!   per request (user CPU normalised by system CPU, under wrk; instructions, under callgrind),
//!   and the client benchmark (pactum-client against raw reqwest); prints tables and ratios and
//!   writes them as JSON. `peer_load --help` lists the options.
//! - `peer_load serve KIND`: one server, until its stdin closes.
//! - `peer_load client KIND ENDPOINT PORT WARMUP CALLS`: one client run.
//! - `peer_load routes N ROUNDS`: route matching in a table of N routes (for callgrind).
//! - `peer_load limit ITERATIONS`: the batch's limit, its body parsed, validated, summed and
//!   answered with no HTTP (for callgrind).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod api;
mod clients;
mod driver;
mod http;
mod routes;
mod servers;

use std::process::ExitCode;

/// The user and system CPU time of a process so far, in clock ticks (`/proc/PID/stat`
/// fields 14 and 15); `pid` is a number or `self`.
pub(crate) fn cpu_ticks(pid: &str) -> (u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("read /proc stat");
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')').expect("stat format") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime = fields[11].parse().expect("utime");
    let stime = fields[12].parse().expect("stime");
    (utime, stime)
}

/// What any server must do with the batch's bytes, without HTTP: check UTF-8 once, parse
/// (`from_str`: strings are not checked again), validate, sum, write the answer.
fn batch_limit(body: &[u8]) -> Vec<u8> {
    use validator::Validate as _;
    let text = std::str::from_utf8(body).expect("UTF-8");
    let batch: api::Batch = serde_json::from_str(text).expect("a batch");
    batch.validate().expect("valid");
    serde_json::to_vec(&api::totals(&batch)).expect("serialisable")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("serve") => {
            let kind = args
                .get(1)
                .and_then(|k| servers::ServerKind::parse(k))
                .expect("usage: peer_load serve KIND");
            servers::run(kind)
        }
        Some("client") => {
            let usage = "usage: peer_load client KIND ENDPOINT PORT WARMUP CALLS";
            let kind = args
                .get(1)
                .and_then(|k| clients::ClientKind::parse(k))
                .expect(usage);
            let endpoint = args
                .get(2)
                .and_then(|e| http::Endpoint::parse(e))
                .expect(usage);
            let number =
                |i: usize| -> u64 { args.get(i).and_then(|v| v.parse().ok()).expect(usage) };
            let port = u16::try_from(number(3)).expect(usage);
            clients::run(kind, endpoint, port, number(4), number(5));
            ExitCode::SUCCESS
        }
        Some("routes") => {
            let usage = "usage: peer_load routes N ROUNDS";
            let number =
                |i: usize| -> usize { args.get(i).and_then(|v| v.parse().ok()).expect(usage) };
            let (n, rounds) = (number(1), number(2));
            let table = routes::table(n);
            let paths = routes::lookups(n);
            for _ in 0..100 + rounds {
                for path in &paths {
                    std::hint::black_box(
                        table.route(&::http::Method::GET, std::hint::black_box(path)),
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Some("limit") => {
            let usage = "usage: peer_load limit ITERATIONS";
            let iterations: u64 = args.get(1).and_then(|v| v.parse().ok()).expect(usage);
            let body = api::batch_json().as_bytes();
            for _ in 0..10 + iterations {
                std::hint::black_box(batch_limit(std::hint::black_box(body)));
            }
            ExitCode::SUCCESS
        }
        _ => driver::main(&args),
    }
}
