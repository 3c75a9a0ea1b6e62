//! [`Listener`]: where the native server accepts connections, when it does not bind the
//! address of its options itself; [`Accept`], what the accept loop needs of each kind.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
#[cfg(unix)]
use std::path::Path;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
#[cfg(unix)]
use tokio::net::{UnixListener, UnixStream};

/// A socket the native server accepts connections on, made by the application rather than
/// bound by the server from [`ServerOptions::hostname`](super::ServerOptions::hostname) and
/// [`port`](super::ServerOptions::port): a TCP listener bound already (`std`'s or tokio's), a
/// Unix domain socket, or the socket systemd passes to a socket-activated service. Handed to
/// [`ServerOptions::listener`](super::ServerOptions::listener); every other setting holds on it.
///
/// ```no_run
/// use pactum::server::Listener;
/// use pactum::ServerOptions;
///
/// # async fn run(app: Vec<pactum::handler::AnyHandler>) -> Result<(), Box<dyn std::error::Error>> {
/// // Started by systemd with a socket unit: serve on its socket; else bind a port.
/// let options = match Listener::from_systemd()? {
///     Some(listener) => ServerOptions::new().listener(listener),
///     None => ServerOptions::new().hostname("0.0.0.0").port(8080),
/// };
/// let server = pactum::serve(app, options).await?;
/// server.shutdown_on_signal().await;
/// # Ok(())
/// # }
/// ```
pub struct Listener(pub(super) Kind);

pub(super) enum Kind {
    Tcp(TcpListener),
    #[cfg(unix)]
    Unix(UnixListener),
}

impl fmt::Debug for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Tcp(listener) => f.debug_tuple("Listener::Tcp").field(listener).finish(),
            #[cfg(unix)]
            Kind::Unix(listener) => f.debug_tuple("Listener::Unix").field(listener).finish(),
        }
    }
}

impl Listener {
    /// A TCP listener the application bound with `std` (made non-blocking here).
    ///
    /// # Errors
    ///
    /// The error of making it non-blocking, or of registering it with tokio (called outside a
    /// tokio runtime).
    pub fn tcp(listener: std::net::TcpListener) -> io::Result<Self> {
        listener.set_nonblocking(true)?;
        Ok(Self(Kind::Tcp(TcpListener::from_std(listener)?)))
    }

    /// A Unix domain socket bound at `path`. Its peers have no address: `ctx.peer_addr()` and
    /// `ctx.client_ip()` are `None` (unless trusted proxies forward one), and
    /// [`Server::local_addr`](super::Server::local_addr) is `0.0.0.0:0`. A socket file left at
    /// `path` by an earlier process is not removed: binding fails with `AddrInUse`.
    ///
    /// # Errors
    ///
    /// The bind error (the directory is missing or not writable, the path is in use).
    #[cfg(unix)]
    #[cfg_attr(docsrs, doc(cfg(unix)))]
    pub fn unix(path: impl AsRef<Path>) -> io::Result<Self> {
        Ok(Self(Kind::Unix(UnixListener::bind(path)?)))
    }

    /// The first socket systemd passed to this process (socket activation: the
    /// `LISTEN_FDS` and `LISTEN_PID` variables, the descriptor from 3 on), a TCP or a Unix
    /// stream listener; `None` when the process was not started so. Works with any launcher
    /// that passes sockets the same way (`systemfd`, `systemd-socket-activate`).
    ///
    /// # Errors
    ///
    /// The socket passed is not a TCP or Unix stream listener, or cannot be registered with
    /// tokio (called outside a tokio runtime).
    #[cfg(unix)]
    #[cfg_attr(docsrs, doc(cfg(unix)))]
    pub fn from_systemd() -> io::Result<Option<Self>> {
        let mut passed = listenfd::ListenFd::from_env();
        if passed.len() == 0 {
            return Ok(None);
        }
        if let Ok(Some(listener)) = passed.take_tcp_listener(0) {
            return Self::tcp(listener).map(Some);
        }
        match passed.take_unix_listener(0)? {
            Some(listener) => {
                listener.set_nonblocking(true)?;
                Ok(Some(Self(Kind::Unix(UnixListener::from_std(listener)?))))
            }
            None => Ok(None),
        }
    }
}

impl From<TcpListener> for Listener {
    fn from(listener: TcpListener) -> Self {
        Self(Kind::Tcp(listener))
    }
}

#[cfg(unix)]
impl From<UnixListener> for Listener {
    fn from(listener: UnixListener) -> Self {
        Self(Kind::Unix(listener))
    }
}

/// What the accept loop needs of a listener: its connections, each with its peer's address
/// when it has one. The loop is generic over it, so that a connection's reads and writes are
/// the stream's own, with no dispatch between them.
pub(super) trait Accept: Send + 'static {
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;

    fn accept(&self) -> impl Future<Output = io::Result<(Self::Io, Option<SocketAddr>)>> + Send;

    /// Turns TCP keep-alive on for an accepted connection, where it has one.
    fn keep_alive(_io: &Self::Io, _idle: Duration) {}
}

impl Accept for TcpListener {
    type Io = TcpStream;

    async fn accept(&self) -> io::Result<(TcpStream, Option<SocketAddr>)> {
        let (stream, peer) = TcpListener::accept(self).await?;
        let _ = stream.set_nodelay(true);
        Ok((stream, Some(peer)))
    }

    fn keep_alive(io: &TcpStream, idle: Duration) {
        super::keepalive::enable(io, idle);
    }
}

#[cfg(unix)]
impl Accept for UnixListener {
    type Io = UnixStream;

    async fn accept(&self) -> io::Result<(UnixStream, Option<SocketAddr>)> {
        let (stream, _) = UnixListener::accept(self).await?;
        Ok((stream, None))
    }
}
