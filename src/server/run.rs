//! The accept loop (with the TLS handshake) and the [`Server`] handle; each connection is
//! served by [`Connection`] (`conn/`).

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, Semaphore};
use tokio::task::JoinHandle;

use super::builders::Builders;
use super::conn::{self, Connection};
use super::error_answers::ErrorAnswers;
use super::listener::{Accept, Kind, Listener};
use super::options::ServerOptions;
use super::servable::{Foreign, PerConnection, Servable};
use super::shutdown::Shutdown;
use crate::error::ConfigError;

/// How long a TLS handshake may take without a header read timeout to bound it.
#[cfg(feature = "tls")]
const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why [`serve`](super::serve()) could not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The handler list cannot be served: duplicate or conflicting routes, a security scheme
    /// nothing verifies, ... (the [`ConfigError`] says which).
    Config(ConfigError),
    /// The address could not be bound (or, rarely, the thread that keeps the header read
    /// timeout could not start).
    Bind(std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "invalid handler list: {e}"),
            Self::Bind(e) => write!(f, "cannot bind: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Config(e) => Some(e),
            Self::Bind(e) => Some(e),
        }
    }
}

impl From<ConfigError> for ServeError {
    fn from(e: ConfigError) -> Self {
        Self::Config(e)
    }
}

/// A running server. Dropping it leaves the server running; call [`Server::shutdown`] to
/// stop it.
#[must_use = "the server stops only through `shutdown`; keep the handle"]
pub struct Server {
    local_addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<bool>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// The address the server is bound to, with the real port; `0.0.0.0:0` on a Unix domain
    /// socket ([`Listener::unix`](super::Listener::unix)), which has none.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Shuts down gracefully: stops accepting, lets in-flight requests finish until the
    /// shutdown deadline, then closes what remains. Idle HTTP/1.1 connections are closed after
    /// the [`shutdown_idle_wait`](ServerOptions::shutdown_idle_wait) (1 s by default, for a
    /// proxy's next request on them; `Duration::ZERO` in tests stops a server in milliseconds).
    ///
    /// Resolves to `true` when every connection finished before the deadline.
    pub async fn shutdown(mut self) -> bool {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task).await.unwrap_or(false)
    }

    /// Waits for SIGTERM or SIGINT (Ctrl-C), then [`shutdown`](Self::shutdown)s.
    pub async fn shutdown_on_signal(self) -> bool {
        shutdown_signal().await;
        tracing::info!("signal received, shutting down");
        self.shutdown().await
    }
}

/// Resolves when the process receives SIGTERM or SIGINT (Ctrl-C elsewhere than Unix).
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Serves any `tower::Service` with the native server's hardened connection settings
/// (header read timeout, head and header-count limits, graceful shutdown, TLS).
///
/// This is how another framework's service (a warp filter, an axum router, a
/// [`PactumService`](super::PactumService) wrapped in tower-http layers) gets the same protection. The answers hyper
/// gives itself to an HTTP/1.1 head it cannot parse or that is over the limits (400, 431, 414)
/// carry the built-in JSON error body (`{"error": "Bad request"}`, …).
///
/// # Errors
///
/// The bind error (or, with a header read timeout, the error of starting the process's
/// thread that keeps it).
pub async fn serve_service<S: Servable>(
    service: S,
    options: ServerOptions,
) -> std::io::Result<Server> {
    listen(Foreign(service), options, ErrorAnswers::default()).await
}

/// Binds, then accepts connections, each served by the service `make` gives for its peer;
/// hyper's own error answers (400, 431, 414) are written as `answers` says.
pub(super) async fn listen<M: PerConnection>(
    make: M,
    mut options: ServerOptions,
    answers: ErrorAnswers,
) -> std::io::Result<Server> {
    // The thread that times request heads and idle HTTP/2 connections, and keeps every
    // connection for the server's shutdown to wake.
    super::conn::start_head_watch()?;
    let listener = match options.listener.take() {
        Some(listener) => listener,
        None => Listener::from(TcpListener::bind((options.hostname.as_str(), options.port)).await?),
    };
    let (stop, stopped) = oneshot::channel();
    let (local_addr, task) = match listener.0 {
        Kind::Tcp(listener) => {
            let local_addr = listener.local_addr()?;
            tracing::info!(%local_addr, "listening");
            if let Some(on_listen) = options.on_listen.take() {
                on_listen(local_addr.port(), &options.hostname);
            }
            let task = tokio::spawn(accept_loop(listener, make, options, answers, stopped));
            (local_addr, task)
        }
        #[cfg(unix)]
        Kind::Unix(listener) => {
            let path = listener.local_addr()?;
            let path = path.as_pathname().map(|path| path.display().to_string());
            let path = path.unwrap_or_default();
            tracing::info!(%path, "listening");
            if let Some(on_listen) = options.on_listen.take() {
                on_listen(0, &path);
            }
            let task = tokio::spawn(accept_loop(listener, make, options, answers, stopped));
            (SocketAddr::from(([0, 0, 0, 0], 0)), task)
        }
    };
    Ok(Server {
        local_addr,
        stop: Some(stop),
        task,
    })
}

async fn accept_loop<L: Accept, M: PerConnection>(
    listener: L,
    make: M,
    options: ServerOptions,
    answers: ErrorAnswers,
    mut stopped: oneshot::Receiver<()>,
) -> bool
where
    L::Io: conn::Attach,
{
    let builders = Arc::new(Builders::new(&options));
    let limit = options.max_connections.map(|n| Arc::new(Semaphore::new(n)));
    let shutdown = Arc::new(
        Shutdown::new(options.shutdown_idle_wait)
            .with_http2_idle(options.http2_idle())
            .with_limit(limit.clone())
            .with_client_errors(options.on_client_error.clone())
            .with_answers(answers)
            .with_request_settings(options.serves_tls(), options.max_headers)
            .with_client_watch(!options.http1_half_close)
            .with_wake(conn::wake_connections),
    );
    #[cfg(feature = "tls")]
    let tls = options.tls.as_ref().map(|t| t.acceptor());
    #[cfg(feature = "tls")]
    let handshake_timeout = options.header_read_timeout.unwrap_or(TLS_HANDSHAKE_TIMEOUT);
    let mut backoff = Duration::ZERO;
    loop {
        let permit = match &limit {
            None => None,
            Some(limit) => tokio::select! {
                permit = Arc::clone(limit).acquire_owned() => permit.ok(),
                _ = &mut stopped => break,
            },
        };
        let (stream, peer) = tokio::select! {
            biased;
            _ = &mut stopped => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    backoff = Duration::ZERO;
                    (stream, peer)
                }
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    if let Some(hook) = &options.on_accept_error {
                        hook(&error);
                    }
                    // Usually too many open files: wait for some to close.
                    backoff = (backoff * 2).clamp(Duration::from_millis(5), Duration::from_secs(1));
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => continue,
                        _ = &mut stopped => break,
                    }
                }
            },
        };
        if let Some(idle) = options.tcp_keepalive {
            L::keep_alive(&stream, idle);
        }
        let connection = Connection {
            builders: Arc::clone(&builders),
            service: make.for_connection(),
            peer,
            header_read_timeout: options.header_read_timeout,
            shutdown: Arc::clone(&shutdown),
            permit,
        };
        // A task of its own for each: a task's allocation is the size of its future, the
        // largest of its states, and a TLS connection's (rustls state, the handshake's timer)
        // would be every plain connection's too (peer_load: 7.4 KiB of task per connection).
        #[cfg(feature = "tls")]
        if let Some(acceptor) = tls.clone() {
            tokio::spawn(async move {
                match tokio::time::timeout(handshake_timeout, acceptor.accept(stream)).await {
                    Ok(Ok(stream)) => connection.serve(stream).await,
                    Ok(Err(error)) => connection.client_error(&error),
                    Err(_) => connection.client_error(&std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "TLS handshake timed out",
                    )),
                }
            });
            continue;
        }
        tokio::spawn(connection.serve(stream));
    }
    drop(listener);
    let finished = shutdown.drain(options.shutdown_timeout).await;
    if !finished {
        tracing::warn!("shutdown deadline passed; closing remaining connections");
    }
    finished
}
