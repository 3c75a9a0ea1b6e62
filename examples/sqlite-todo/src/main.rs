//! The todo API on SQLite.
//!
//! ```text
//! cargo run                          # in-memory: nothing to install, gone on exit
//! cargo run -- --db todos.db         # a file, created if missing, migrated at start
//! cargo run -- --db todos.db --port 8080
//! PORT=8080 HOST=0.0.0.0 cargo run   # the address from the environment, as in a container
//! cargo run -- --health-check        # exit 0 when the server on PORT answers /health
//! ```
//!
//! The same API as `cargo run --example todo` at the repository's root, plus `GET /health`
//! (the process serves) and `GET /ready` (the database answers). Started by systemd with a
//! socket (`deploy/sqlite-todo.socket`), it serves on that socket. `RUST_LOG` is not read: the
//! log shows `info` and above.

#![allow(clippy::print_stdout, reason = "a demo talks to its user")]

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use pactum::server::Listener;
use pactum::ServerOptions;
use pactum_sqlite_todo::{Database, TodoServer};

const USAGE: &str = "\
usage: sqlite-todo [--db PATH] [--port PORT] [--host HOST]
       sqlite-todo --health-check [--port PORT]

  --db PATH        keep the todos in the SQLite file PATH (created if missing);
                   without it they live in memory until the server stops
  --port PORT      the port to listen on (default: $PORT, else 3000; 0 picks a free one)
  --host HOST      the address to bind (default: $HOST, else localhost; 0.0.0.0 in a
                   container)
  --health-check   ask the server on 127.0.0.1:PORT for /health; exit 0 when it answers
                   200 within 2 s, 1 otherwise (a container's HEALTHCHECK)
";

const TRY_IT: &str = r#"
Try it:
  curl -i localhost:PORT/todos
  curl -i -X POST localhost:PORT/todos -H 'authorization: Bearer demo-token' \
       -H 'content-type: application/json' -d '{"title":"write docs"}'
  curl -i localhost:PORT/todos/1
  curl -i -X PATCH localhost:PORT/todos/1 -H 'authorization: Bearer demo-token' \
       -H 'content-type: application/json' -d '{"done":true}'
  curl -i -X DELETE localhost:PORT/todos/1 -H 'authorization: Bearer demo-token'
Ctrl-C stops the server gracefully.
"#;

/// The command line.
#[derive(Debug, PartialEq)]
struct Args {
    db: Database,
    /// `None`: `PORT`, else 3000.
    port: Option<u16>,
    /// `None`: `HOST`, else `localhost`.
    host: Option<String>,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve(Args),
    /// `--health-check`, with the port given (`None`: `PORT`, else 3000).
    HealthCheck(Option<u16>),
    Help,
}

/// Reads `--db PATH`, `--port PORT`, `--host HOST` (or `--db=PATH`, …), `--health-check`
/// and `--help`.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut parsed = Args {
        db: Database::Memory,
        port: None,
        host: None,
    };
    let mut health_check = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_owned(), Some(value.to_owned())),
            None => (arg, None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--db" => {
                let path = value("--db")?;
                if path.is_empty() {
                    return Err("--db needs a path".into());
                }
                parsed.db = Database::File(PathBuf::from(path));
            }
            "--port" => {
                let port = value("--port")?;
                parsed.port = Some(port.parse().map_err(|e| format!("--port {port:?}: {e}"))?);
            }
            "--host" => parsed.host = Some(value("--host")?),
            "--health-check" => health_check = true,
            "-h" | "--help" => return Ok(Command::Help),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if health_check {
        return Ok(Command::HealthCheck(parsed.port));
    }
    Ok(Command::Serve(parsed))
}

/// Whether the server on `127.0.0.1:port` answers `GET /health` with 200 within 2 s.
fn healthy(port: u16) -> bool {
    let ask = || -> std::io::Result<bool> {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
        stream.set_read_timeout(Some(Duration::from_secs(2)))?;
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer)?;
        Ok(answer.starts_with(b"HTTP/1.1 200 "))
    };
    ask().unwrap_or(false)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Command::Serve(args)) => args,
        Ok(Command::HealthCheck(port)) => {
            let from_env = || std::env::var("PORT").ok()?.trim().parse().ok();
            return if healthy(port.or_else(from_env).unwrap_or(3000)) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            #[allow(clippy::print_stderr, reason = "the command line's mistake, told")]
            {
                eprintln!("sqlite-todo: {message}\n\n{USAGE}");
            }
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .init();

    // `PORT` and `HOST` from the environment, the flags over them; a socket systemd passes
    // over both.
    let mut options = match ServerOptions::from_env() {
        Ok(options) => options,
        Err(e) => {
            tracing::error!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(port) = args.port {
        options = options.port(port);
    }
    if let Some(host) = args.host {
        options = options.hostname(host);
    }
    match Listener::from_systemd() {
        Ok(Some(listener)) => options = options.listener(listener),
        Ok(None) => {}
        Err(e) => {
            tracing::error!("the socket systemd passed: {e}");
            return ExitCode::FAILURE;
        }
    }
    let db = args.db.clone();
    let options = options.on_listen(move |port, host| {
        println!(
            "todo API on http://{host}:{port}, todos in {db}\n{}",
            TRY_IT.replace("PORT", &port.to_string())
        );
    });
    let server = match TodoServer::start(&args.db, options).await {
        Ok(server) => server,
        Err(e) => {
            tracing::error!("{e}");
            return ExitCode::FAILURE;
        }
    };
    server.shutdown_on_signal().await;
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Command, String> {
        parse(list.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn defaults_to_memory_and_the_environments_address() {
        assert_eq!(
            args(&[]),
            Ok(Command::Serve(Args {
                db: Database::Memory,
                port: None,
                host: None,
            }))
        );
    }

    #[test]
    fn reads_db_port_and_host_both_ways() {
        let expected = Ok(Command::Serve(Args {
            db: Database::File("todos.db".into()),
            port: Some(8080),
            host: Some("0.0.0.0".into()),
        }));
        assert_eq!(
            args(&["--db", "todos.db", "--port", "8080", "--host", "0.0.0.0"]),
            expected
        );
        assert_eq!(
            args(&["--port=8080", "--db=todos.db", "--host=0.0.0.0"]),
            expected
        );
    }

    #[test]
    fn reads_the_health_check() {
        assert_eq!(args(&["--health-check"]), Ok(Command::HealthCheck(None)));
        assert_eq!(
            args(&["--health-check", "--port", "8080"]),
            Ok(Command::HealthCheck(Some(8080)))
        );
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(args(&["--port", "http"]).is_err());
        assert!(args(&["--port"]).is_err());
        assert!(args(&["--db", ""]).is_err());
        assert!(args(&["--verbose"]).is_err());
        assert_eq!(args(&["--help"]), Ok(Command::Help));
    }
}
