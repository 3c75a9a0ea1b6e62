//! The processes a run starts: tools it needs, servers pinned to a core, their answers checked.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::http::{self, Endpoint};
use crate::servers::ServerKind;

use super::*;

pub(super) fn require(tool: &str, args: &[&str]) -> Result<()> {
    match Command::new(tool)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => Ok(()),
        Err(e) => Err(format!(
            "`{tool}` is needed ({e}); benches/peer-load.sh installs it"
        )),
    }
}

pub(super) fn clock_ticks() -> Result<f64> {
    let out = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .map_err(|e| format!("getconf CLK_TCK: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("getconf CLK_TCK: {e}"))
}

/// The clock ticks core `cpu` has been busy so far (`/proc/stat`: user, nice, system, irq
/// and softirq); `None` when it cannot be read.
pub(super) fn core_busy_ticks(cpu: usize) -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let name = format!("cpu{cpu}");
    let line = stat
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name.as_str()))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    // user nice system idle iowait irq softirq steal ...
    Some(ticks.first()? + ticks.get(1)? + ticks.get(2)? + ticks.get(5)? + ticks.get(6)?)
}

pub(super) fn pinned(cpu: Option<usize>, program: &str) -> Command {
    match cpu {
        Some(cpu) => {
            let mut command = Command::new("taskset");
            command.arg("-c").arg(cpu.to_string()).arg(program);
            command
        }
        None => Command::new(program),
    }
}

/// The allocator a measured process runs on: the C library's, or one preloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Allocator {
    Glibc,
    /// mimalloc, from Debian's `libmimalloc2.0` (`LD_PRELOAD`: every server and the limit
    /// alike, nothing rebuilt).
    Mimalloc,
}

impl Allocator {
    const MIMALLOC: &'static str = "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2";

    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Glibc => "glibc",
            Self::Mimalloc => "mimalloc",
        }
    }

    /// The allocators this machine has.
    pub(super) fn available() -> Vec<Self> {
        let mut all = vec![Self::Glibc];
        if Path::new(Self::MIMALLOC).exists() {
            all.push(Self::Mimalloc);
        }
        all
    }

    pub(super) fn set(self, command: &mut Command) {
        match self {
            Self::Glibc => command.env_remove("LD_PRELOAD"),
            Self::Mimalloc => command.env("LD_PRELOAD", Self::MIMALLOC),
        };
    }
}

pub(super) struct Server {
    pub(super) child: Child,
    pub(super) _stdout: BufReader<ChildStdout>,
    pub(super) pid: u32,
    pub(super) port: u16,
}

impl Server {
    pub(super) fn spawn(
        exe: &Path,
        kind: ServerKind,
        cpu: Option<usize>,
        callgrind_out: Option<&Path>,
    ) -> Result<Self> {
        Self::spawn_on(exe, kind, cpu, callgrind_out, Allocator::Glibc)
    }

    /// A server whose allocator is `allocator`.
    pub(super) fn spawn_on(
        exe: &Path,
        kind: ServerKind,
        cpu: Option<usize>,
        callgrind_out: Option<&Path>,
        allocator: Allocator,
    ) -> Result<Self> {
        let mut command = match callgrind_out {
            Some(out) => callgrind_command(cpu.unwrap_or(0), out, exe),
            None => {
                let mut command = pinned(cpu, &exe.to_string_lossy());
                command.env_remove("RUST_LOG");
                command
            }
        };
        allocator.set(&mut command);
        let mut child = command
            .arg("serve")
            .arg(kind.name())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("start {}: {e}", kind.name()))?;
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", kind.name()))?;
        let port = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("{} did not start: {line:?}", kind.name()))?;
        Ok(Self {
            pid: child.id(),
            child,
            _stdout: stdout,
            port,
        })
    }

    pub(super) fn peak_rss_kib(&self) -> u64 {
        status_kib(self.pid, "VmHWM").unwrap_or(0)
    }

    /// Closes stdin (the server exits) and waits.
    pub(super) fn stop(mut self) {
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
}

/// Every server must answer every endpoint with the same bytes (but the `date` value).
pub(super) fn verify(running: &[(ServerKind, Server)]) -> Result<()> {
    println!("\nchecking that every server answers byte for byte the same");
    for endpoint in Endpoint::ALL.into_iter().chain(Endpoint::LARGE) {
        let mut reference: Option<(ServerKind, String)> = None;
        for (kind, server) in running {
            let mut conn = http::Conn::connect(server.port).map_err(|e| e.to_string())?;
            // Twice on one connection: keep-alive works and the answer does not change.
            let first = http::normalise(&conn.send(endpoint).map_err(|e| e.to_string())?);
            let second = http::normalise(&conn.send(endpoint).map_err(|e| e.to_string())?);
            if first != second {
                return Err(format!(
                    "{} answers {} differently on a second request:\n{first}\n---\n{second}",
                    kind.name(),
                    endpoint.name()
                ));
            }
            if !first.starts_with(endpoint.expected_status()) {
                return Err(format!(
                    "{} answers {} with\n{first}",
                    kind.name(),
                    endpoint.name()
                ));
            }
            // An error's body is each server's own: the status alone is compared.
            if endpoint == Endpoint::BatchInvalid {
                continue;
            }
            match &reference {
                None => reference = Some((*kind, first)),
                Some((ref_kind, ref_text)) if *ref_text != first => {
                    return Err(format!(
                        "{} and {} answer {} differently:\n--- {}\n{ref_text}\n--- {}\n{first}",
                        ref_kind.name(),
                        kind.name(),
                        endpoint.name(),
                        ref_kind.name(),
                        kind.name()
                    ));
                }
                Some(_) => {}
            }
        }
        let Some((_, text)) = reference else {
            println!(
                "  {:<22} every server: {}",
                endpoint.name(),
                endpoint.expected_status().trim()
            );
            continue;
        };
        println!(
            "  {:<22} identical: {}",
            endpoint.name(),
            text.replace("\r\n", " | ")
        );
    }
    Ok(())
}

/// A memory figure of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`); `None` when the process
/// is gone or has no such line.
pub(super) fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|line| {
        line.strip_prefix(field)?
            .strip_prefix(':')?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    })
}
