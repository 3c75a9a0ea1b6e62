//! HTTP/2 (h2c, prior knowledge): each h2-capable server's marginal instructions per request
//! under callgrind, driven by `h2load` (one connection, one stream at a time), after checking
//! with `nghttp` that every server answers the same over h2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::http::Endpoint;
use crate::servers::ServerKind;

use super::*;

/// Requests sent before the counted ones, in both runs (start-up and first-request costs
/// cancel in the difference).
const WARM_UP: u64 = 50;

/// The servers that speak h2: all but `raw-hyper-defaults` (hyper's HTTP/1.1-only builder).
pub(super) fn h2_servers(config: &Config) -> Vec<ServerKind> {
    config
        .servers
        .iter()
        .copied()
        .filter(|&k| k != ServerKind::RawHyperDefaults)
        .collect()
}

/// The POST body as a file, for `h2load -d` and `nghttp -d`.
fn body_file(config: &Config) -> Result<PathBuf> {
    let path = config.out.join("new-user.json");
    std::fs::write(&path, crate::api::NEW_USER_JSON).map_err(|e| e.to_string())?;
    Ok(path)
}

fn url(port: u16, endpoint: Endpoint) -> String {
    format!("http://127.0.0.1:{port}{}", endpoint.target())
}

/// The request options of `h2load` and `nghttp` alike: the body and its type for POST.
fn request_args(command: &mut Command, endpoint: Endpoint, body: &Path) {
    if endpoint == Endpoint::Create {
        command
            .arg("-d")
            .arg(body)
            .args(["-H", "content-type: application/json"]);
    }
}

/// `nghttp` (with `-v`: the frames too) on one request.
fn nghttp(port: u16, endpoint: Endpoint, body: &Path, verbose: bool) -> Result<String> {
    let mut command = Command::new("nghttp");
    if verbose {
        command.arg("-v");
    }
    request_args(&mut command, endpoint, body);
    let out = command
        .arg(url(port, endpoint))
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("nghttp: {e}"))?;
    if !out.status.success() {
        return Err(format!("nghttp {} failed", url(port, endpoint)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// One h2 exchange: the response's header fields (`:status` first, the others sorted; `date`
/// blanked, `x-request-id` dropped, as over HTTP/1.1) and its body.
fn exchange(port: u16, endpoint: Endpoint, body: &Path) -> Result<String> {
    let frames = nghttp(port, endpoint, body, true)?;
    let mut headers: Vec<String> = frames
        .lines()
        .filter_map(|line| line.split_once("] recv (stream_id=")?.1.split_once(") "))
        .filter_map(|(_, field)| {
            let name = field.strip_prefix(':').unwrap_or(field).split(':').next()?;
            match name {
                "date" => Some("date: <date>".to_owned()),
                "x-request-id" => None,
                _ => Some(field.to_owned()),
            }
        })
        .collect();
    headers.sort_by_key(|h| (!h.starts_with(":status"), h.clone()));
    let body_text = nghttp(port, endpoint, body, false)?;
    Ok(format!("{} | {body_text}", headers.join(" | ")))
}

/// Every h2 server answers every endpoint with the same status, headers and body.
pub(super) fn verify_h2(exe: &Path, config: &Config) -> Result<()> {
    require("h2load", &["--version"])?;
    require("nghttp", &["--version"])?;
    println!("\nchecking that every server answers the same over HTTP/2 (h2c, prior knowledge)");
    let body = body_file(config)?;
    let servers: Vec<(ServerKind, Server)> = h2_servers(config)
        .into_iter()
        .map(|k| Server::spawn(exe, k, Some(config.server_cpu), None).map(|s| (k, s)))
        .collect::<Result<_>>()?;
    let mut outcome = Ok(());
    'endpoints: for endpoint in Endpoint::ALL {
        let status = if endpoint == Endpoint::Create {
            ":status: 201"
        } else {
            ":status: 200"
        };
        let mut reference: Option<(ServerKind, String)> = None;
        for (kind, server) in &servers {
            let answer = match exchange(server.port, endpoint, &body) {
                Ok(answer) => answer,
                Err(e) => {
                    outcome = Err(format!("{}: {e}", kind.name()));
                    break 'endpoints;
                }
            };
            if !answer.starts_with(status) {
                outcome = Err(format!(
                    "{} answers {} over h2 with {answer}",
                    kind.name(),
                    endpoint.name()
                ));
                break 'endpoints;
            }
            match &reference {
                None => reference = Some((*kind, answer)),
                Some((ref_kind, ref_answer)) if *ref_answer != answer => {
                    outcome = Err(format!(
                        "{} and {} answer {} differently over h2:\n--- {}\n{ref_answer}\n--- {}\n{answer}",
                        ref_kind.name(),
                        kind.name(),
                        endpoint.name(),
                        ref_kind.name(),
                        kind.name()
                    ));
                    break 'endpoints;
                }
                Some(_) => {}
            }
        }
        if let Some((_, answer)) = reference {
            println!("  {:<22} identical: {answer}", endpoint.name());
        }
    }
    for (_, server) in servers {
        server.stop();
    }
    outcome
}

/// Sends `n` requests on one h2c connection, one stream at a time; checks that all succeeded.
fn h2load(port: u16, endpoint: Endpoint, body: &Path, n: u64, cpu: usize) -> Result<()> {
    let mut command = pinned(Some(cpu), "h2load");
    command.args(["-c", "1", "-m", "1", "-t", "1", "-n", &n.to_string()]);
    request_args(&mut command, endpoint, body);
    let out = command
        .arg(url(port, endpoint))
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("h2load: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let succeeded = text
        .lines()
        .find_map(|l| l.strip_prefix("requests: "))
        .and_then(|l| l.split(", ").find_map(|p| p.strip_suffix(" succeeded")))
        .and_then(|v| v.trim().parse::<u64>().ok());
    let ok_2xx = text
        .lines()
        .find_map(|l| l.strip_prefix("status codes: "))
        .and_then(|l| l.split_whitespace().next()?.parse::<u64>().ok());
    if !out.status.success() || succeeded != Some(n) || ok_2xx != Some(n) {
        return Err(format!(
            "h2load {}: {n} requests, not all 2xx:\n{text}",
            url(port, endpoint)
        ));
    }
    Ok(())
}

/// Instructions per h2 request: (Ir after W + n2 requests − Ir after W + n1) / (n2 − n1), each
/// run one h2load connection of W + n requests.
pub(super) fn h2_instructions(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    endpoint: Endpoint,
    (n1, n2): (u64, u64),
) -> Result<f64> {
    let body = body_file(config)?;
    let mut totals = Vec::new();
    for n in [n1, n2] {
        let out = config.out.join(format!(
            "callgrind.h2.{}.{}.{n}",
            kind.name(),
            endpoint.key()
        ));
        let server = Server::spawn(exe, kind, Some(config.server_cpu), Some(&out))?;
        let sent = h2load(server.port, endpoint, &body, WARM_UP + n, config.load_cpu);
        server.stop();
        sent?;
        totals.push(callgrind_total(&out, config.keep_profiles)?);
    }
    Ok((totals[1] - totals[0]) / (n2 - n1) as f64)
}

/// The h2 section of a run: checks, measures, keeps the figures in the report.
pub(super) fn run_h2(exe: &Path, config: &Config, report: &mut Report) -> Result<()> {
    let Some(counts) = config.callgrind else {
        return Ok(());
    };
    verify_h2(exe, config)?;
    println!(
        "\nHTTP/2 (h2c) instruction counts under callgrind ({} and {} requests after {WARM_UP}; h2load -c1 -m1)",
        counts.0, counts.1
    );
    for kind in h2_servers(config) {
        for endpoint in Endpoint::ALL {
            let ir = h2_instructions(exe, config, kind, endpoint, counts)?;
            println!(
                "  {:<15} {:<22} {:>9.0} Ir/request (h2)",
                kind.name(),
                endpoint.name(),
                ir
            );
            report.h2_ir.insert((kind, endpoint), ir);
        }
    }
    Ok(())
}

impl Report {
    /// The h2 table and the ratios pactum-native / each peer; the rows for the JSON.
    pub(super) fn print_h2(&self, json_ratios: &mut Vec<Value>) -> Vec<Value> {
        if self.h2_ir.is_empty() {
            return Vec::new();
        }
        let kinds: Vec<ServerKind> = {
            let mut k: Vec<ServerKind> = self.h2_ir.keys().map(|(k, _)| *k).collect();
            k.dedup();
            k
        };
        let get = |k, e| self.h2_ir.get(&(k, e)).copied();
        println!("\n=== HTTP/2 (h2c, prior knowledge, h2load -c1 -m1): Ir/request (marginal) ===");
        println!(
            "  {:<18} {:>10} {:>10} {:>10}",
            "server", "hello", "posts", "create"
        );
        for &kind in &kinds {
            println!(
                "  {:<18} {:>10} {:>10} {:>10}",
                kind.name(),
                fmt_opt(get(kind, Endpoint::Hello), |v| format!("{v:.0}")),
                fmt_opt(get(kind, Endpoint::Posts), |v| format!("{v:.0}")),
                fmt_opt(get(kind, Endpoint::Create), |v| format!("{v:.0}")),
            );
        }
        let a = ServerKind::PactumNative;
        if kinds.contains(&a) {
            println!(
                "\n  {:<34} {:>8} {:>8} {:>8}",
                "ratio (h2, Ir)", "hello", "posts", "create"
            );
            for &b in kinds.iter().filter(|&&b| b != a) {
                let values: BTreeMap<Endpoint, Option<f64>> = Endpoint::ALL
                    .into_iter()
                    .map(|e| (e, ratio(get(a, e), get(b, e))))
                    .collect();
                let label = format!("{} / {} (h2)", a.name(), b.name());
                println!(
                    "  {:<34} {:>8} {:>8} {:>8}",
                    label,
                    fmt_opt(values[&Endpoint::Hello], |v| format!("{v:.3}")),
                    fmt_opt(values[&Endpoint::Posts], |v| format!("{v:.3}")),
                    fmt_opt(values[&Endpoint::Create], |v| format!("{v:.3}")),
                );
                json_ratios.push(json!({
                    "ratio": label,
                    "measure": "Ir",
                    "hello": values[&Endpoint::Hello],
                    "posts": values[&Endpoint::Posts],
                    "create": values[&Endpoint::Create],
                    "goal": "(info)",
                }));
            }
        }
        self.h2_ir
            .iter()
            .map(|((kind, endpoint), ir)| {
                json!({
                    "server": kind.name(),
                    "endpoint": endpoint.name(),
                    "protocol": "h2c",
                    "instructions_per_request": ir,
                })
            })
            .collect()
    }
}
