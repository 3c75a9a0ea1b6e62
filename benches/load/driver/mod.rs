//! The driver: starts the servers, checks their answers, measures, prints, writes JSON.

mod callgrind;
mod cli;
mod h2;
mod memory;
mod processes;
mod report;
mod stats;
mod stream_memory;
mod streaming;
mod wrk;

use std::process::ExitCode;
use std::time::Instant;

use crate::clients::ClientKind;
use crate::http::Endpoint;
use crate::servers::ServerKind;

use callgrind::*;
use cli::*;
use h2::*;
use processes::*;
use report::*;
use stats::*;
use wrk::*;

pub(crate) fn main(args: &[String]) -> ExitCode {
    let config = match parse_args(args) {
        Ok(config) => config,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprint!("{HELP}");
            return ExitCode::from(2);
        }
    };
    match run(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("\nFAILED: {message}");
            ExitCode::FAILURE
        }
    }
}

type Result<T, E = String> = std::result::Result<T, E>;

/// The share of the server's core that other processes took during a run, when over 5 %
/// (`None` for a clean run, or when `/proc/stat` cannot be read): `busy_before` is the core's
/// busy ticks at the run's start, `server_ticks` the server's own during it.
fn others_share(
    config: &Config,
    busy_before: Option<u64>,
    server_ticks: u64,
    run_ticks: f64,
) -> Option<f64> {
    let busy = core_busy_ticks(config.server_cpu)?.saturating_sub(busy_before?);
    let share = busy.saturating_sub(server_ticks) as f64 / run_ticks;
    (share > 0.05).then_some(share)
}

fn run(config: &Config) -> Result<()> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    require("taskset", &["--version"])?;
    if config.load {
        require("wrk", &["--version"])?;
    }
    if config.callgrind.is_some() {
        require("valgrind", &["--version"])?;
    }
    let ticks_per_second = clock_ticks()?;
    println!(
        "peer_load: {} rounds x {} s per server and endpoint, wrk -t1 -c{} on cpu {}, servers on cpu {}; load average {}",
        config.rounds,
        config.duration,
        config.connections,
        config.load_cpu,
        config.server_cpu,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );

    // Start every server, pinned to the server core, one worker each.
    let mut running = Vec::new();
    for &kind in &config.servers {
        let server = Server::spawn(&exe, kind, Some(config.server_cpu), None)?;
        println!(
            "  {:<15} pid {:>7}  port {}",
            kind.name(),
            server.pid,
            server.port
        );
        running.push((kind, server));
    }

    verify(&running)?;

    let mut report = Report::default();
    std::fs::create_dir_all(&config.out).map_err(|e| e.to_string())?;
    let lua = config.out.join("post-users.lua");
    std::fs::write(
        &lua,
        format!(
            "wrk.method = \"POST\"\nwrk.body = '{}'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n",
            crate::api::NEW_USER_JSON
        ),
    )
    .map_err(|e| e.to_string())?;

    if config.load {
        println!("\nwarm-up (1 s per server and endpoint)");
        for (_, server) in &running {
            for endpoint in Endpoint::ALL {
                wrk(config, server.port, endpoint, &lua, 1)?;
            }
        }
        // Runs during which other processes took more than 5 % of the server's core: on a
        // shared machine (a build, another benchmark) they change the kernel's time per
        // request too, by more than the differences between servers.
        let mut contended = 0;
        for round in 0..config.rounds {
            let started = Instant::now();
            let n = running.len();
            // Endpoint by endpoint, every server in turn: the kernel's time per request
            // drifts over minutes on a virtual machine, so the runs compared with each other
            // are kept close in time.
            for j in 0..Endpoint::ALL.len() {
                let endpoint = Endpoint::ALL[(j + round) % Endpoint::ALL.len()];
                for i in 0..n {
                    let (kind, server) = &running[(i + round) % n];
                    let core_before = core_busy_ticks(config.server_cpu);
                    let before = crate::cpu_ticks(&server.pid.to_string());
                    let run = wrk(config, server.port, endpoint, &lua, config.duration)?;
                    let after = crate::cpu_ticks(&server.pid.to_string());
                    let server_ticks = (after.0 - before.0) + (after.1 - before.1);
                    let run_ticks = config.duration as f64 * ticks_per_second;
                    if let Some(share) = others_share(config, core_before, server_ticks, run_ticks)
                    {
                        contended += 1;
                        println!(
                            "  round {}, {} {}: other processes took {:.0} % of core {}: not a clean run",
                            round + 1,
                            kind.name(),
                            endpoint.name(),
                            100.0 * share,
                            config.server_cpu
                        );
                    }
                    let per_request =
                        |ticks: u64| ticks as f64 * 1e6 / ticks_per_second / run.requests as f64;
                    report
                        .samples
                        .entry((*kind, endpoint))
                        .or_default()
                        .push(Sample {
                            user_us: per_request(after.0 - before.0),
                            sys_us: per_request(after.1 - before.1),
                            rps: run.rps,
                            p50_us: run.p50_us,
                            p99_us: run.p99_us,
                        });
                }
            }
            println!(
                "round {}/{} done in {:.0} s",
                round + 1,
                config.rounds,
                started.elapsed().as_secs_f64()
            );
        }
        if contended > 0 {
            println!(
                "{contended} of {} runs shared the server's core with other processes: rerun on an idle machine",
                config.rounds * running.len() * Endpoint::ALL.len()
            );
        }
        for (kind, server) in &running {
            report.rss_kib.insert(*kind, server.peak_rss_kib());
        }
    }

    // The client benchmark runs against pactum-native (or the first server).
    if config.client {
        let target = running
            .iter()
            .find(|(k, _)| *k == ServerKind::PactumNative)
            .unwrap_or(&running[0]);
        println!("\nclient benchmark against {}", target.0.name());
        for round in 0..config.rounds {
            for i in 0..ClientKind::ALL.len() {
                let kind = ClientKind::ALL[(i + round) % ClientKind::ALL.len()];
                for endpoint in Endpoint::ALL {
                    let run = client_run(&exe, config, kind, endpoint, target.1.port)?;
                    report
                        .client_samples
                        .entry((kind, endpoint))
                        .or_default()
                        .push(run.sample(ticks_per_second));
                }
            }
            println!("client round {}/{} done", round + 1, config.rounds);
        }
    }

    for (_, server) in running {
        server.stop();
    }

    // Each server alone, after the others have stopped.
    let memory = match config.memory {
        Some(connections) if connections > 0 => Some(memory::measure(&exe, config, connections)?),
        _ => None,
    };
    let stream_memory = match config.stream_memory {
        Some(connections) if connections > 0 => {
            Some(stream_memory::measure(&exe, config, connections)?)
        }
        _ => None,
    };

    if let Some((n1, n2)) = config.callgrind {
        println!("\ninstruction counts under callgrind ({n1} and {n2} requests; marginal cost)");
        for &kind in &config.servers {
            for endpoint in Endpoint::ALL {
                let ir = server_instructions(&exe, config, kind, endpoint, n1, n2)?;
                println!(
                    "  {:<15} {:<22} {:>9.0} Ir/request",
                    kind.name(),
                    endpoint.name(),
                    ir
                );
                report.server_ir.insert((kind, endpoint), ir);
            }
        }
        // Large bodies: a tenth of the requests (each is ~200 times the work), on each
        // allocator the machine has.
        let counts = (n1 / 10, n2 / 10);
        for allocator in Allocator::available() {
            for &kind in &config.servers {
                for endpoint in Endpoint::LARGE {
                    let ir =
                        server_instructions_on(&exe, config, kind, endpoint, counts, allocator)?;
                    println!(
                        "  {:<15} {:<22} {:>9.0} Ir/request ({})",
                        kind.name(),
                        endpoint.name(),
                        ir,
                        allocator.name()
                    );
                    report.large_ir.insert((allocator, kind, endpoint), ir);
                }
            }
            let ir = limit_instructions(&exe, config, counts, allocator)?;
            println!(
                "  the batch's limit (parse, validate, sum, write) {ir:>9.0} Ir/iteration ({})",
                allocator.name()
            );
            report.batch_limit_ir.insert(allocator, ir);
        }
        for n in [10, 100, 1000] {
            let ir = route_instructions(&exe, config, n)?;
            println!("  route matching, {n:>4} routes      {ir:>9.0} Ir/lookup");
            report.route_ir.push((n, ir));
        }
        if config.client {
            let server = Server::spawn(
                &exe,
                ServerKind::PactumNative,
                Some(config.server_cpu),
                None,
            )?;
            for kind in ClientKind::ALL {
                for endpoint in Endpoint::ALL {
                    let ir =
                        client_instructions(&exe, config, kind, endpoint, server.port, n1, n2)?;
                    println!(
                        "  {:<15} {:<22} {:>9.0} Ir/call",
                        kind.name(),
                        endpoint.name(),
                        ir
                    );
                    report.client_ir.insert((kind, endpoint), ir);
                }
            }
            server.stop();
        }
    }

    if config.h2 {
        run_h2(&exe, config, &mut report)?;
    }

    let streaming = if config.streaming {
        streaming::measure(&exe, config)?
    } else {
        Vec::new()
    };

    let mut json = report.print(config);
    json["streaming"] = streaming.into();
    if let Some(memory) = &memory {
        memory::report(memory, config, &mut json);
    }
    if let Some(stream_memory) = &stream_memory {
        stream_memory::report(stream_memory, config, &mut json);
    }
    let path = config.out.join("results.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    println!("\nJSON: {}", path.display());
    Ok(())
}
