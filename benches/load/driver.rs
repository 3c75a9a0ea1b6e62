//! The driver: starts the servers, checks their answers, measures, prints, writes JSON.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::clients::ClientKind;
use crate::http::{self, Endpoint};
use crate::servers::ServerKind;

const HELP: &str = "\
peer_load: pactum against raw hyper, axum and warp (run it through benches/peer-load.sh)

OPTIONS
  --rounds N            measured rounds, servers in rotating order (default 5)
  --duration S          seconds of wrk load per server, endpoint and round (default 3)
  --connections N       wrk connections (default 32)
  --server-cpu N        the core the servers are pinned to (default 0)
  --load-cpu N          the core wrk and the clients are pinned to (default 1)
  --servers A,B,..      servers to run (default raw-hyper,axum,warp,pactum-native,pactum-warp;
                        also: pactum-service, the pipeline service on the shared accept loop)
  --callgrind N1,N2     request counts for the marginal instruction count (default 200,1200)
  --client-calls N      calls per client run (default 20000)
  --no-load             skip the wrk measurements
  --no-callgrind        skip the instruction counts
  --no-client           skip the client benchmark
  --keep-profiles       keep the callgrind output files (in --out) for callgrind_annotate
  --out DIR             where to write results.json (default target/peer-load)
";

struct Config {
    rounds: usize,
    duration: u64,
    connections: usize,
    server_cpu: usize,
    load_cpu: usize,
    servers: Vec<ServerKind>,
    callgrind: Option<(u64, u64)>,
    client_calls: u64,
    load: bool,
    client: bool,
    keep_profiles: bool,
    out: PathBuf,
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut config = Config {
        rounds: 5,
        duration: 3,
        connections: 32,
        server_cpu: 0,
        load_cpu: 1,
        servers: ServerKind::DEFAULT.to_vec(),
        callgrind: Some((200, 1200)),
        client_calls: 20_000,
        load: true,
        client: true,
        keep_profiles: false,
        out: PathBuf::from("target/peer-load"),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{arg} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{arg}: {e}"));
        match arg.as_str() {
            "--rounds" => config.rounds = number(value()?)? as usize,
            "--duration" => config.duration = number(value()?)?,
            "--connections" => config.connections = number(value()?)? as usize,
            "--server-cpu" => config.server_cpu = number(value()?)? as usize,
            "--load-cpu" => config.load_cpu = number(value()?)? as usize,
            "--client-calls" => config.client_calls = number(value()?)?,
            "--servers" => {
                config.servers = value()?
                    .split(',')
                    .map(|s| ServerKind::parse(s).ok_or(format!("unknown server {s}")))
                    .collect::<Result<_, _>>()?;
            }
            "--callgrind" => {
                let v = value()?;
                let (a, b) = v.split_once(',').ok_or("--callgrind N1,N2")?;
                let (a, b) = (number(a.into())?, number(b.into())?);
                if b <= a {
                    return Err("--callgrind: N2 must be larger than N1".into());
                }
                config.callgrind = Some((a, b));
            }
            "--no-load" => config.load = false,
            "--no-callgrind" => config.callgrind = None,
            "--no-client" => config.client = false,
            "--keep-profiles" => config.keep_profiles = true,
            "--out" => config.out = PathBuf::from(value()?),
            "--bench" => {} // passed by `cargo bench`
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if config.rounds == 0 || config.duration == 0 {
        return Err("--rounds and --duration must be at least 1".into());
    }
    Ok(config)
}

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
        for round in 0..config.rounds {
            let started = Instant::now();
            let n = running.len();
            for i in 0..n {
                let (kind, server) = &running[(i + round) % n];
                for j in 0..Endpoint::ALL.len() {
                    let endpoint = Endpoint::ALL[(j + round) % Endpoint::ALL.len()];
                    let before = crate::cpu_ticks(&server.pid.to_string());
                    let run = wrk(config, server.port, endpoint, &lua, config.duration)?;
                    let after = crate::cpu_ticks(&server.pid.to_string());
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

    let json = report.print(config);
    let path = config.out.join("results.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    println!("\nJSON: {}", path.display());
    Ok(())
}

fn require(tool: &str, args: &[&str]) -> Result<()> {
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

fn clock_ticks() -> Result<f64> {
    let out = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .map_err(|e| format!("getconf CLK_TCK: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("getconf CLK_TCK: {e}"))
}

fn pinned(cpu: Option<usize>, program: &str) -> Command {
    match cpu {
        Some(cpu) => {
            let mut command = Command::new("taskset");
            command.arg("-c").arg(cpu.to_string()).arg(program);
            command
        }
        None => Command::new(program),
    }
}

fn callgrind_command(cpu: usize, out: &Path, exe: &Path) -> Command {
    let mut command = pinned(Some(cpu), "valgrind");
    command
        .arg("--tool=callgrind")
        .arg("-q")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(exe);
    command
}

/// A server process.
struct Server {
    child: Child,
    _stdout: BufReader<ChildStdout>,
    pid: u32,
    port: u16,
}

impl Server {
    fn spawn(
        exe: &Path,
        kind: ServerKind,
        cpu: Option<usize>,
        callgrind_out: Option<&Path>,
    ) -> Result<Self> {
        let mut command = match callgrind_out {
            Some(out) => callgrind_command(cpu.unwrap_or(0), out, exe),
            None => {
                let mut command = pinned(cpu, &exe.to_string_lossy());
                command.env_remove("RUST_LOG");
                command
            }
        };
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

    fn peak_rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .ok()
            .and_then(|status| {
                status.lines().find_map(|line| {
                    line.strip_prefix("VmHWM:")?
                        .trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse()
                        .ok()
                })
            })
            .unwrap_or(0)
    }

    /// Closes stdin (the server exits) and waits.
    fn stop(mut self) {
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
fn verify(running: &[(ServerKind, Server)]) -> Result<()> {
    println!("\nchecking that every server answers byte for byte the same");
    for endpoint in Endpoint::ALL {
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
            let expected = if endpoint == Endpoint::Create {
                "HTTP/1.1 201 Created\r\n"
            } else {
                "HTTP/1.1 200 OK\r\n"
            };
            if !first.starts_with(expected) {
                return Err(format!(
                    "{} answers {} with\n{first}",
                    kind.name(),
                    endpoint.name()
                ));
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
        let (_, text) = reference.expect("at least one server");
        println!(
            "  {:<22} identical: {}",
            endpoint.name(),
            text.replace("\r\n", " | ")
        );
    }
    Ok(())
}

struct WrkRun {
    requests: u64,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
}

fn wrk(config: &Config, port: u16, endpoint: Endpoint, lua: &Path, secs: u64) -> Result<WrkRun> {
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

fn parse_wrk(text: &str) -> Option<WrkRun> {
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

fn parse_duration_us(text: &str) -> Option<f64> {
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

struct ClientRun {
    calls: u64,
    user_ticks: u64,
    sys_ticks: u64,
    elapsed_us: u64,
}

impl ClientRun {
    fn sample(&self, ticks_per_second: f64) -> Sample {
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

fn client_run(
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

/// The total instruction count in a callgrind output file.
fn callgrind_total(path: &Path, keep: bool) -> Result<f64> {
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
fn server_instructions(
    exe: &Path,
    config: &Config,
    kind: ServerKind,
    endpoint: Endpoint,
    n1: u64,
    n2: u64,
) -> Result<f64> {
    let mut totals = Vec::new();
    for n in [n1, n2] {
        let out = config
            .out
            .join(format!("callgrind.{}.{}.{n}", kind.name(), endpoint.key()));
        let server = Server::spawn(exe, kind, Some(config.server_cpu), Some(&out))?;
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

/// Instructions per route lookup in a table of `n` routes: marginal between two counts of
/// lookup rounds (8 lookups each).
fn route_instructions(exe: &Path, config: &Config, n: usize) -> Result<f64> {
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

fn client_instructions(
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

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
struct Sample {
    user_us: f64,
    sys_us: f64,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
}

#[derive(Default)]
struct Report {
    samples: BTreeMap<(ServerKind, Endpoint), Vec<Sample>>,
    rss_kib: BTreeMap<ServerKind, u64>,
    server_ir: BTreeMap<(ServerKind, Endpoint), f64>,
    client_samples: BTreeMap<(ClientKind, Endpoint), Vec<Sample>>,
    client_ir: BTreeMap<(ClientKind, Endpoint), f64>,
    /// (routes, instructions per lookup).
    route_ir: Vec<(usize, f64)>,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// Reads one measure of one client on one endpoint.
type ClientMeasure<'a> = Box<dyn Fn(ClientKind, Endpoint) -> Option<f64> + 'a>;

/// The medians of one server (or client) on one endpoint.
#[derive(Debug, Clone, Copy)]
struct Summary {
    /// The user ÷ sys ratio (pooled over the rounds), times the endpoint's reference sys µs
    /// (the median over every server and round).
    norm_user_us: f64,
    user_over_sys: f64,
    /// The standard error of the per-round user ÷ sys ratios, in % of their mean.
    stderr_pct: f64,
    user_us: f64,
    sys_us: f64,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
    rounds: usize,
}

fn summarise(samples: &[Sample], sys_reference: f64) -> Summary {
    let of = |f: fn(&Sample) -> f64| median(samples.iter().map(f).collect());
    // Pooled over the rounds (the kernel samples user/system time at each tick: the more
    // ticks, the finer the split), with the standard error of the per-round ratios.
    let user: f64 = samples.iter().map(|s| s.user_us).sum();
    let sys: f64 = samples.iter().map(|s| s.sys_us).sum();
    let user_over_sys = user / sys;
    let ratios: Vec<f64> = samples.iter().map(|s| s.user_us / s.sys_us).collect();
    let n = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / n;
    let variance = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Summary {
        norm_user_us: user_over_sys * sys_reference,
        user_over_sys,
        stderr_pct: 100.0 * (variance / n).sqrt() / mean,
        user_us: of(|s| s.user_us),
        sys_us: of(|s| s.sys_us),
        rps: of(|s| s.rps),
        p50_us: of(|s| s.p50_us),
        p99_us: of(|s| s.p99_us),
        rounds: samples.len(),
    }
}

fn fmt_us(us: f64) -> String {
    if !us.is_finite() {
        "-".into()
    } else if us >= 1000.0 {
        format!("{:.2}ms", us / 1000.0)
    } else {
        format!("{us:.0}us")
    }
}

fn fmt_opt(value: Option<f64>, f: impl Fn(f64) -> String) -> String {
    match value {
        Some(v) if v.is_finite() => f(v),
        _ => "-".into(),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && b != 0.0 => Some(a / b),
        _ => None,
    }
}

impl Report {
    fn server_summaries(&self) -> BTreeMap<(ServerKind, Endpoint), Summary> {
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

    fn client_summaries(&self) -> BTreeMap<(ClientKind, Endpoint), Summary> {
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
    fn print(&self, config: &Config) -> Value {
        let servers = self.server_summaries();
        let clients = self.client_summaries();
        let mut json_servers = Vec::new();

        println!(
            "\n=== Servers: the server's own cost per request (medians of {} rounds) ===",
            config.rounds
        );
        println!("user/sys: the server's user CPU µs per request normalised by its own system time (user÷sys pooled over the rounds × the endpoint's median sys µs/request), ± its standard error; user, sys: raw medians (µs/request); Ir: instructions per request under callgrind (marginal)");
        for endpoint in Endpoint::ALL {
            println!("\n{}", endpoint.name());
            println!(
                "  {:<15} {:>9} {:>6} {:>8} {:>8} {:>10} {:>9} {:>8} {:>8} {:>8}",
                "server", "user/sys", "±", "user", "sys", "Ir/req", "req/s", "p50", "p99", "RSS"
            );
            for &kind in &config.servers {
                let s = servers.get(&(kind, endpoint));
                let ir = self.server_ir.get(&(kind, endpoint)).copied();
                let rss = self.rss_kib.get(&kind).copied();
                println!(
                    "  {:<15} {:>9} {:>6} {:>8} {:>8} {:>10} {:>9} {:>8} {:>8} {:>8}",
                    kind.name(),
                    fmt_opt(s.map(|s| s.norm_user_us), |v| format!("{v:.2}")),
                    fmt_opt(s.map(|s| s.stderr_pct), |v| format!("{v:.1}%")),
                    fmt_opt(s.map(|s| s.user_us), |v| format!("{v:.2}")),
                    fmt_opt(s.map(|s| s.sys_us), |v| format!("{v:.2}")),
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
            (ServerKind::PactumNative, ServerKind::RawHyper, "<= 1.03"),
            (ServerKind::PactumNative, ServerKind::Axum, "< 1.00"),
            (ServerKind::PactumWarp, ServerKind::Warp, "<= 1.03"),
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
                "  {}; {n_last}/{} = {:.3} (goal <= 1.03)",
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
                "goal": "<= 1.03",
            }));
        }

        let mut stdout = std::io::stdout();
        let _ = stdout.flush();
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
