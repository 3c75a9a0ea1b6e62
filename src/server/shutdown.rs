//! Graceful shutdown of the native server's connections, paid per connection, not per poll.
//!
//! hyper-util's `GracefulShutdown` polls a cancellation future every time a connection's task
//! runs (each request), and a force-close signal was a second one. Here a connection gives
//! its task's waker once ([`Drain`]), then reads one atomic per poll: the shutdown's state
//! only changes three times (draining, closing, forced), and each change wakes every
//! connection of the server through the list the header read timeout's watch keeps of them
//! (the `wake` the server gives, `Shutdown::with_wake`), not through a `Notify` future held by
//! every connection (64 bytes of every connection's task).
//!
//! An HTTP/2 connection idle for its timeout is shut down gracefully here too (one more
//! atomic load per poll): its `HeadDeadline` ([`conn`](super::conn)) says so
//! through its request count ([`Idle`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::server::graceful::GracefulConnection;
use tokio::sync::futures::OwnedNotified;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::error_answers::ErrorAnswers;
use super::options::ErrorHook;

const RUNNING: u8 = 0;
/// Connections keep serving, each HTTP/1 answer with `connection: close`, for the idle wait.
const DRAINING: u8 = 1;
/// Connections finish what they are doing and close (hyper's graceful shutdown).
const CLOSING: u8 = 2;
/// The deadline passed: connections close now.
const FORCED: u8 = 3;

/// The shutdown state shared by the accept loop and every connection, with the server settings
/// a connection reads only now and then (kept here once, not in every connection's task).
#[derive(Default)]
pub(crate) struct Shutdown {
    state: AtomicU8,
    /// Wakes the streamed answers that end when the shutdown starts ([`UntilDrain`]).
    changed: Arc<Notify>,
    open: AtomicUsize,
    closed: Notify,
    /// How long a draining HTTP/1 connection stays open for its client's next request, which
    /// is answered with `connection: close`, before it is closed while idle
    /// ([`ServerOptions::shutdown_idle_wait`](crate::ServerOptions::shutdown_idle_wait)):
    /// timed once, by [`Shutdown::drain`], for every connection.
    idle_wait: Duration,
    /// The server's HTTP/2 idle timeout
    /// ([`ServerOptions::http2_idle_timeout`](crate::ServerOptions::http2_idle_timeout)), read
    /// by a connection once its preface is read: a server setting, like `idle_wait`, kept here
    /// rather than in every connection.
    http2_idle: Option<Duration>,
    /// `ServerOptions::max_connections`: the accept loop takes a permit per connection, which
    /// its [`Drain`] gives back when the connection ends (rather than each connection's task
    /// holding its own `OwnedSemaphorePermit`).
    limit: Option<Arc<Semaphore>>,
    /// `ServerOptions::on_client_error`, called with a connection's error.
    on_client_error: Option<ErrorHook>,
    /// How hyper's own answers and the connection's refusals are formatted.
    answers: ErrorAnswers,
    /// The server's connections are TLS: their requests' URLs are `https`.
    secure: bool,
    /// `ServerOptions::max_headers`, counted by the connection on HTTP/2 (saturated).
    max_headers: u32,
    /// A plain TCP HTTP/1 connection is watched for a client that leaves mid-request
    /// (`ServerOptions::http1_half_close` off): `conn::InFlight::watch_client`.
    watch_clients: bool,
    /// Wakes every connection of this shutdown (the head watch's list of them, given by the
    /// server: the connections' module depends on this one, not the other way round).
    wake: Option<fn(&Shutdown)>,
}

impl std::fmt::Debug for Shutdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shutdown")
            .field("state", &self.state)
            .field("open", &self.open)
            .field("idle_wait", &self.idle_wait)
            .field("http2_idle", &self.http2_idle)
            .field("limit", &self.limit)
            .field("on_client_error", &self.on_client_error.is_some())
            .field("answers", &self.answers)
            .field("secure", &self.secure)
            .field("max_headers", &self.max_headers)
            .field("watch_clients", &self.watch_clients)
            .finish_non_exhaustive()
    }
}

impl Shutdown {
    /// A shutdown whose draining connections stay open `idle_wait` for their next request.
    /// Without a header count limit until [`Shutdown::with_request_settings`] sets one.
    pub(crate) fn new(idle_wait: Duration) -> Self {
        Self {
            idle_wait,
            max_headers: u32::MAX,
            ..Self::default()
        }
    }

    /// With an HTTP/2 idle timeout.
    pub(crate) fn with_http2_idle(mut self, timeout: Option<Duration>) -> Self {
        self.http2_idle = timeout;
        self
    }

    /// With the `max_connections` limit whose permits the accept loop takes.
    pub(crate) fn with_limit(mut self, limit: Option<Arc<Semaphore>>) -> Self {
        self.limit = limit;
        self
    }

    /// With the hook called with a connection's error.
    pub(crate) fn with_client_errors(mut self, hook: Option<ErrorHook>) -> Self {
        self.on_client_error = hook;
        self
    }

    /// With how hyper's own answers and the connection's refusals are formatted.
    pub(crate) fn with_answers(mut self, answers: ErrorAnswers) -> Self {
        self.answers = answers;
        self
    }

    /// With `wake`, which wakes every connection of this shutdown when its state changes.
    pub(crate) fn with_wake(mut self, wake: fn(&Shutdown)) -> Self {
        self.wake = Some(wake);
        self
    }

    /// With the connection settings read on each request rather than kept in every
    /// connection's task: whether the connections are TLS, and `max_headers`.
    pub(crate) fn with_request_settings(mut self, secure: bool, max_headers: usize) -> Self {
        self.secure = secure;
        self.max_headers = u32::try_from(max_headers).unwrap_or(u32::MAX);
        self
    }

    /// With plain TCP HTTP/1 connections watched for a client that leaves mid-request
    /// (`http1_half_close` off), rather than read by hyper.
    pub(crate) fn with_client_watch(mut self, watch: bool) -> Self {
        self.watch_clients = watch;
        self
    }

    /// Whether a plain TCP HTTP/1 connection is watched for a client that leaves.
    #[inline]
    pub(crate) fn watches_clients(&self) -> bool {
        self.watch_clients
    }

    /// Whether the server's connections are TLS.
    #[inline]
    pub(crate) fn secure(&self) -> bool {
        self.secure
    }

    /// `ServerOptions::max_headers` (saturated to a `u32`).
    #[inline]
    pub(crate) fn max_headers(&self) -> u32 {
        self.max_headers
    }

    /// How hyper's own answers and the connection's refusals are formatted.
    pub(crate) fn answers(&self) -> &ErrorAnswers {
        &self.answers
    }

    /// The server's HTTP/2 idle timeout.
    pub(crate) fn http2_idle(&self) -> Option<Duration> {
        self.http2_idle
    }

    /// Reports a connection's error: logged at `debug`, and handed to the server's
    /// `on_client_error` hook.
    pub(crate) fn report_client_error(&self, error: &(dyn std::error::Error + 'static)) {
        tracing::debug!(%error, "connection error");
        if let Some(hook) = &self.on_client_error {
            hook(error);
        }
    }

    /// Serves `connection` until it ends, or until the shutdown closes it (a graceful close)
    /// or forces (dropped). `idle` says when an HTTP/2 connection is idle (a graceful close),
    /// holds this shutdown ([`Idle::shutdown`]) and the task's waker, which the shutdown's
    /// changes wake (the connection is in the watch's list from its start). `permit`, the
    /// connection's `max_connections` permit, is given back when the connection ends.
    pub(crate) fn watch<C: GracefulConnection, I: Idle>(
        &self,
        connection: C,
        idle: Arc<I>,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Drain<C, I> {
        debug_assert!(std::ptr::eq(idle.shutdown(), self));
        self.open.fetch_add(1, Ordering::Relaxed);
        // Given back by `Open` from the shutdown's semaphore (the one it was taken from): a
        // flag in the connection's task rather than the permit's 16 bytes.
        let permit = permit.map(OwnedSemaphorePermit::forget).is_some();
        debug_assert!(!permit || self.limit.is_some());
        Drain {
            connection,
            open: Open {
                idle,
                registered: false,
                seen: RUNNING,
                permit,
            },
        }
    }

    /// Drains every connection: `true` when all closed within `deadline`, else they are
    /// closed at once and `false`.
    ///
    /// An idle HTTP/1 connection closed at once races with the request its client may be
    /// writing to it (lost, or a 502 from a proxy). So connections first keep serving for
    /// the idle wait, each answer with `connection: close` (a client closes after it), and
    /// are then closed gracefully: one timer here for the whole server, rather than one per
    /// connection. With no idle wait, they are closed at once.
    pub(crate) async fn drain(&self, deadline: Duration) -> bool {
        let closed = async {
            if !self.idle_wait.is_zero() {
                self.set(DRAINING);
                let waited = tokio::time::timeout(self.idle_wait, self.all_closed()).await;
                if waited.is_ok() {
                    return;
                }
            }
            self.set(CLOSING);
            self.all_closed().await;
        };
        let finished = tokio::time::timeout(deadline, closed).await.is_ok();
        if !finished {
            self.set(FORCED);
        }
        finished
    }

    /// Once no connection is open.
    async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            tokio::pin!(closed);
            closed.as_mut().enable();
            if self.open.load(Ordering::Acquire) == 0 {
                return;
            }
            closed.await;
        }
    }

    /// Whether an answer of `version` must close its connection (`connection: close`): on
    /// HTTP/1 while draining, so that the client reads that it must not send on it again, and
    /// closes it itself.
    pub(crate) fn closes_answers(&self, version: http::Version) -> bool {
        version <= http::Version::HTTP_11 && self.state.load(Ordering::Acquire) != RUNNING
    }

    /// The state, then every connection of the server and every streamed answer woken: a
    /// connection that gave its waker after the wake-ups reads the state after it.
    fn set(&self, state: u8) {
        self.state.store(state, Ordering::Release);
        self.changed.notify_waiters();
        if let Some(wake) = self.wake {
            wake(self);
        }
    }
}

pin_project_lite::pin_project! {
    /// Says when the server starts shutting down, to a streamed answer that ends then
    /// ([`EndsOnShutdown`](crate::response::EndsOnShutdown)).
    pub(crate) struct UntilDrain {
        shutdown: Arc<Shutdown>,
        #[pin]
        notified: OwnedNotified,
        registered: bool,
    }
}

impl UntilDrain {
    pub(crate) fn new(shutdown: &Arc<Shutdown>) -> Self {
        Self {
            shutdown: Arc::clone(shutdown),
            notified: Arc::clone(&shutdown.changed).notified_owned(),
            registered: false,
        }
    }

    /// Whether the server has started shutting down; if not, the task is woken when it does.
    pub(crate) fn poll_draining(self: Pin<&mut Self>, cx: &mut Context<'_>) -> bool {
        let this = self.project();
        if !*this.registered {
            // Registered before the state is read: no change is missed.
            let _ = this.notified.poll(cx);
            *this.registered = true;
        }
        this.shutdown.state.load(Ordering::Acquire) != RUNNING
    }
}

/// What says what a connection's [`Drain`] is due to do — the graceful shutdown of an HTTP/2
/// connection idle for its timeout, or dropping an HTTP/1 connection whose client left
/// mid-request: the connection's request count, kept by [`conn`](super::conn).
pub(crate) trait Idle {
    /// What is due to the connection, once: read on every poll of the connection that
    /// leaves it pending.
    fn take_due(&self) -> Due;

    /// Keeps the connection's task's waker, which the shutdown's changes wake (and the
    /// watch, for an overdue wait): given once per task, as a tokio task's waker stays the
    /// same.
    fn keep_waker(&self, waker: &std::task::Waker);

    /// The server's shutdown, which the connection's [`Drain`] reads through this (one
    /// pointer less in every connection's task).
    fn shutdown(&self) -> &Shutdown;
}

/// What a connection's [`Idle`] asks of its [`Drain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Due {
    Nothing,
    /// Idle for its timeout (HTTP/2): the graceful shutdown.
    GracefulShutdown,
    /// Its client left while a request was in flight (HTTP/1, a watched socket): the
    /// connection is dropped, with the request, unanswered.
    Close,
}

/// A connection's [`Drain`] state beside the connection: counts the connection open until
/// dropped (after the connection, a field declared before it), then gives its
/// `max_connections` permit back.
struct Open<I: Idle> {
    idle: Arc<I>,
    /// The task's waker was given to `idle` (which the shutdown's changes wake).
    registered: bool,
    /// The shutdown's state last seen.
    seen: u8,
    /// The connection holds a `max_connections` permit (forgotten; given back here).
    permit: bool,
}

impl<I: Idle> Drop for Open<I> {
    fn drop(&mut self) {
        let shutdown = self.idle.shutdown();
        if shutdown.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            shutdown.closed.notify_waiters();
        }
        if self.permit {
            if let Some(limit) = &shutdown.limit {
                limit.add_permits(1);
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// A connection served until it ends or the shutdown closes it.
    ///
    /// 16 bytes around the connection, in every connection's task: no `Notify` future of its
    /// own for the shutdown's changes (its task's waker is kept by `Open::idle`, 64 bytes
    /// less), no timer of its own for the idle wait (the shutdown's, 8 bytes less).
    pub(crate) struct Drain<C, I: Idle> {
        #[pin]
        connection: C,
        // Last: dropped after the connection.
        open: Open<I>,
    }
}

impl<C, I: Idle> Drain<C, I> {
    /// The server's shutdown (its error hook, for the HTTP/2 task).
    #[cfg(feature = "http2")]
    pub(crate) fn shutdown(&self) -> &Shutdown {
        self.open.idle.shutdown()
    }
}

impl<C: GracefulConnection, I: Idle> Future for Drain<C, I> {
    type Output = Result<(), C::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        let open = this.open;
        if !open.registered {
            // The task is woken at the next change; the state is read below, after the waker
            // is kept, so a change made before it is not missed either.
            open.idle.keep_waker(cx.waker());
            open.registered = true;
        }
        let state = open.idle.shutdown().state.load(Ordering::Acquire);
        if state != open.seen {
            open.seen = state;
            match state {
                FORCED => return Poll::Ready(Ok(())),
                // Draining, it keeps serving (its answers say `connection: close`).
                CLOSING => this.connection.as_mut().graceful_shutdown(),
                _ => {}
            }
        }
        let polled = this.connection.as_mut().poll(cx);
        if polled.is_pending() {
            match open.idle.take_due() {
                Due::Nothing => {}
                Due::GracefulShutdown => {
                    this.connection.as_mut().graceful_shutdown();
                    return this.connection.poll(cx);
                }
                Due::Close => return Poll::Ready(Ok(())),
            }
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use bytes::Bytes;
    use http_body_util::Full;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::*;
    use crate::server::{serve_service, Server, ServerOptions};

    async fn server() -> Server {
        server_with(ServerOptions::new()).await
    }

    async fn server_with(options: ServerOptions) -> Server {
        let ok = tower::service_fn(|_: http::Request<hyper::body::Incoming>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::new(Bytes::from("ok"))))
        });
        serve_service(ok, options.hostname("127.0.0.1").port(0))
            .await
            .expect("bind")
    }

    /// Sends one request and reads its answer's head (the body is `ok`).
    async fn get(stream: &mut TcpStream) -> String {
        stream
            .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        while !answer.ends_with(b"\r\n\r\nok") {
            let mut buf = [0; 512];
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed before the answer: {answer:?}");
            answer.extend_from_slice(&buf[..n]);
        }
        String::from_utf8(answer).unwrap()
    }

    #[tokio::test]
    async fn a_draining_connection_answers_its_next_request_and_closes() {
        let server = server().await;
        let mut stream = TcpStream::connect(server.local_addr()).await.unwrap();
        assert!(!get(&mut stream).await.contains("connection: close"));
        let shutdown = tokio::spawn(server.shutdown());
        tokio::time::sleep(Duration::from_millis(100)).await;
        // Idle when the shutdown began: not closed under the request its client sends next.
        let answer = get(&mut stream).await;
        assert!(answer.contains("connection: close"), "{answer}");
        assert_eq!(
            stream.read(&mut [0; 16]).await.unwrap(),
            0,
            "closed after it"
        );
        assert!(shutdown.await.unwrap());
    }

    #[tokio::test]
    async fn a_draining_connection_left_idle_is_closed_after_a_while() {
        let server = server().await;
        let mut stream = TcpStream::connect(server.local_addr()).await.unwrap();
        get(&mut stream).await;
        let start = Instant::now();
        let shutdown = tokio::spawn(server.shutdown());
        assert_eq!(stream.read(&mut [0; 16]).await.unwrap(), 0);
        let took = start.elapsed();
        let wait = ServerOptions::new().shutdown_idle_wait;
        assert!(
            took >= wait - Duration::from_millis(50) && took < wait * 3,
            "closed after {took:?}"
        );
        assert!(shutdown.await.unwrap());
    }

    /// Without a header read or idle timeout, the connection is not timed by the watch, but
    /// kept in its list: the shutdown still wakes it and closes it.
    #[tokio::test]
    async fn an_untimed_idle_connection_is_closed_by_the_shutdown() {
        let server = server_with(
            ServerOptions::new()
                .header_read_timeout(None)
                .http2_idle_timeout(None)
                .shutdown_idle_wait(Duration::ZERO),
        )
        .await;
        let mut stream = TcpStream::connect(server.local_addr()).await.unwrap();
        get(&mut stream).await;
        let shutdown = tokio::spawn(server.shutdown());
        let mut buf = [0; 16];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf));
        assert_eq!(read.await.expect("closed by the shutdown").unwrap(), 0);
        assert!(shutdown.await.unwrap());
    }
}
