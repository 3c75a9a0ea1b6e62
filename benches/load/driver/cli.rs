//! The command line: options and their defaults.

use std::path::PathBuf;

use crate::servers::ServerKind;

use super::*;

pub(super) const HELP: &str = "\
peer_load: pactum against raw hyper, axum and warp (run it through benches/peer-load.sh)

OPTIONS
  --rounds N            measured rounds, servers in rotating order (default 5)
  --duration S          seconds of wrk load per server, endpoint and round (default 3)
  --connections N       wrk connections (default 32)
  --server-cpu N        the core the servers are pinned to (default 0)
  --load-cpu N          the core wrk and the clients are pinned to (default 1)
  --servers A,B,..      servers to run (default raw-hyper-defaults,raw-hyper,axum,warp,pactum-native,pactum-warp;
                        also: pactum-service, the pipeline service on the shared accept loop,
                        and pactum-half-close, the native server with http1_half_close)
  --callgrind N1,N2     request counts for the marginal instruction count (default 200,1200)
  --client-calls N      calls per client run (default 20000)
  --no-load             skip the wrk measurements
  --no-callgrind        skip the instruction counts
  --no-client           skip the client benchmark
  --no-streaming        skip the 100 MiB download and upload (pactum's servers)
  --no-h2               skip the HTTP/2 (h2c) instruction counts (needs h2load and nghttp)
  --no-memory           skip the memory per idle connection
  --memory-connections N  idle keep-alive connections per memory run (default 10000)
  --no-stream-memory    skip the memory per open SSE stream and per in-flight multipart upload
  --stream-memory-connections N  streams (and uploads) per stream-memory run (default 1000)
  --keep-profiles       keep the callgrind output files (in --out) for callgrind_annotate
  --out DIR             where to write results.json (default target/peer-load)
";

pub(super) struct Config {
    pub(super) rounds: usize,
    pub(super) duration: u64,
    pub(super) connections: usize,
    pub(super) server_cpu: usize,
    pub(super) load_cpu: usize,
    pub(super) servers: Vec<ServerKind>,
    pub(super) callgrind: Option<(u64, u64)>,
    pub(super) client_calls: u64,
    pub(super) load: bool,
    pub(super) client: bool,
    pub(super) streaming: bool,
    pub(super) h2: bool,
    pub(super) keep_profiles: bool,
    /// Idle connections per memory run; `None`: no memory measurement.
    pub(super) memory: Option<usize>,
    /// Open SSE streams (and in-flight uploads) per run; `None`: no such measurement.
    pub(super) stream_memory: Option<usize>,
    pub(super) out: PathBuf,
}

pub(super) fn parse_args(args: &[String]) -> Result<Config, String> {
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
        streaming: true,
        h2: true,
        keep_profiles: false,
        memory: Some(10_000),
        stream_memory: Some(1_000),
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
            "--no-streaming" => config.streaming = false,
            "--no-h2" => config.h2 = false,
            "--keep-profiles" => config.keep_profiles = true,
            "--no-memory" => config.memory = None,
            "--memory-connections" => config.memory = Some(number(value()?)? as usize),
            "--no-stream-memory" => config.stream_memory = None,
            "--stream-memory-connections" => {
                config.stream_memory = Some(number(value()?)? as usize);
            }
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
