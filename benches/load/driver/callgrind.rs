//! Instructions per request or call under callgrind: marginal counts between two runs.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::clients::ClientKind;
use crate::http::{self, Endpoint};
use crate::servers::ServerKind;

use super::*;

pub(super) fn callgrind_command(cpu: usize, out: &Path, exe: &Path) -> Command {
    let mut command = pinned(Some(cpu), "valgrind");
    command
        .arg("--tool=callgrind")
        .arg("-q")
        .arg(format!("--callgrind-out-file={}", out.display()));
    if let Ok(extra) = std::env::var("PEER_LOAD_VALGRIND_ARGS") {
        command.args(extra.split_whitespace());
    }
    command.arg(exe);
    command
}

/// A server process.
/// The total instruction count in a callgrind output file.
pub(super) fn callgrind_total(path: &Path, keep: bool) -> Result<f64> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("read {}: {e}", path.display()))?;
    let total = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .ok_or_else(|| format!("no totals in {}", path.display()))?;
    if !keep {
        let _ = std::fs::remove_file(path);
    }
    Ok(total)
}

/// Instructions per request: (Ir after W + n2 requests - Ir after W + n1) / (n2 - n1).
pub(super) fn server_instructions(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    endpoint: Endpoint,
    n1: u64,
    n2: u64,
) -> Result<f64> {
    server_instructions_on(exe, config, kind, endpoint, (n1, n2), Allocator::Glibc)
}

/// As [`server_instructions`], the server on `allocator`.
pub(super) fn server_instructions_on(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    endpoint: Endpoint,
    (n1, n2): (u64, u64),
    allocator: Allocator,
) -> Result<f64> {
    let mut totals = Vec::new();
    for n in [n1, n2] {
        let name = match allocator {
            Allocator::Glibc => format!("callgrind.{}.{}.{n}", kind.name(), endpoint.key()),
            other => format!(
                "callgrind.{}.{}.{}.{n}",
                kind.name(),
                endpoint.key(),
                other.name()
            ),
        };
        let out = config.out.join(name);
        let server = Server::spawn_on(exe, kind, Some(config.server_cpu), Some(&out), allocator)?;
        let mut conn = http::Conn::connect(server.port).map_err(|e| e.to_string())?;
        for _ in 0..50 + n {
            conn.send(endpoint).map_err(|e| e.to_string())?;
        }
        drop(conn);
        server.stop();
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / (n2 - n1) as f64)
}

/// Instructions per iteration of the batch's limit (`peer_load limit`): what any server must
/// do with the body, without HTTP — marginal between two iteration counts.
pub(super) fn limit_instructions(
    exe: &Path,
    config: &Config,
    (n1, n2): (u64, u64),
    allocator: Allocator,
) -> Result<f64> {
    let mut totals = Vec::new();
    for n in [n1, n2] {
        let out = config
            .out
            .join(format!("callgrind.limit.batch.{}.{n}", allocator.name()));
        let mut command = callgrind_command(config.server_cpu, &out, exe);
        allocator.set(&mut command);
        let status = command
            .args(["limit", &n.to_string()])
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("valgrind: {e}"))?;
        if !status.success() {
            return Err("the batch's limit under callgrind failed".into());
        }
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / (n2 - n1) as f64)
}

/// Instructions per route lookup in a table of `n` routes: marginal between two counts of
/// lookup rounds (8 lookups each).
pub(super) fn route_instructions(exe: &Path, config: &Config, n: usize) -> Result<f64> {
    let (r1, r2) = (200u64, 2200u64);
    let mut totals = Vec::new();
    for rounds in [r1, r2] {
        let out = config.out.join(format!("callgrind.routes.{n}.{rounds}"));
        let status = callgrind_command(config.server_cpu, &out, exe)
            .args(["routes", &n.to_string(), &rounds.to_string()])
            .status()
            .map_err(|e| format!("valgrind: {e}"))?;
        if !status.success() {
            return Err(format!(
                "route matching with {n} routes under callgrind failed"
            ));
        }
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / ((r2 - r1) * 8) as f64)
}

pub(super) fn client_instructions(
    exe: &Path,
    config: &Config,
    kind: ClientKind,
    endpoint: Endpoint,
    port: u16,
    n1: u64,
    n2: u64,
) -> Result<f64> {
    let mut totals = Vec::new();
    for n in [n1, n2] {
        let out = config
            .out
            .join(format!("callgrind.{}.{}.{n}", kind.name(), endpoint.key()));
        let status = callgrind_command(config.load_cpu, &out, exe)
            .args(["client", kind.name(), endpoint.key(), &port.to_string()])
            .arg("50")
            .arg(n.to_string())
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("valgrind: {e}"))?;
        if !status.success() {
            return Err(format!("client {} under callgrind failed", kind.name()));
        }
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / (n2 - n1) as f64)
}
