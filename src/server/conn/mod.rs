//! One connection, from the socket to the service: the wrappers the native server puts around
//! a connection's IO and its service, and [`Connection::serve`], which puts them together.
//!
//! # The wrapping order
//!
//! As [`run`](super::run)'s `accept_loop` and [`Connection::serve`] build it, from the socket
//! (top) to the service (bottom). Down to hyper's connection, each layer wraps the one above
//! it; below it, hyper calls the service for each request. Files in parentheses are outside
//! this folder.
//!
//! ```text
//!   TcpStream                    accepted, TCP_NODELAY set; the            (run.rs)
//!      |                         `max_connections` permit taken (given
//!      |                         back by the connection's `Drain`)
//!      v
//!   TlsStream        [tls]       rustls handshake within the header read   (run.rs, tls.rs)
//!      |                         timeout (10 s without one)
//!   or SharedTcp     [plain TCP] the socket kept in the connection's       shared_socket.rs
//!      |                         InFlight and read through it; peeked at
//!      |                         while an HTTP/1 answer waits, for a
//!      |                         client that leaves (hyper's `half_close`
//!      |                         on: it does not read then)
//!      v
//!   HyperErrors<_>               hyper's own 400 / 431 / 414 heads         hyper_errors.rs
//!      |                         rewritten with the error body; HTTP/1     (error_answers.rs)
//!      |                         only (taken off once HTTP/2 is told)
//!      v
//!   HeadDeadline<_>              the protocol, told by the first bytes     head_deadline.rs
//!      |                         (`detect`, replayed to hyper); then:
//!      |  HTTP/1:  head watch    header read timeout, kept by one thread   head_watch.rs
//!      |           linger        lingering close once hyper shuts writing
//!      |  HTTP/2:  ControlFrames PING / SETTINGS flood cut-off             control_frames.rs
//!      |           head watch    idle timeout: GOAWAY, then close (the     head_watch.rs
//!      |                         same registration, its timeout changed)
//!      v
//!   TokioIo<_>                   hyper-util: tokio's IO as hyper's
//!      |                         `rt::Read` / `rt::Write`
//!      v
//!   http1 | http2 connection     hyper's, with the settings of `Builders`  (builders.rs)
//!      |    polled inside Drain  graceful shutdown, and the idle GOAWAY    (shutdown.rs)
//!      |
//!      :  each request
//!      v
//!   ConnectionService<S>         counts the request (InFlight; on HTTP/2   connection_service.rs
//!      |                         a stream), notes `https`, `connection:    in_flight.rs
//!      |                         close` while draining; the answer's body
//!      v                         as Counted<_>
//!   S: PactumService             the application, or any tower service     (servable.rs)
//!      | WithPeer<_>             with its peer as an extension
//! ```
//!
//! The wrappers share one count, [`InFlight`]: the service counts each
//! request from when hyper hands it over until its response body has been sent (the
//! body holds the guard); the IO wrappers read it to know whether the connection is between
//! requests, or (HTTP/2) idle: the idle timeout's decision is carried out by
//! [`Drain`](super::shutdown::Drain), which reads it too. How hyper's own answers are
//! formatted, [`ErrorAnswers`](super::error_answers::ErrorAnswers), is a server setting the
//! connections read from the server's [`Shutdown`] (`error_answers.rs`).
//!
//! # What each relies on in hyper, and what would retire it
//!
//! - **`HyperErrors`** works around hyper's HTTP/1 server answering a head it cannot parse,
//!   or over its limits, by itself (`proto::h1::Conn::on_parse_error`,
//!   `role::Server::on_error`) with a bare head and no hook for a body. It relies on how
//!   hyper writes: an answer only for a request the service got, except its own; a flush only
//!   once its write buffer is empty; its own answer starting with a `4xx` status line, then
//!   `connection: close` and `content-length: 0`; and an HTTP/2 connection's first write
//!   being a SETTINGS frame. No upstream issue found for such a hook (the nearest,
//!   hyperium/hyper#2583, closed, asks to pass such requests through instead).
//! - **`HeadDeadline`** with the **head watch** (`head_watch.rs`) replaces hyper's
//!   `http1::Builder::header_read_timeout`, turned off in [`Builders`](super::builders): it
//!   arms a timer per request head, and with any timer in tokio's wheel every park of the
//!   runtime reads the clock. The idle keep-alive wait is timed here too, as the pull request
//!   hyperium/hyper#3828 (open) would have hyper do; a hyper timeout without a timer per head:
//!   no upstream issue found. hyper's HTTP/2 has no header read timeout
//!   (hyperium/hyper#2894, open): here the preface is timed as a head, then the idle timeout
//!   below takes over. `detect` relies on hyper's two builders serving a connection whose first
//!   bytes are replayed, as hyper-util's `auto` builder does, without its `Rewind` wrapper on
//!   every read.
//!   The lingering close relies on hyper calling `poll_shutdown` when it closes an HTTP/1
//!   connection; it works around hyper not reading what the client still sends before it
//!   closes (a reset that can lose the answer): hyperium/hyper#3944 (open).
//! - **`ControlFrames`** works around h2 0.4 answering every PING and SETTINGS frame without a
//!   limit (it has one for the resets it sends, hyperium/h2#737); it relies on h2 reading
//!   nothing more while an answer is pending (memory stays bounded) and on the frames being
//!   plain bytes here (above TLS). No upstream issue found for a PING / SETTINGS limit.
//! - The **HTTP/2 idle timeout** (the head watch on the streams' `InFlight` count) works around
//!   hyper's HTTP/2 server having no idle timeout (its keep-alive PINGs only find dead
//!   peers): hyperium/hyper#1628 (open). It relies on hyper's `graceful_shutdown` sending
//!   GOAWAY, and on hyper dropping each stream's answer once sent.
//! - **`RequestRules`** (in `ConnectionService`) keeps two HTTP rules hyper 1.12 does not:
//!   exactly one valid `Host` on HTTP/1 (RFC 9112 §3.2) and the header count limit on
//!   HTTP/2. It relies on hyper's map keeping the request's order of names and on a refused
//!   request never reaching the service. Proposed upstream as opt-in builder settings
//!   (`http1::Builder::strict_host`, `http2::Builder::max_headers`), with patches, in
//!   `src/server/upstream/README-http-rules.md`; no upstream issue found.
//! - **`SharedTcp`**, with the watch in `InFlight`, works around hyper noticing a client that
//!   leaves mid-request only by reading the connection then (`half_close` off), a read that
//!   reallocates its read buffer while the request's bytes share it (an 8 KiB allocation per
//!   request with a body; `shared_socket.rs`). It relies on hyper with `half_close` on not
//!   reading a connection between a request's end and its answer's, and on hyper polling the
//!   service's future and the answer's body on the connection's task (one waker for the
//!   socket's readiness). No upstream issue found for a check without the allocation.
//! - **`InFlight`** is the bookkeeping the others read, not a workaround: it relies on hyper
//!   dropping an answer's body once the body has been sent, and goes with them.
//! - **`ConnectionService`** is hyper's `service::Service` (called through `&self`, no
//!   `poll_ready`) over a tower service, as hyper-util's `TowerToHyperService` is, without a
//!   clone of pactum's own service per request; nothing upstream to retire.
//!
//! [`Drain`](super::shutdown::Drain), outside this folder, replaces hyper-util's
//! `GracefulShutdown`, which polls a cancellation future each time a connection's task runs
//! (no upstream issue found).

mod connection_service;
mod control_frames;
mod head_deadline;
mod head_watch;
mod hyper_errors;
mod in_flight;
mod replay;
mod request_rules;
mod shared_socket;

#[cfg(feature = "http2")]
use std::future::Future;
use std::net::SocketAddr;
#[cfg(feature = "http2")]
use std::pin::Pin;
use std::sync::Arc;
#[cfg(feature = "http2")]
use std::task::{ready, Context, Poll};
use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::sync::OwnedSemaphorePermit;

use connection_service::ConnectionService;
use head_deadline::HeadDeadline;
use hyper_errors::HyperErrors;
use in_flight::InFlight;
pub(super) use shared_socket::Attach;

use super::builders::Builders;
use super::servable::CallShared;
use super::shutdown::Shutdown;
#[cfg(feature = "http2")]
use super::shutdown::{Drain, Idle};

// The header read timeout's thread, started with the first server; it keeps every
// connection, and the server's shutdown wakes them through it.
pub(super) use head_watch::start as start_head_watch;
pub(super) use head_watch::wake_server as wake_connections;

/// What one connection task needs.
pub(super) struct Connection<S> {
    pub(super) builders: Arc<Builders>,
    pub(super) service: S,
    /// The connection's peer (`None` on a Unix domain socket), kept in its [`InFlight`].
    pub(super) peer: Option<SocketAddr>,
    pub(super) header_read_timeout: Option<Duration>,
    /// With the server's `on_client_error` hook, `max_connections` limit, error answers,
    /// whether it serves TLS, and `max_headers` (counted here on HTTP/2; hyper counts
    /// HTTP/1's).
    pub(super) shutdown: Arc<Shutdown>,
    /// The `max_connections` permit, held until the connection ends (by its `Drain` once
    /// served).
    pub(super) permit: Option<OwnedSemaphorePermit>,
}

impl<S: CallShared> Connection<S> {
    pub(super) async fn serve<I: Attach>(self, io: I) {
        // Set up in a block of its own: a local that was ever borrowed (the IO, by `detect`;
        // the shutdown; the builders) keeps its place in the future until its scope ends,
        // even once moved, and a task is the size of its future's largest state. Scoped here,
        // they are not kept while the connection is served (peer_load under dhat: a task of
        // 1,792 bytes per HTTP/1.1 connection before, 1,408 now).
        let (served, shutdown) = {
            let Self {
                builders,
                service,
                peer,
                header_read_timeout,
                shutdown,
                permit,
            } = self;
            // What the connection's head deadline needs to know: when a request is in flight.
            let requests = Arc::new(InFlight::new(Arc::clone(&shutdown), peer));
            let hyper_service = ConnectionService {
                service,
                in_flight: Arc::clone(&requests),
            };
            let io = HyperErrors::new(io, Arc::clone(&requests));
            let mut io = HeadDeadline::new(io, header_read_timeout, Arc::clone(&requests));
            let http2 = match io.detect().await {
                Ok(http2) => http2,
                Err(error) => {
                    shutdown.report_client_error(&error);
                    return;
                }
            };
            // Without the `http2` feature, hyper's HTTP/1.1 parser answers the HTTP/2 preface.
            #[cfg(not(feature = "http2"))]
            let _ = http2;
            #[cfg(feature = "http2")]
            if http2 {
                // Without `HyperErrors`, which only passes HTTP/2 through (48 bytes of every
                // HTTP/2 connection's task): nothing is written yet.
                let io = io.map_inner(HyperErrors::into_inner);
                let connection = builders
                    .http2
                    .serve_connection(TokioIo::new(io), hyper_service);
                // On a task of its own, this one ending: a task is the size of its future's
                // largest state, and HTTP/2's and HTTP/1's are about as large (1.8 KB each,
                // peer_load under dhat); on this task, every connection would carry both.
                // The error hook and the permit are not in it: the hook is read from the
                // shutdown, and the permit is given back by `Drain` (their 32 bytes took the
                // task a 128-byte step up). Nor is the peer (in `requests`), nor the server's
                // settings (read from the shutdown): the task is 1,664 bytes, its future
                // 1,560, at its step (`size_of_val`, printed once in a temporary build).
                tokio::spawn(Reported {
                    served: shutdown.watch(connection, requests, permit),
                });
                return;
            }
            // HTTP/1 reads a plain TCP socket through its state, which peeks at it.
            let io = io.map_inner(|io| io.map_inner(|io| io.attach(&requests)));
            // hyper reads a connection mid-request to notice a client that leaves, unless told
            // half-closes are answered; a watched socket is read by nobody meanwhile.
            let http1 = if requests.watches_client() {
                &builders.http1_watched
            } else {
                &builders.http1
            };
            let connection = http1.serve_connection(TokioIo::new(io), hyper_service);
            // Awaited here rather than through `Reported`: one call less per poll.
            (shutdown.watch(connection, requests, permit), shutdown)
        };
        if let Err(error) = served.await {
            shutdown.report_client_error(&error);
        }
    }

    #[cfg(feature = "tls")]
    pub(super) fn client_error(&self, error: &(dyn std::error::Error + 'static)) {
        self.shutdown.report_client_error(error);
    }
}

#[cfg(feature = "http2")]
pin_project_lite::pin_project! {
    /// An HTTP/2 connection on its task: served, its error reported to the server's hook. A
    /// future of its own rather than an `async` block, which would hold `served` twice (the
    /// block's capture, and the future it awaits); the hook is read from the shutdown `Drain`
    /// holds, not kept in every connection's task.
    struct Reported<C, I: Idle> {
        #[pin]
        served: Drain<C, I>,
    }
}

#[cfg(feature = "http2")]
impl<C, I, E> Future for Reported<C, I>
where
    Drain<C, I>: Future<Output = Result<(), E>>,
    I: Idle,
    E: std::error::Error + 'static,
{
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut served = self.project().served;
        if let Err(error) = ready!(served.as_mut().poll(cx)) {
            served.shutdown().report_client_error(&error);
        }
        Poll::Ready(())
    }
}
