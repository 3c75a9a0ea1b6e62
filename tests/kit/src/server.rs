//! The one server under test, and how to start it.

use std::net::SocketAddr;
use std::sync::Once;
use std::time::Duration;

use pactum::{pipeline::IntoPipeline, server::Server, ServerOptions};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use warp::{reply::Reply, Filter};

use crate::{read_to_close, Answer};

/// A server under test: in this process (stopped with the test's runtime, or when dropped
/// for warp's own server), or the conformance binary (killed when dropped).
#[derive(Debug)]
pub struct TestServer {
    /// Where it listens, with the real port.
    pub addr: SocketAddr,
    /// What serves it.
    pub running: Running,
    /// A client for it ([`client`]).
    pub client: reqwest::Client,
}

/// What serves a [`TestServer`].
#[derive(Debug)]
pub enum Running {
    /// pactum's native server (a pipeline, or a warp filter through `pactum_warp::serve`).
    Server(Server),
    /// The `conformance` binary ([`fixture`](fn@crate::fixture)).
    Process(tokio::process::Child),
    /// A task on the test's runtime (warp's own server), shut down gracefully when this is
    /// dropped.
    Task(oneshot::Sender<()>),
}

impl TestServer {
    /// The in-process server's parts, for tests that shut it down themselves.
    pub fn into_parts(self) -> (SocketAddr, Server, reqwest::Client) {
        match self.running {
            Running::Server(server) => (self.addr, server, self.client),
            _ => panic!("not the native server in this process"),
        }
    }

    /// `http://ADDR` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// GETs `path`.
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

    /// Sends `request` and reads the answer whole.
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

/// Installs rustls' ring provider for the process, once: in a workspace build reqwest's
/// features are unified with pactum-client's `rustls-no-provider`, and a client then needs it.
pub fn install_crypto() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A reqwest client with a 20 s timeout.
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
    native_with(crate::conformance::handlers(), options()).await
}

/// The conformance API through the warp adapter, served with the hardened settings; requests
/// no contract matches fall through to the adapter's JSON 404, as in the fixture.
pub async fn warp() -> TestServer {
    warp_with(crate::conformance::handlers()).await
}

/// An application through the warp adapter on pactum's server, with the pipeline's JSON 404
/// after it (its error formatter and layers, as on the native server).
pub async fn warp_with(app: impl IntoPipeline) -> TestServer {
    let pipeline = app.into_pipeline().expect("valid handler list");
    let not_found = pactum_warp::not_found_with(&pipeline);
    serve_filter_on_pactum(pactum_warp::filter_with(pipeline).or(not_found)).await
}

/// Any warp filter on pactum's server (`pactum_warp::serve`, with [`options`]).
pub async fn serve_filter_on_pactum<F>(filter: F) -> TestServer
where
    F: Filter + Clone + Send + Sync + 'static,
    F::Extract: Reply,
{
    let server = pactum_warp::serve(filter, options())
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
    warp_own_server_with(crate::conformance::handlers()).await
}

/// An application through the warp filter on warp's own server, with the pipeline's JSON 404
/// after it.
pub async fn warp_own_server_with(app: impl IntoPipeline) -> TestServer {
    let pipeline = app.into_pipeline().expect("valid handler list");
    let not_found = pactum_warp::not_found_with(&pipeline);
    serve_filter(pactum_warp::filter_with(pipeline).or(not_found)).await
}

/// Any warp filter on warp's own server, on 127.0.0.1:0, shut down gracefully when the
/// [`TestServer`] is dropped.
pub async fn serve_filter<F>(filter: F) -> TestServer
where
    F: Filter + Clone + Send + Sync + 'static,
    F::Extract: Reply,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("bound");
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(
        warp::serve(filter)
            .incoming(listener)
            .graceful(async move {
                let _ = stopped.await;
            })
            .run(),
    );
    TestServer {
        addr,
        running: Running::Task(stop),
        client: client(),
    }
}
