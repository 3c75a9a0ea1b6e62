//! Starting servers on 127.0.0.1:0 and talking to them, with real clients and raw sockets.

use std::net::SocketAddr;
use std::sync::Once;
use std::time::Duration;

use pactum::{AnyHandler, Server, ServerOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server under test. The server stops with the test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    #[allow(dead_code)]
    pub server: Server,
    pub client: reqwest::Client,
}

impl TestServer {
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

pub fn options() -> ServerOptions {
    ServerOptions::new().port(0).hostname("127.0.0.1")
}

/// The native server on 127.0.0.1:0.
pub async fn native_with(handlers: Vec<AnyHandler>, options: ServerOptions) -> TestServer {
    let server = pactum::serve(handlers, options)
        .await
        .expect("server starts");
    TestServer {
        addr: server.local_addr(),
        server,
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
    use warp::Filter;
    let app = pactum_warp::filter(crate::api::handlers())
        .expect("valid handler list")
        .or(pactum_warp::not_found());
    let server = pactum_warp::serve(app, options())
        .await
        .expect("server starts");
    TestServer {
        addr: server.local_addr(),
        server,
        client: client(),
    }
}
