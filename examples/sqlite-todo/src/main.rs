//! The todo API on SQLite.
//!
//! ```text
//! cargo run                          # in-memory: nothing to install, gone on exit
//! cargo run -- --db todos.db         # a file, created if missing, migrated at start
//! cargo run -- --db todos.db --port 8080
//! ```
//!
//! The same API as `cargo run --example todo` at the repository's root; `RUST_LOG` is not
//! read: the log shows `info` and above.

#![allow(clippy::print_stdout, reason = "a demo talks to its user")]

use std::path::PathBuf;
use std::process::ExitCode;

use pactum::ServerOptions;
use pactum_sqlite_todo::{Database, TodoServer};

const USAGE: &str = "\
usage: sqlite-todo [--db PATH] [--port PORT]

  --db PATH     keep the todos in the SQLite file PATH (created if missing);
                without it they live in memory until the server stops
  --port PORT   the port to listen on (default 3000; 0 picks a free one)
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
    port: u16,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve(Args),
    Help,
}

/// Reads `--db PATH`, `--port PORT` (or `--db=PATH`, `--port=PORT`) and `--help`.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut parsed = Args {
        db: Database::Memory,
        port: 3000,
    };
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
                parsed.port = port.parse().map_err(|e| format!("--port {port:?}: {e}"))?;
            }
            "-h" | "--help" => return Ok(Command::Help),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Serve(parsed))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Command::Serve(args)) => args,
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

    let db = args.db.clone();
    let options = ServerOptions::new()
        .port(args.port)
        .on_listen(move |port, host| {
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
    fn defaults_to_memory_on_3000() {
        assert_eq!(
            args(&[]),
            Ok(Command::Serve(Args {
                db: Database::Memory,
                port: 3000
            }))
        );
    }

    #[test]
    fn reads_db_and_port_both_ways() {
        let expected = Ok(Command::Serve(Args {
            db: Database::File("todos.db".into()),
            port: 8080,
        }));
        assert_eq!(args(&["--db", "todos.db", "--port", "8080"]), expected);
        assert_eq!(args(&["--port=8080", "--db=todos.db"]), expected);
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
