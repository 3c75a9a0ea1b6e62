//! The report: the tables printed and the JSON written.

use std::collections::BTreeMap;
use std::io::Write as _;

use serde_json::{json, Value};

use crate::clients::ClientKind;
use crate::http::Endpoint;
use crate::servers::ServerKind;

use super::*;

#[derive(Default)]
pub(super) struct Report {
    pub(super) samples: BTreeMap<(ServerKind, Endpoint), Vec<Sample>>,
    pub(super) rss_kib: BTreeMap<ServerKind, u64>,
    pub(super) server_ir: BTreeMap<(ServerKind, Endpoint), f64>,
    pub(super) client_samples: BTreeMap<(ClientKind, Endpoint), Vec<Sample>>,
    pub(super) client_ir: BTreeMap<(ClientKind, Endpoint), f64>,
    /// (routes, instructions per lookup).
    pub(super) route_ir: Vec<(usize, f64)>,
    /// Instructions per large-body request, by allocator.
    pub(super) large_ir: BTreeMap<(Allocator, ServerKind, Endpoint), f64>,
    /// Instructions per iteration of the batch's limit (no HTTP), by allocator.
    pub(super) batch_limit_ir: BTreeMap<Allocator, f64>,
    /// Instructions per request over HTTP/2 (h2c), see `h2.rs`.
    pub(super) h2_ir: BTreeMap<(ServerKind, Endpoint), f64>,
}

impl Report {
    pub(super) fn server_summaries(&self) -> BTreeMap<(ServerKind, Endpoint), Summary> {
        let mut out = BTreeMap::new();
        for endpoint in Endpoint::ALL {
            let sys_reference = median(
                self.samples
                    .iter()
                    .filter(|((_, e), _)| *e == endpoint)
                    .flat_map(|(_, s)| s.iter().map(|s| s.sys_us))
                    .collect(),
            );
            for ((kind, e), samples) in &self.samples {
                if *e == endpoint {
                    out.insert((*kind, endpoint), summarise(samples, sys_reference));
                }
            }
        }
        out
    }

    pub(super) fn client_summaries(&self) -> BTreeMap<(ClientKind, Endpoint), Summary> {
        let mut out = BTreeMap::new();
        for endpoint in Endpoint::ALL {
            let sys_reference = median(
                self.client_samples
                    .iter()
                    .filter(|((_, e), _)| *e == endpoint)
                    .flat_map(|(_, s)| s.iter().map(|s| s.sys_us))
                    .collect(),
            );
            for ((kind, e), samples) in &self.client_samples {
                if *e == endpoint {
                    out.insert((*kind, endpoint), summarise(samples, sys_reference));
                }
            }
        }
        out
    }

    /// Prints the tables and ratios; returns the same as JSON.
    pub(super) fn print(&self, config: &Config) -> Value {
        let servers = self.server_summaries();
        let clients = self.client_summaries();
        let mut json_servers = Vec::new();

        println!(
            "\n=== Servers: the server's own cost per request (medians of {} rounds) ===",
            config.rounds
        );
        println!("user/sys: the server's user CPU µs per request normalised by its own system time (user÷sys pooled over the rounds × the endpoint's median sys µs/request), ± its standard error; user, sys: raw medians (µs/request), sys with its lowest and highest round; Ir: instructions per request under callgrind (marginal)");
        for endpoint in Endpoint::ALL {
            println!("\n{}", endpoint.name());
            println!(
                "  {:<15} {:>9} {:>6} {:>8} {:>8} {:>11} {:>10} {:>9} {:>8} {:>8} {:>8}",
                "server",
                "user/sys",
                "±",
                "user",
                "sys",
                "sys range",
                "Ir/req",
                "req/s",
                "p50",
                "p99",
                "RSS"
            );
            for &kind in &config.servers {
                let s = servers.get(&(kind, endpoint));
                let ir = self.server_ir.get(&(kind, endpoint)).copied();
                let rss = self.rss_kib.get(&kind).copied();
                let sys_range = match s {
                    Some(s) if s.sys_min_us.is_finite() => {
                        format!("{:.2}-{:.2}", s.sys_min_us, s.sys_max_us)
                    }
                    _ => "-".into(),
                };
                println!(
                    "  {:<15} {:>9} {:>6} {:>8} {:>8} {:>11} {:>10} {:>9} {:>8} {:>8} {:>8}",
                    kind.name(),
                    fmt_opt(s.map(|s| s.norm_user_us), |v| format!("{v:.2}")),
                    fmt_opt(s.map(|s| s.stderr_pct), |v| format!("{v:.1}%")),
                    fmt_opt(s.map(|s| s.user_us), |v| format!("{v:.2}")),
                    fmt_opt(s.map(|s| s.sys_us), |v| format!("{v:.2}")),
                    sys_range,
                    fmt_opt(ir, |v| format!("{v:.0}")),
                    fmt_opt(s.map(|s| s.rps), |v| format!("{v:.0}")),
                    fmt_opt(s.map(|s| s.p50_us), fmt_us),
                    fmt_opt(s.map(|s| s.p99_us), fmt_us),
                    fmt_opt(rss.map(|k| k as f64), |k| format!("{:.1}M", k / 1024.0)),
                );
                json_servers.push(json!({
                    "server": kind.name(),
                    "endpoint": endpoint.name(),
                    "user_us_per_request_normalised": s.map(|s| s.norm_user_us),
                    "user_over_sys": s.map(|s| s.user_over_sys),
                    "user_over_sys_stderr_pct": s.map(|s| s.stderr_pct),
                    "user_us_per_request": s.map(|s| s.user_us),
                    "sys_us_per_request": s.map(|s| s.sys_us),
                    "sys_us_per_request_min": s.map(|s| s.sys_min_us),
                    "sys_us_per_request_max": s.map(|s| s.sys_max_us),
                    "instructions_per_request": ir,
                    "requests_per_second": s.map(|s| s.rps),
                    "p50_us": s.map(|s| s.p50_us),
                    "p99_us": s.map(|s| s.p99_us),
                    "peak_rss_kib": rss,
                    "rounds": s.map(|s| s.rounds),
                    "samples": self.samples.get(&(kind, endpoint)).map(|v| v.iter().map(|s| json!({
                        "user_us": s.user_us, "sys_us": s.sys_us, "rps": s.rps,
                        "p50_us": s.p50_us, "p99_us": s.p99_us,
                    })).collect::<Vec<_>>()),
                }));
            }
        }

        // Ratios.
        let pairs = [
            (
                ServerKind::PactumNative,
                ServerKind::RawHyperDefaults,
                "<= 1.10",
            ),
            (ServerKind::Axum, ServerKind::RawHyperDefaults, "(info)"),
            (ServerKind::Warp, ServerKind::RawHyperDefaults, "(info)"),
            (
                ServerKind::PactumWarp,
                ServerKind::RawHyperDefaults,
                "(info)",
            ),
            (ServerKind::PactumNative, ServerKind::RawHyper, "(info)"),
            (ServerKind::PactumNative, ServerKind::Warp, "<= 1.00"),
            (ServerKind::PactumNative, ServerKind::Axum, "< 1.00"),
            (ServerKind::PactumWarp, ServerKind::Warp, "<= 1.10"),
        ];
        type Measure = (
            &'static str,
            fn(
                &Report,
                &BTreeMap<(ServerKind, Endpoint), Summary>,
                ServerKind,
                Endpoint,
            ) -> Option<f64>,
        );
        let measures: [Measure; 6] = [
            ("user/sys", |_, s, k, e| {
                s.get(&(k, e)).map(|s| s.user_over_sys)
            }),
            ("Ir", |r, _, k, e| r.server_ir.get(&(k, e)).copied()),
            ("req/s", |_, s, k, e| s.get(&(k, e)).map(|s| s.rps)),
            ("p50", |_, s, k, e| s.get(&(k, e)).map(|s| s.p50_us)),
            ("p99", |_, s, k, e| s.get(&(k, e)).map(|s| s.p99_us)),
            ("RSS", |r, _, k, _| r.rss_kib.get(&k).map(|v| *v as f64)),
        ];
        let mut json_ratios = Vec::new();
        println!("\n=== Ratios (cost measures: user/sys and Ir; goal on both) ===");
        println!(
            "  {:<28} {:<9} {:>8} {:>8} {:>8}  goal",
            "ratio", "measure", "hello", "posts", "create"
        );
        for (a, b, goal) in pairs {
            if !config.servers.contains(&a) || !config.servers.contains(&b) {
                continue;
            }
            let label = format!("{} / {}", a.name(), b.name());
            for (i, (measure, get)) in measures.iter().enumerate() {
                let values: Vec<Option<f64>> = Endpoint::ALL
                    .iter()
                    .map(|&e| ratio(get(self, &servers, a, e), get(self, &servers, b, e)))
                    .collect();
                println!(
                    "  {:<28} {:<9} {:>8} {:>8} {:>8}  {}",
                    if i == 0 { label.as_str() } else { "" },
                    measure,
                    fmt_opt(values[0], |v| format!("{v:.3}")),
                    fmt_opt(values[1], |v| format!("{v:.3}")),
                    fmt_opt(values[2], |v| format!("{v:.3}")),
                    if i < 2 { goal } else { "(info)" },
                );
                json_ratios.push(json!({
                    "ratio": label,
                    "measure": measure,
                    "hello": values[0], "posts": values[1], "create": values[2],
                    "goal": if i < 2 { Some(goal) } else { None },
                }));
            }
        }

        self.print_large_bodies(config, &mut json_ratios);
        let h2_rows = self.print_h2(&mut json_ratios);

        // Clients.
        let mut json_clients = Vec::new();
        if !clients.is_empty() || !self.client_ir.is_empty() {
            println!(
                "\n=== Client: pactum-client vs raw reqwest, the client's own cost per call ==="
            );
            println!(
                "  {:<15} {:<22} {:>9} {:>6} {:>8} {:>8} {:>10} {:>9}",
                "client", "endpoint", "user/sys", "±", "user", "sys", "Ir/call", "calls/s"
            );
            for endpoint in Endpoint::ALL {
                for kind in ClientKind::ALL {
                    let s = clients.get(&(kind, endpoint));
                    let ir = self.client_ir.get(&(kind, endpoint)).copied();
                    println!(
                        "  {:<15} {:<22} {:>9} {:>6} {:>8} {:>8} {:>10} {:>9}",
                        kind.name(),
                        endpoint.name(),
                        fmt_opt(s.map(|s| s.norm_user_us), |v| format!("{v:.2}")),
                        fmt_opt(s.map(|s| s.stderr_pct), |v| format!("{v:.1}%")),
                        fmt_opt(s.map(|s| s.user_us), |v| format!("{v:.2}")),
                        fmt_opt(s.map(|s| s.sys_us), |v| format!("{v:.2}")),
                        fmt_opt(ir, |v| format!("{v:.0}")),
                        fmt_opt(s.map(|s| s.rps), |v| format!("{v:.0}")),
                    );
                    json_clients.push(json!({
                        "client": kind.name(),
                        "endpoint": endpoint.name(),
                        "user_us_per_call_normalised": s.map(|s| s.norm_user_us),
                        "user_over_sys": s.map(|s| s.user_over_sys),
                        "user_over_sys_stderr_pct": s.map(|s| s.stderr_pct),
                        "user_us_per_call": s.map(|s| s.user_us),
                        "sys_us_per_call": s.map(|s| s.sys_us),
                        "instructions_per_call": ir,
                        "calls_per_second": s.map(|s| s.rps),
                    }));
                }
            }
            let (a, b) = (ClientKind::Pactum, ClientKind::Reqwest);
            println!(
                "\n  {:<28} {:<9} {:>8} {:>8} {:>8}  goal",
                "ratio", "measure", "hello", "posts", "create"
            );
            let rows: [(&str, ClientMeasure<'_>); 3] = [
                (
                    "user/sys",
                    Box::new(|k, e| clients.get(&(k, e)).map(|s| s.user_over_sys)),
                ),
                ("Ir", Box::new(|k, e| self.client_ir.get(&(k, e)).copied())),
                (
                    "calls/s",
                    Box::new(|k, e| clients.get(&(k, e)).map(|s| s.rps)),
                ),
            ];
            for (i, (measure, get)) in rows.iter().enumerate() {
                let values: Vec<Option<f64>> = Endpoint::ALL
                    .iter()
                    .map(|&e| ratio(get(a, e), get(b, e)))
                    .collect();
                let label = format!("{} / {}", a.name(), b.name());
                println!(
                    "  {:<28} {:<9} {:>8} {:>8} {:>8}  {}",
                    if i == 0 { label.as_str() } else { "" },
                    measure,
                    fmt_opt(values[0], |v| format!("{v:.3}")),
                    fmt_opt(values[1], |v| format!("{v:.3}")),
                    fmt_opt(values[2], |v| format!("{v:.3}")),
                    if i < 2 { "<= 1.03" } else { "(info)" },
                );
                json_ratios.push(json!({
                    "ratio": label,
                    "measure": measure,
                    "hello": values[0], "posts": values[1], "create": values[2],
                    "goal": if i < 2 { Some("<= 1.03") } else { None },
                }));
            }
        }

        // Route matching.
        let mut json_routes = Vec::new();
        if let (Some(&(_, first)), Some(&(n_last, last))) =
            (self.route_ir.first(), self.route_ir.last())
        {
            println!(
                "\n=== Route matching: instructions per lookup (8 paths, params and static) ==="
            );
            let line: Vec<String> = self
                .route_ir
                .iter()
                .map(|(n, ir)| format!("{n} routes {ir:.0}"))
                .collect();
            println!(
                "  {}; {n_last}/{} = {:.3} (goal <= 1.05)",
                line.join(", "),
                self.route_ir[0].0,
                last / first
            );
            for (n, ir) in &self.route_ir {
                json_routes.push(json!({ "routes": n, "instructions_per_lookup": ir }));
            }
            json_ratios.push(json!({
                "ratio": format!("route matching {n_last} / {} routes", self.route_ir[0].0),
                "measure": "Ir",
                "value": last / first,
                "goal": "<= 1.05",
            }));
        }

        let mut stdout = std::io::stdout();
        let _ = stdout.flush();
        json_servers.extend(self.large_body_rows());
        json_servers.extend(h2_rows);
        json!({
            "config": {
                "rounds": config.rounds,
                "duration_s": config.duration,
                "connections": config.connections,
                "server_cpu": config.server_cpu,
                "load_cpu": config.load_cpu,
                "callgrind_requests": config.callgrind.map(|(a, b)| vec![a, b]),
                "client_calls": config.client_calls,
            },
            "servers": json_servers,
            "clients": json_clients,
            "route_matching": json_routes,
            "ratios": json_ratios,
        })
    }
}

impl Report {
    /// The large bodies table: each server's instructions per request against the limit — the
    /// same body parsed, validated, summed and answered without HTTP — on each allocator.
    fn print_large_bodies(&self, config: &Config, json_ratios: &mut Vec<Value>) {
        let allocators: Vec<Allocator> = self.batch_limit_ir.keys().copied().collect();
        if allocators.is_empty() {
            return;
        }
        for endpoint in Endpoint::LARGE {
            println!(
                "\n=== Large bodies: {} ({} bytes), Ir/request and its ratio to the limit ===",
                endpoint.name(),
                crate::api::batch_json().len()
            );
            print!("  {:<18}", "server");
            for allocator in &allocators {
                print!(" {:>10} {:>8}", allocator.name(), "/ limit");
            }
            println!();
            print!("  {:<18}", "limit (no HTTP)");
            for allocator in &allocators {
                print!(" {:>10.0} {:>8}", self.batch_limit_ir[allocator], "1.000");
            }
            println!();
            for &kind in &config.servers {
                print!("  {:<18}", kind.name());
                for &allocator in &allocators {
                    let ir = self.large_ir.get(&(allocator, kind, endpoint)).copied();
                    let over = ir.map(|ir| ir / self.batch_limit_ir[&allocator]);
                    print!(
                        " {:>10} {:>8}",
                        fmt_opt(ir, |v| format!("{v:.0}")),
                        fmt_opt(over, |v| format!("{v:.3}"))
                    );
                    if matches!(kind, ServerKind::PactumNative | ServerKind::PactumHalfClose) {
                        json_ratios.push(json!({
                            "ratio": format!("{} {} / limit ({})", kind.name(), endpoint.name(), allocator.name()),
                            "measure": "Ir",
                            "value": over,
                            "goal": "<= 1.10",
                        }));
                    }
                }
                println!();
            }
        }
        println!("\n  the error path (one invalid item) / the happy path, Ir:");
        for &kind in &config.servers {
            print!("  {:<18}", kind.name());
            for &allocator in &allocators {
                let get = |e| self.large_ir.get(&(allocator, kind, e)).copied();
                let over = ratio(get(Endpoint::BatchInvalid), get(Endpoint::Batch));
                print!(" {:>19}", fmt_opt(over, |v| format!("{v:.3}")));
                if kind == ServerKind::PactumNative {
                    json_ratios.push(json!({
                        "ratio": format!("{} batch error path / happy path ({})", kind.name(), allocator.name()),
                        "measure": "Ir",
                        "value": over,
                        "goal": "<= 1.50",
                    }));
                }
            }
            println!();
        }
    }

    /// The large bodies' rows for the JSON.
    fn large_body_rows(&self) -> Vec<Value> {
        let mut rows: Vec<Value> = self
            .large_ir
            .iter()
            .map(|((allocator, kind, endpoint), ir)| {
                json!({
                    "server": kind.name(),
                    "endpoint": endpoint.name(),
                    "allocator": allocator.name(),
                    "instructions_per_request": ir,
                })
            })
            .collect();
        rows.extend(self.batch_limit_ir.iter().map(|(allocator, ir)| {
            json!({
                "server": "limit",
                "endpoint": Endpoint::Batch.name(),
                "allocator": allocator.name(),
                "instructions_per_request": ir,
            })
        }));
        rows
    }
}
