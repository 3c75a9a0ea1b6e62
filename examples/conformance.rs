//! The conformance fixture (the fixture table in CONTRIBUTING.md): every behaviour of pactum behind one server, so any
//! HTTP client can check the library from the outside. Both adapters serve the same contracts
//! and must answer byte for byte the same.
//!
//! ```text
//! cargo run --release --example conformance -- --adapter native --port 0
//! cargo run --release --example conformance -- --adapter warp   --port 0
//! ```
//!
//! The first line on stdout is `listening on http://HOST:PORT` (the real port). Started with a
//! socket passed by systemd (`LISTEN_FDS`), it serves on that socket. SIGTERM or
//! SIGINT shut it down gracefully: in-flight requests finish (up to 10 s), exit status 0.
//! Logs go to stderr (`RUST_LOG=debug` for more). `GET /openapi.json` answers the fixture's
//! OpenAPI 3.1 document (`api::openapi()`), which `tests/schemathesis/run.sh` tests it from;
//! `GET /docs` an interactive page for it (Swagger UI, embedded in pactum: it works offline;
//! `tests/browser/run.sh` opens it in headless Chromium). `--print-openapi 3.1.0|3.0.3|3.2.0`
//! prints the document in that OpenAPI version and exits (`.ci/run` generates a progenitor
//! client from the 3.0.3 one).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line program"
)]

// Shared with the tests through the workspace's test kit (`tests/kit`, which compiles this module
// as `pactum_test_kit::conformance`); they use more of it than this binary.
#[allow(unreachable_pub, missing_docs, dead_code)]
#[path = "conformance/api/mod.rs"]
mod api;

use std::io::Write;
use std::process::ExitCode;

use pactum::openapi::OpenApiVersion;
use pactum::ServerOptions;
use warp::Filter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Adapter {
    Native,
    Warp,
}

#[derive(Debug)]
struct Args {
    adapter: Adapter,
    port: u16,
    host: String,
    print_openapi: Option<OpenApiVersion>,
}

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut parsed = Self {
            adapter: Adapter::Native,
            port: 3000,
            host: "127.0.0.1".to_owned(),
            print_openapi: None,
        };
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
            match flag.as_str() {
                "--adapter" => {
                    parsed.adapter = match value()?.as_str() {
                        "native" => Adapter::Native,
                        "warp" => Adapter::Warp,
                        other => return Err(format!("unknown adapter `{other}` (native|warp)")),
                    }
                }
                "--port" => parsed.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
                "--host" => parsed.host = value()?,
                "--print-openapi" => {
                    parsed.print_openapi = Some(match value()?.as_str() {
                        "3.1.0" => OpenApiVersion::V3_1_0,
                        "3.0.3" => OpenApiVersion::V3_0_3,
                        "3.2.0" => OpenApiVersion::V3_2_0,
                        other => {
                            return Err(format!(
                                "unknown OpenAPI version `{other}` (3.1.0|3.0.3|3.2.0)"
                            ))
                        }
                    })
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(parsed)
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(version) = args.print_openapi {
        let doc = api::openapi().openapi_version(version).build();
        println!("{}", doc.to_pretty_string());
        return Ok(());
    }
    let mut options = ServerOptions::new()
        .port(args.port)
        .hostname(args.host)
        .on_listen(|port, host| {
            println!("listening on http://{host}:{port}");
            let _ = std::io::stdout().flush();
        });
    // Started by systemd (or any launcher passing a socket the same way): serve on its socket.
    if let Some(listener) = pactum::server::Listener::from_systemd()? {
        options = options.listener(listener);
    }
    let server = match args.adapter {
        Adapter::Native => pactum::serve(api::handlers(), options).await?,
        Adapter::Warp => {
            // Requests no contract matches get the same 404 body as on the native server.
            let app = pactum_warp::filter(api::handlers())?.or(pactum_warp::not_found());
            pactum_warp::serve(app, options).await?
        }
    };
    let graceful = server.shutdown_on_signal().await;
    tracing::info!(graceful, "stopped");
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("conformance: {message}\nusage: conformance [--adapter native|warp] [--port N] [--host H] [--print-openapi 3.1.0|3.0.3|3.2.0]");
            return ExitCode::from(2);
        }
    };
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("conformance: {error}");
            ExitCode::FAILURE
        }
    }
}
