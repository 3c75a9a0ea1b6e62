//! Load with wrk, and the client benchmark's runs, parsed into figures.

use std::path::Path;
use std::process::Stdio;

use crate::clients::ClientKind;
use crate::http::Endpoint;

use super::*;

pub(super) struct WrkRun {
    pub(super) requests: u64,
    pub(super) rps: f64,
    pub(super) p50_us: f64,
    pub(super) p99_us: f64,
}

pub(super) fn wrk(
    config: &Config,
    port: u16,
    endpoint: Endpoint,
    lua: &Path,
    secs: u64,
) -> Result<WrkRun> {
    let mut command = pinned(Some(config.load_cpu), "wrk");
    command
        .arg("-t1")
        .arg(format!("-c{}", config.connections))
        .arg(format!("-d{secs}s"))
        .arg("--latency");
    if endpoint == Endpoint::Create {
        command.arg("-s").arg(lua);
    }
    command.arg(format!("http://127.0.0.1:{port}{}", endpoint.target()));
    let out = command.output().map_err(|e| format!("wrk: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!(
            "wrk failed: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    parse_wrk(&text).ok_or_else(|| format!("cannot read wrk's output:\n{text}"))
}

pub(super) fn parse_wrk(text: &str) -> Option<WrkRun> {
    if let Some(line) = text
        .lines()
        .find(|l| l.contains("Non-2xx or 3xx responses"))
    {
        eprintln!("wrk: {}", line.trim());
        return None;
    }
    let requests = text
        .lines()
        .find(|l| l.contains(" requests in "))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let rps = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Requests/sec:"))?
        .trim()
        .parse()
        .ok()?;
    let percentile = |p: &str| {
        text.lines().find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next()? == p).then(|| parse_duration_us(words.next()?))?
        })
    };
    Some(WrkRun {
        requests,
        rps,
        p50_us: percentile("50%")?,
        p99_us: percentile("99%")?,
    })
}

pub(super) fn parse_duration_us(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    Some(match unit {
        "us" => value,
        "ms" => value * 1e3,
        "s" => value * 1e6,
        "m" => value * 60e6,
        _ => return None,
    })
}

pub(super) struct ClientRun {
    pub(super) calls: u64,
    pub(super) user_ticks: u64,
    pub(super) sys_ticks: u64,
    pub(super) elapsed_us: u64,
}

impl ClientRun {
    pub(super) fn sample(&self, ticks_per_second: f64) -> Sample {
        let per_call = |ticks: u64| ticks as f64 * 1e6 / ticks_per_second / self.calls as f64;
        let per_second = self.calls as f64 * 1e6 / self.elapsed_us as f64;
        Sample {
            user_us: per_call(self.user_ticks),
            sys_us: per_call(self.sys_ticks),
            rps: per_second,
            p50_us: self.elapsed_us as f64 / self.calls as f64,
            p99_us: f64::NAN,
        }
    }
}

pub(super) fn client_run(
    exe: &Path,
    config: &Config,
    kind: ClientKind,
    endpoint: Endpoint,
    port: u16,
) -> Result<ClientRun> {
    let out = pinned(Some(config.load_cpu), &exe.to_string_lossy())
        .args(["client", kind.name(), endpoint.key(), &port.to_string()])
        .arg("500")
        .arg(config.client_calls.to_string())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("client: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let field = |name: &str| -> Option<u64> {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
    };
    match (
        out.status.success(),
        field("calls"),
        field("user_ticks"),
        field("sys_ticks"),
        field("elapsed_us"),
    ) {
        (true, Some(calls), Some(user_ticks), Some(sys_ticks), Some(elapsed_us)) => Ok(ClientRun {
            calls,
            user_ticks,
            sys_ticks,
            elapsed_us,
        }),
        _ => Err(format!(
            "client {} {} failed: {text}",
            kind.name(),
            endpoint.name()
        )),
    }
}
