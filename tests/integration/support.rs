//! Starting servers on 127.0.0.1:0 and talking to them, with real clients and raw sockets.

use std::net::SocketAddr;
use std::sync::Once;
use std::time::{Duration, Instant};

use pactum::middleware::Middleware;
use pactum::{pipeline::IntoPipeline, server::Server, ServerOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// A server under test: in this process (stopped with the test's runtime), or the
/// conformance binary (killed when dropped).
pub struct TestServer {
    pub addr: SocketAddr,
    #[allow(dead_code)]
    pub running: Running,
    pub client: reqwest::Client,
}

/// What serves a [`TestServer`].
#[allow(dead_code)]
pub enum Running {
    Server(Server),
    Process(tokio::process::Child),
    /// A task on the test's runtime (warp's own server).
    Task,
}

impl TestServer {
    /// The in-process server's parts, for tests that shut it down themselves.
    pub fn into_parts(self) -> (SocketAddr, Server, reqwest::Client) {
        match self.running {
            Running::Server(server) => (self.addr, server, self.client),
            _ => panic!("not the native server in this process"),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> Answer {
        Answer::from(
            self.client
                .get(self.url(path))
                .send()
                .await
                .expect("request sent"),
        )
        .await
    }

    /// POSTs `body` as JSON.
    pub async fn post_json(&self, path: &str, body: impl Into<String>) -> Answer {
        let request = self.client.post(self.url(path));
        let request = request.header("content-type", "application/json");
        self.send(request.body(body.into())).await
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        Answer::from(request.send().await.expect("request sent")).await
    }

    /// Sends raw bytes on a new connection and reads until the server closes it (or 5 s).
    pub async fn raw(&self, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(self.addr).await.expect("connect");
        stream.write_all(request).await.expect("write");
        read_to_close(&mut stream, Duration::from_secs(5)).await
    }
}

/// Waits until `done()` holds, polling every 20 ms, for at most `limit`; whether it held. The
/// way a test waits for the other side: never a bare sleep.
pub async fn eventually(limit: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        // The polling period, not a wait for the other side: `done` is checked again below.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

/// A middleware that sends each request's path as the pipeline starts on it, and what
/// receives them: a test's signal that a request is in flight.
pub fn arrivals() -> (Middleware, mpsc::UnboundedReceiver<String>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let middleware = pactum::middleware::from_fn(move |req, next| {
        let _ = sender.send(req.uri().path().to_owned());
        next.run(req)
    });
    (middleware, receiver)
}

/// Waits (up to 5 s) until a request for `path` reaches the pipeline.
pub async fn arrived(arrivals: &mut mpsc::UnboundedReceiver<String>, path: &str) {
    let wait = async {
        while let Some(arrived) = arrivals.recv().await {
            if arrived == path {
                return;
            }
        }
        panic!("the server is gone");
    };
    tokio::time::timeout(Duration::from_secs(5), wait)
        .await
        .unwrap_or_else(|_| panic!("no request for {path} within 5 s"));
}

/// The IPv4 TCP sockets of this network namespace (Linux's `/proc/net/tcp`): local port,
/// remote port, state, and the bytes received that the socket's owner has not read yet.
fn tcp_sockets() -> Vec<(u16, u16, u8, u32)> {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("Linux's /proc/net/tcp");
    let port = |address: &str| {
        let (_, port) = address.split_once(':')?;
        u16::from_str_radix(port, 16).ok()
    };
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (_, unread) = fields.get(4)?.split_once(':')?;
            Some((
                port(fields.get(1)?)?,
                port(fields.get(2)?)?,
                u8::from_str_radix(fields.get(3)?, 16).ok()?,
                u32::from_str_radix(unread, 16).ok()?,
            ))
        })
        .collect()
}

/// Whether a socket listens on `addr`'s port (a server that stopped accepting has closed it).
pub fn listening(addr: SocketAddr) -> bool {
    const LISTEN: u8 = 0x0A;
    tcp_sockets()
        .iter()
        .any(|&(local, _, state, _)| state == LISTEN && local == addr.port())
}

/// Whether the server's end of the connection from `client` to `server` has read every byte
/// sent to it: the server accepted the connection and holds the request (even in another
/// process, which no in-process signal reaches).
pub fn read_by_server(server: SocketAddr, client: SocketAddr) -> bool {
    tcp_sockets().iter().any(|&(local, remote, _, unread)| {
        local == server.port() && remote == client.port() && unread == 0
    })
}

/// Reads until EOF or `limit`, whichever comes first.
pub async fn read_to_close(stream: &mut TcpStream, limit: Duration) -> String {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(limit, stream.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// A response, read whole.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Answer {
    async fn from(response: reqwest::Response) -> Self {
        Self {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            text: response.text().await.expect("body read"),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text))
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
            .to_str()
            .expect("text header")
    }

    /// Asserts the status, a JSON content type, and the exact JSON body.
    #[track_caller]
    pub fn assert(&self, status: u16, body: serde_json::Value) {
        assert_eq!(self.status, status, "status of {:?}", self.text);
        assert_eq!(self.header("content-type"), "application/json");
        assert_eq!(self.json(), body);
    }
}

pub fn install_crypto() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

pub fn client() -> reqwest::Client {
    install_crypto();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client builds")
}

/// 127.0.0.1:0, and a shutdown that closes idle keep-alive connections at once: a test that
/// needs the wait for a proxy's next request sets `shutdown_idle_wait` itself.
pub fn options() -> ServerOptions {
    ServerOptions::new()
        .port(0)
        .hostname("127.0.0.1")
        .shutdown_idle_wait(Duration::ZERO)
}

/// The native server on 127.0.0.1:0.
pub async fn native_with(app: impl IntoPipeline, options: ServerOptions) -> TestServer {
    let server = pactum::serve(app, options).await.expect("server starts");
    TestServer {
        addr: server.local_addr(),
        running: Running::Server(server),
        client: client(),
    }
}

/// The conformance API on the native server.
pub async fn native() -> TestServer {
    native_with(crate::api::handlers(), options()).await
}

/// The conformance API through the warp adapter, served with the hardened settings; requests
/// no contract matches fall through to the adapter's JSON 404, as in the fixture.
pub async fn warp() -> TestServer {
    warp_with(crate::api::handlers()).await
}

/// An application through the warp adapter on pactum's server, with the JSON 404 after it.
pub async fn warp_with(app: impl IntoPipeline) -> TestServer {
    use warp::Filter;
    let pipeline = app.into_pipeline().expect("valid handler list");
    let app = pactum_warp::filter_with(pipeline).or(pactum_warp::not_found());
    let server = pactum_warp::serve(app, options())
        .await
        .expect("server starts");
    TestServer {
        addr: server.local_addr(),
        running: Running::Server(server),
        client: client(),
    }
}

/// The same warp app on warp's *own* server (no pactum connection settings): the pipeline
/// must answer the same there too.
pub async fn warp_own_server() -> TestServer {
    warp_own_server_with(crate::api::handlers()).await
}

/// An application through the warp filter on warp's own server, with the JSON 404 after it.
pub async fn warp_own_server_with(app: impl IntoPipeline) -> TestServer {
    use warp::Filter;
    let pipeline = app.into_pipeline().expect("valid handler list");
    let app = pactum_warp::filter_with(pipeline).or(pactum_warp::not_found());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("bound");
    tokio::spawn(warp::serve(app).incoming(listener).run());
    TestServer {
        addr,
        running: Running::Task,
        client: client(),
    }
}

/// The `conformance` example binary, built once (a no-op when `cargo test` built it already).
fn conformance_binary() -> &'static std::path::Path {
    static BINARY: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let output = std::process::Command::new(cargo)
            .args(["build", "--example", "conformance", "--message-format=json"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "building the conformance example failed"
        );
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|m| m["target"]["name"] == "conformance")
            .find_map(|m| m["executable"].as_str().map(std::path::PathBuf::from))
            .expect("cargo reports the conformance executable")
    })
}

/// Starts `conformance --adapter <adapter> --port 0` and reads its first stdout line.
pub async fn fixture(adapter: &str) -> TestServer {
    use tokio::io::AsyncBufReadExt;
    let binary = tokio::task::spawn_blocking(|| conformance_binary().to_owned())
        .await
        .expect("build task");
    let mut child = tokio::process::Command::new(binary)
        .args(["--adapter", adapter, "--port", "0", "--host", "127.0.0.1"])
        .stdout(std::process::Stdio::piped())
        // Its deliberate panics and error logs would drown the test output.
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("conformance starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut first = String::new();
    tokio::time::timeout(
        Duration::from_secs(30),
        tokio::io::BufReader::new(stdout).read_line(&mut first),
    )
    .await
    .expect("conformance prints its address in time")
    .expect("stdout readable");
    let url = first
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    TestServer {
        addr: url.parse().expect("HOST:PORT"),
        running: Running::Process(child),
        client: client(),
    }
}

pub async fn fixture_native() -> TestServer {
    fixture("native").await
}

pub async fn fixture_warp() -> TestServer {
    fixture("warp").await
}

/// The resident memory of this process (servers and clients of the test both), in KiB.
pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
