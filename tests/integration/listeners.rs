//! Listeners the application makes (`ServerOptions::listener`): a TCP listener bound with
//! `std` or tokio, a Unix domain socket, and the socket systemd passes to a socket-activated
//! service; on the native server and on the warp adapter served by `pactum_warp::serve`.

use std::net::SocketAddr;
use std::time::Duration;

use pactum::server::{Listener, Server};
use pactum::ServerOptions;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use warp::Filter;

use crate::support::{self, options};

/// The conformance API on `options`, on the native server or the warp adapter.
async fn serve(adapter: &str, options: ServerOptions) -> Server {
    let pipeline = pactum::Pipeline::new(crate::api::handlers()).expect("valid handlers");
    match adapter {
        "native" => pactum::serve(pipeline, options).await,
        _ => {
            let not_found = pactum_warp::not_found_with(&pipeline);
            let filter = pactum_warp::filter_with(pipeline).or(not_found);
            pactum_warp::serve(filter, options)
                .await
                .map_err(pactum::server::ServeError::Bind)
        }
    }
    .expect("server starts")
}

async fn health_at(addr: SocketAddr) {
    let answer = support::client()
        .get(format!("http://{addr}/health"))
        .send()
        .await
        .expect("answered");
    assert_eq!(answer.status(), 200);
    assert_eq!(
        answer.json::<serde_json::Value>().await.unwrap(),
        json!({"status": "ok"})
    );
}

#[tokio::test]
async fn a_tcp_listener_bound_by_the_application() {
    for adapter in ["native", "warp"] {
        // `std`'s, bound before the runtime's server exists.
        let bound = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = bound.local_addr().unwrap();
        let server = serve(adapter, options().listener(Listener::tcp(bound).unwrap())).await;
        assert_eq!(server.local_addr(), addr, "{adapter}");
        health_at(addr).await;
        assert!(server.shutdown().await, "{adapter}: drained");

        // tokio's.
        let bound = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = bound.local_addr().unwrap();
        let server = serve(adapter, options().listener(bound)).await;
        assert_eq!(server.local_addr(), addr, "{adapter}");
        health_at(addr).await;
        assert!(server.shutdown().await, "{adapter}: drained");
    }
}

#[tokio::test]
async fn a_unix_domain_socket() {
    for adapter in ["native", "warp"] {
        let path =
            std::env::temp_dir().join(format!("pactum-test-{}-{adapter}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let server = serve(adapter, options().listener(Listener::unix(&path).unwrap())).await;
        assert_eq!(server.local_addr(), SocketAddr::from(([0, 0, 0, 0], 0)));
        for _ in 0..2 {
            let mut stream = tokio::net::UnixStream::connect(&path).await.unwrap();
            stream
                .write_all(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .await
                .unwrap();
            let mut answer = String::new();
            tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
                .await
                .expect("answered in time")
                .unwrap();
            assert!(
                answer.starts_with("HTTP/1.1 200 OK\r\n"),
                "{adapter}: {answer:?}"
            );
            assert!(
                answer.ends_with(r#"{"status":"ok"}"#),
                "{adapter}: {answer:?}"
            );
        }
        assert!(server.shutdown().await, "{adapter}: drained");
        std::fs::remove_file(&path).unwrap();
    }
}

/// systemd's socket activation, done as systemd does it: a process that holds a listening
/// socket on descriptor 3, with `LISTEN_FDS=1` and `LISTEN_PID` its own pid, becomes the server
/// (`exec`). The conformance binary serves on that socket (`Listener::from_systemd`), not on
/// the port it was given.
#[tokio::test]
async fn a_socket_passed_by_systemd() {
    const ACTIVATE: &str = r#"
import os, socket, sys
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(128)
print("passed", listener.getsockname()[1], flush=True)
os.dup2(listener.fileno(), 3)
os.set_inheritable(3, True)
env = dict(os.environ, LISTEN_FDS="1", LISTEN_PID=str(os.getpid()))
os.execve(sys.argv[1], sys.argv[1:], env)
"#;
    let binary = tokio::task::spawn_blocking(support::conformance_binary)
        .await
        .unwrap();
    for adapter in ["native", "warp"] {
        let mut child = tokio::process::Command::new("python3")
            .args(["-c", ACTIVATE])
            .arg(&binary)
            .args(["--adapter", adapter, "--port", "0", "--host", "127.0.0.1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 runs");
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let mut next = async || {
            tokio::time::timeout(Duration::from_secs(30), lines.next_line())
                .await
                .expect("a line in time")
                .unwrap()
                .expect("a line")
        };
        let passed = next().await;
        let port = passed.strip_prefix("passed ").expect("the passed port");
        let listening = next().await;
        assert_eq!(
            listening,
            format!("listening on http://127.0.0.1:{port}"),
            "{adapter}: serves on the passed socket"
        );
        health_at(format!("127.0.0.1:{port}").parse().unwrap()).await;
        child.kill().await.unwrap();
    }
}
