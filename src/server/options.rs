//! [`ServerOptions`]: where and how the native server listens, with hardened defaults.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::listener::Listener;
#[cfg(feature = "tls")]
use super::tls::TlsConfig;

/// The default [`ServerOptions::shutdown_idle_wait`].
const DEFAULT_SHUTDOWN_IDLE_WAIT: Duration = Duration::from_secs(1);

type OnListen = Box<dyn FnOnce(u16, &str) + Send>;
/// A hook called with an error ([`ServerOptions::on_accept_error`],
/// [`ServerOptions::on_client_error`]).
pub(super) type ErrorHook = Arc<dyn Fn(&(dyn std::error::Error + 'static)) + Send + Sync>;

/// The HTTP/2 idle timeout as the options hold it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Http2IdleTimeout {
    /// The header read timeout's (the default).
    LikeHeaderRead,
    /// Set: a duration, or `None` for none.
    Set(Option<Duration>),
}

/// Connection settings of [`serve`](crate::serve) and [`serve_service`](crate::server::serve_service):
/// address, TLS, connection and head limits, connection timeouts, hooks.
///
/// What the pipeline does with a request — middleware, the body limit (1 MiB), the error
/// formatter, the request timeout — is set on the [`Pipeline`](crate::Pipeline) with
/// [`Pipeline::builder`](crate::Pipeline::builder), so that every adapter gets it.
///
/// Every limit has a hardened default, each settable:
///
/// | setting | default |
/// |---|---|
/// | [`port`](Self::port) / [`hostname`](Self::hostname) | 3000 / `localhost` |
/// | [`header_read_timeout`](Self::header_read_timeout) (slowloris) | 10 s |
/// | [`max_head_bytes`](Self::max_head_bytes) (431 past it) | 64 KiB |
/// | [`max_headers`](Self::max_headers) (431 past it) | 100 |
/// | [`shutdown_timeout`](Self::shutdown_timeout) | 10 s |
/// | [`shutdown_idle_wait`](Self::shutdown_idle_wait) (no lost POST behind a proxy) | 1 s |
/// | [`max_connections`](Self::max_connections) | none |
/// | [`http2_idle_timeout`](Self::http2_idle_timeout) (GOAWAY, then close) | the header read timeout (10 s) |
/// | [`tcp_keepalive`](Self::tcp_keepalive) (dead peers, found by the kernel) | probes after 20 s idle, every 10 s, dropped after 50 s |
/// | [`http2_keep_alive_interval`](Self::http2_keep_alive_interval) / [`http2_keep_alive_timeout`](Self::http2_keep_alive_timeout) (HTTP/2 PINGs) | none / 10 s |
/// | [`http2_max_concurrent_streams`](Self::http2_max_concurrent_streams) | 200 |
///
/// ```
/// use std::time::Duration;
/// let options = pactum::ServerOptions::new()
///     .port(0)
///     .hostname("127.0.0.1")
///     .header_read_timeout(Duration::from_secs(5))
///     .on_listen(|port, host| tracing::info!("listening on http://{host}:{port}"));
/// ```
#[must_use]
pub struct ServerOptions {
    pub(crate) port: u16,
    pub(crate) hostname: String,
    #[cfg(feature = "tls")]
    pub(crate) tls: Option<TlsConfig>,
    pub(crate) on_listen: Option<OnListen>,
    /// A socket the application made ([`ServerOptions::listener`]).
    pub(crate) listener: Option<Listener>,
    pub(crate) header_read_timeout: Option<Duration>,
    pub(crate) max_head_bytes: usize,
    pub(crate) max_headers: usize,
    pub(crate) shutdown_timeout: Duration,
    pub(crate) shutdown_idle_wait: Duration,
    pub(crate) max_connections: Option<usize>,
    pub(crate) keep_alive: bool,
    pub(crate) http1_half_close: bool,
    pub(crate) http2_idle_timeout: Http2IdleTimeout,
    pub(crate) tcp_keepalive: Option<Duration>,
    pub(crate) http2_keep_alive_interval: Option<Duration>,
    pub(crate) http2_keep_alive_timeout: Duration,
    pub(crate) http2_max_concurrent_streams: u32,
    pub(crate) on_accept_error: Option<ErrorHook>,
    pub(crate) on_client_error: Option<ErrorHook>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            port: 3000,
            hostname: "localhost".to_owned(),
            #[cfg(feature = "tls")]
            tls: None,
            on_listen: None,
            listener: None,
            header_read_timeout: Some(Duration::from_secs(10)),
            max_head_bytes: 64 * 1024,
            max_headers: 100,
            shutdown_timeout: Duration::from_secs(10),
            shutdown_idle_wait: DEFAULT_SHUTDOWN_IDLE_WAIT,
            max_connections: None,
            keep_alive: true,
            http1_half_close: false,
            http2_idle_timeout: Http2IdleTimeout::LikeHeaderRead,
            tcp_keepalive: Some(Duration::from_secs(20)),
            http2_keep_alive_interval: None,
            http2_keep_alive_timeout: Duration::from_secs(10),
            http2_max_concurrent_streams: 200,
            on_accept_error: None,
            on_client_error: None,
        }
    }
}

impl fmt::Debug for ServerOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerOptions")
            .field("port", &self.port)
            .field("hostname", &self.hostname)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("max_head_bytes", &self.max_head_bytes)
            .field("max_headers", &self.max_headers)
            .field("listener", &self.listener)
            .field("shutdown_timeout", &self.shutdown_timeout)
            .field("shutdown_idle_wait", &self.shutdown_idle_wait)
            .field("max_connections", &self.max_connections)
            .field("http1_half_close", &self.http1_half_close)
            .field("http2_idle_timeout", &self.http2_idle())
            .field("tcp_keepalive", &self.tcp_keepalive)
            .field("http2_keep_alive_interval", &self.http2_keep_alive_interval)
            .field("http2_keep_alive_timeout", &self.http2_keep_alive_timeout)
            .field(
                "http2_max_concurrent_streams",
                &self.http2_max_concurrent_streams,
            )
            .finish_non_exhaustive()
    }
}

impl ServerOptions {
    /// The defaults above.
    pub fn new() -> Self {
        Self::default()
    }

    /// The defaults, with the address the environment gives, as container platforms and
    /// process managers set it: `PORT` (Cloud Run, Heroku, Fly.io, Render, Kubernetes
    /// manifests by convention) and `HOST` (e.g. `0.0.0.0` in a container), each when set.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let options = pactum::ServerOptions::from_env()?.on_listen(|port, host| {
    ///     println!("listening on http://{host}:{port}");
    /// });
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// `PORT` is set but is not a port number (`InvalidInput`, naming the variable and value).
    pub fn from_env() -> std::io::Result<Self> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// [`ServerOptions::from_env`] with the variables `var` gives.
    fn from_vars(var: impl Fn(&str) -> Option<String>) -> std::io::Result<Self> {
        let mut options = Self::new();
        if let Some(port) = var("PORT") {
            options.port = port.trim().parse().map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("PORT={port:?} is not a port number (0 to 65535)"),
                )
            })?;
        }
        if let Some(host) = var("HOST").filter(|host| !host.is_empty()) {
            options.hostname = host;
        }
        Ok(options)
    }

    /// The port to listen on (default 3000; 0 picks a free port — see
    /// [`on_listen`](Self::on_listen) and [`Server::local_addr`](crate::server::Server::local_addr)).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// The host name or IP to bind (default `localhost`; `0.0.0.0` or `::` to accept
    /// connections from other machines, as a container needs).
    pub fn hostname(mut self, hostname: impl Into<String>) -> Self {
        self.hostname = hostname.into();
        self
    }

    /// Serves on a socket the application made — a TCP listener bound already (tokio's, or
    /// `std`'s through [`Listener::tcp`]), a Unix domain socket ([`Listener::unix`]), the
    /// socket systemd passes ([`Listener::from_systemd`]) — instead of binding
    /// [`hostname`](Self::hostname) and [`port`](Self::port), which are then only what
    /// [`on_listen`](Self::on_listen) is told (with the listener's real port; for a Unix
    /// socket, port 0 and the socket's path). Every other setting holds.
    ///
    /// ```
    /// use pactum::{handler, route, contract::NoContent, Endpoint, ServerOptions};
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
    /// let ping = Endpoint::get(route!("/ping")).build()?;
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// let addr = listener.local_addr()?;
    /// let server = pactum::serve(
    ///     vec![pactum::handler(ping, |_| async { Ok(NoContent) }).into()],
    ///     ServerOptions::new().listener(listener),
    /// )
    /// .await?;
    /// assert_eq!(server.local_addr(), addr);
    /// server.shutdown().await;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn listener(mut self, listener: impl Into<Listener>) -> Self {
        self.listener = Some(listener.into());
        self
    }

    /// Serves HTTPS with this certificate and key (HTTP/2 offered by ALPN).
    #[cfg(feature = "tls")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tls")))]
    pub fn https(mut self, tls: TlsConfig) -> Self {
        self.tls = Some(tls);
        self
    }

    /// Called once bound, with the real port (useful with port 0) and the hostname.
    pub fn on_listen(mut self, f: impl FnOnce(u16, &str) + Send + 'static) -> Self {
        self.on_listen = Some(Box::new(f));
        self
    }

    /// How long a client may take to send a request head; `None` disables it. Default 10 s.
    ///
    /// Each request head must arrive whole within it, counted from when the server starts
    /// waiting for it: the connection's start (a silent connection, or a stalled HTTP/2
    /// preface, is closed) and, on HTTP/1.1, the end of the previous answer (an idle
    /// keep-alive connection is closed). A request being handled is never cut by it, however
    /// long it takes.
    ///
    /// On HTTP/1.1 it costs a request nothing: one thread for the whole process reads each
    /// connection's request count a few times per timeout (16), and closes a connection
    /// whose wait it has seen last the whole timeout — between the timeout and an eighth more
    /// after the wait began, never before. (It keeps real time: `tokio::time::pause` does not
    /// stop it.)
    ///
    /// It is also the TLS handshake timeout (10 s when `None`), and the HTTP/2 idle timeout
    /// unless [`http2_idle_timeout`](Self::http2_idle_timeout) sets one.
    pub fn header_read_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.header_read_timeout = timeout.into();
        self
    }

    /// The largest request head (request line + headers) accepted; larger ones get 431.
    /// Default 64 KiB; values under 8 KiB are raised to 8 KiB (hyper's minimum buffer).
    ///
    /// On HTTP/1 the head's bytes are counted exactly, its final blank line included,
    /// however the client splits them: a head of exactly this size is served, one byte more
    /// is refused. On HTTP/2 it bounds the decoded header list (`SETTINGS_MAX_HEADER_LIST_SIZE`).
    pub fn max_head_bytes(mut self, bytes: usize) -> Self {
        self.max_head_bytes = bytes.max(8192);
        self
    }

    /// The most headers a request may carry; more get 431. Default 100.
    ///
    /// hyper's HTTP/1 parser counts them (every header line, `Host` included); over HTTP/2,
    /// which hyper does not count, the connection counts the header fields (pseudo-headers
    /// such as `:path` aside) before the service is called, and answers 431 with the error
    /// body on that stream alone.
    ///
    /// Up to 100 (hyper's own limit) the headers are parsed on the stack. A larger value costs
    /// every HTTP/1 request two allocations: hyper allocates its header arrays for each
    /// request head (measured: about 600 instructions more on a small `GET`, 1,700 on a
    /// `POST` with a JSON body).
    pub fn max_headers(mut self, count: usize) -> Self {
        self.max_headers = count;
        self
    }

    /// How long a graceful shutdown waits for in-flight requests. Default 10 s.
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.shutdown_timeout = timeout;
        self
    }

    /// How long a graceful shutdown keeps serving the connections it found open before it
    /// closes them. Default 1 s; `Duration::ZERO` closes idle connections at once.
    ///
    /// It protects requests sent by a proxy that keeps connections to the server (nginx with
    /// `keepalive`, most load balancers). HTTP/1.1 has no GOAWAY: a keep-alive connection
    /// closed while idle races with the request the proxy may be writing to it just then,
    /// and a proxy retries a lost GET but answers a lost POST with 502. So for this long a
    /// draining server keeps answering on its HTTP/1.1 connections, each answer with
    /// `connection: close`, and the proxy closes them itself; those still open after it are
    /// closed, an idle one at once, a busy one once its answer is written (an HTTP/2
    /// connection gets its GOAWAY then). Requests in flight are not cut by it: they have
    /// until the [`shutdown_timeout`](Self::shutdown_timeout), which also bounds this wait.
    ///
    /// 0 is right when nothing sends a request on a kept-alive connection across the
    /// shutdown: tests that start and stop servers (with an idle keep-alive connection
    /// open, a shutdown then takes milliseconds instead of this wait, once the client closes
    /// its end as HTTP clients do), a server no proxy pools connections to, or clients that
    /// retry every request. Keep the default behind
    /// nginx or any proxy that pools connections; see the guide's
    /// [deploys that lose no request](crate::guide::load_balancer#deploys-that-lose-no-request).
    ///
    /// ```
    /// use std::time::Duration;
    /// // A test server: stopped at once, even with an idle keep-alive connection open.
    /// let options = pactum::ServerOptions::new()
    ///     .port(0)
    ///     .shutdown_idle_wait(Duration::ZERO);
    /// ```
    pub fn shutdown_idle_wait(mut self, wait: Duration) -> Self {
        self.shutdown_idle_wait = wait;
        self
    }

    /// The most connections served at once; further ones wait to be accepted. Default: none.
    pub fn max_connections(mut self, max: impl Into<Option<usize>>) -> Self {
        self.max_connections = max.into();
        self
    }

    /// HTTP/1.1 keep-alive (default on).
    pub fn keep_alive(mut self, enabled: bool) -> Self {
        self.keep_alive = enabled;
        self
    }

    /// Answers an HTTP/1.1 client that closes its sending side once its request is sent (a
    /// half-close: `shutdown(SHUT_WR)`, as `nc -N` does), instead of taking that close for the
    /// client leaving. Default off, as in hyper (`http1::Builder::half_close`) and axum.
    ///
    /// Off, a client that closes (or half-closes) its connection while its request is in
    /// flight gets no answer, and its handler's future is dropped at once (an event stream
    /// ends when its client leaves, however silent); the server's
    /// [`on_client_error`](Self::on_client_error) hook hears of it. On a plain TCP
    /// connection pactum notices it by peeking at the socket while the answer waits;
    /// over TLS and on a Unix domain socket hyper does, by reading the connection
    /// mid-request — which costs each request with a body an 8 KiB allocation (hyper's read
    /// buffer is reallocated while the request's bytes still share it; see the guide's
    /// "Large bodies and the allocator").
    ///
    /// On, nothing is read until the answer is written: a half-closed client gets its
    /// answer, and a client that leaves is noticed when the answer (or the stream's next
    /// event or keep-alive comment) fails to go out — its handler runs to its end or to the
    /// request timeout. HTTP/2 is not concerned (a stream is reset on its own).
    pub fn http1_half_close(mut self, enabled: bool) -> Self {
        self.http1_half_close = enabled;
        self
    }

    /// How long an HTTP/2 connection may stay with no stream the server is working on before
    /// it is shut down: a GOAWAY, then the socket is closed once the client has closed its
    /// streams, or one more idle timeout later (a client that does not answer the GOAWAY, or
    /// never reads its responses: a zero-window stream counts as idle once its response is
    /// produced). `None` disables it. Default: the
    /// [`header_read_timeout`](Self::header_read_timeout) (10 s), as for an idle HTTP/1.1
    /// keep-alive connection.
    ///
    /// Timed as the header read timeout is, by one thread for the process: no timer per
    /// connection or stream, nothing per request; the GOAWAY comes between the timeout and
    /// an eighth more.
    pub fn http2_idle_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.http2_idle_timeout = Http2IdleTimeout::Set(timeout.into());
        self
    }

    /// How long an accepted TCP connection may go without receiving anything before the
    /// kernel probes its peer (TCP keep-alive); `None` leaves the system's settings. Default
    /// 20 s: probes every 10 s after it, and a peer that answers none of 3 is taken for dead
    /// and its connection closed — HTTP/1.1 or HTTP/2, a stream or a handler in flight, on
    /// TLS too — with no cost per request. On Linux the same total (the time + 30 s) bounds
    /// how long data sent may stay unacknowledged (`TCP_USER_TIMEOUT`), so a peer that
    /// vanished while an answer or an event stream was being sent to it is found as soon.
    ///
    /// This replaces HTTP/2 keep-alive PINGs as the default dead-peer detection
    /// ([`http2_keep_alive_interval`](Self::http2_keep_alive_interval)), as Go's `net/http`
    /// does for every connection: hyper's PINGs cost each HTTP/2 request ~1.2k instructions
    /// (a lock and clock reads per frame) and cover HTTP/2 only. Behind a proxy that ends TCP
    /// (a load balancer), the probes reach the proxy, not the client: the proxy's own
    /// timeouts apply there.
    ///
    /// ```
    /// use std::time::Duration;
    /// let options = pactum::ServerOptions::new().tcp_keepalive(Duration::from_secs(60));
    /// ```
    pub fn tcp_keepalive(mut self, idle: impl Into<Option<Duration>>) -> Self {
        self.tcp_keepalive = idle.into();
        self
    }

    /// How long an HTTP/2 connection may go without receiving a frame before the server
    /// sends a PING; `None` sends none. Default: none — dead peers are found by
    /// [`tcp_keepalive`](Self::tcp_keepalive). A peer that does not answer within the
    /// [`http2_keep_alive_timeout`](Self::http2_keep_alive_timeout) is taken for dead and its
    /// connection closed, streams and all (hyper's keep-alive: one timer per connection; a
    /// lock and a clock read per frame received, ~1.2k instructions per request). Useful
    /// where TCP keep-alive cannot see the client: an HTTP/2 proxy in between that keeps
    /// its connections alive itself.
    pub fn http2_keep_alive_interval(mut self, interval: impl Into<Option<Duration>>) -> Self {
        self.http2_keep_alive_interval = interval.into();
        self
    }

    /// How long the server waits for the answer to its keep-alive PING. Default 10 s.
    pub fn http2_keep_alive_timeout(mut self, timeout: Duration) -> Self {
        self.http2_keep_alive_timeout = timeout;
        self
    }

    /// The most HTTP/2 streams a client may have open at once on one connection (advertised
    /// in SETTINGS; a stream past it is refused with `REFUSED_STREAM`). Default 200.
    pub fn http2_max_concurrent_streams(mut self, max: u32) -> Self {
        self.http2_max_concurrent_streams = max;
        self
    }

    /// Whether the server answers over TLS ([`https`](Self::https)).
    pub(crate) fn serves_tls(&self) -> bool {
        #[cfg(feature = "tls")]
        return self.tls.is_some();
        #[cfg(not(feature = "tls"))]
        false
    }

    /// The HTTP/2 idle timeout in effect.
    pub(crate) fn http2_idle(&self) -> Option<Duration> {
        match self.http2_idle_timeout {
            Http2IdleTimeout::LikeHeaderRead => self.header_read_timeout,
            Http2IdleTimeout::Set(timeout) => timeout,
        }
    }

    /// Called for every failed `accept` (e.g. too many open files); the server backs off and
    /// keeps accepting. Always logged with `tracing` too.
    pub fn on_accept_error(
        mut self,
        f: impl Fn(&(dyn std::error::Error + 'static)) + Send + Sync + 'static,
    ) -> Self {
        self.on_accept_error = Some(Arc::new(f));
        self
    }

    /// Called when a connection ends with a protocol error (malformed request, header read
    /// timeout, TLS handshake failure). Always logged with `tracing` too.
    pub fn on_client_error(
        mut self,
        f: impl Fn(&(dyn std::error::Error + 'static)) + Send + Sync + 'static,
    ) -> Self {
        self.on_client_error = Some(Arc::new(f));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::ServerOptions;

    fn from(vars: &[(&str, &str)]) -> std::io::Result<ServerOptions> {
        ServerOptions::from_vars(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn the_environment_sets_port_and_host() {
        let options = from(&[]).unwrap();
        assert_eq!(
            (options.port, options.hostname.as_str()),
            (3000, "localhost")
        );
        let options = from(&[("PORT", "8080"), ("HOST", "0.0.0.0")]).unwrap();
        assert_eq!((options.port, options.hostname.as_str()), (8080, "0.0.0.0"));
        let options = from(&[("HOST", "")]).unwrap();
        assert_eq!(options.hostname, "localhost");
    }

    #[test]
    fn a_port_that_is_not_a_number_is_an_error() {
        for bad in ["http", "70000", "-1", ""] {
            let error = from(&[("PORT", bad)]).unwrap_err();
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
            assert!(error.to_string().contains("PORT="), "{error}");
        }
    }
}
