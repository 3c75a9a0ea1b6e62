//! [`InFlight`]: how many requests of a connection are in flight and have started — counted
//! by the service ([`InFlightGuard`], held by the response body: [`Counted`]), read by the
//! connection's IO ([`HeadDeadline`](super::head_deadline::HeadDeadline),
//! [`HyperErrors`](super::hyper_errors::HyperErrors)) and by the header read timeout's watch
//! thread ([`head_watch`](super::head_watch)), which times its waits for a head and, on
//! HTTP/2, its idle time (whose end the connection's [`Drain`](crate::server::shutdown::Drain)
//! carries out). What the watch keeps of the connection is here too: one allocation per
//! connection for both; the connection's peer, which its service hands to each request; and a
//! plain TCP connection's socket, which its IO reads through this
//! ([`SharedTcp`](super::shared_socket::SharedTcp)) and which is peeked at while an HTTP/1
//! answer waits, to notice a client that leaves ([`InFlight::watch_client`]).

use std::mem::MaybeUninit;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use tokio::io::ReadBuf;
use tokio::net::TcpStream;

use crate::response::DrainSignal;
use crate::server::shutdown::{Due, Idle, Shutdown, UntilDrain};

/// How many requests of a connection are in flight, and how many have started: counted by
/// the service, read by the connection's [`HeadDeadline`](super::head_deadline::HeadDeadline) and
/// [`HyperErrors`](super::hyper_errors::HyperErrors).
///
/// One word, so that a request costs one atomic add and one subtraction: the low 32 bits
/// count the requests in flight, the high 32 bits the requests started (wrapping). With the
/// server's shutdown, for the answers that end when it starts ([`Counted`]).
///
/// On HTTP/2 a request is a stream, and the connection is idle while none is in flight: its
/// idle timeout is timed from the same counts, by the header read timeout's watch.
///
/// With what the watch keeps of the connection (its timeout, the wait found overdue, the
/// task to wake), the connection's peer and a plain TCP HTTP/1 connection's socket (boxed):
/// one allocation of 120 bytes per connection (glibc: a 128-byte chunk; 104 before the
/// socket's place), and the socket's 40 on HTTP/1. The peer is here rather
/// than in the connection's service: its 32 bytes took every HTTP/2 connection's task a
/// 128-byte step up. The timeout is kept in milliseconds, `0` when not watched.
#[derive(Debug)]
pub(crate) struct InFlight {
    counts: AtomicU64,
    shutdown: Arc<Shutdown>,
    /// The connection's peer (`None` on a Unix domain socket).
    peer: Option<SocketAddr>,
    /// The timeout the watch times the connection's waits for, in milliseconds (at least 1,
    /// at most `u32::MAX`: 49 days): the header read timeout, and on HTTP/2 its idle timeout
    /// once the preface is read. `0` while not watched: before its registration, and once
    /// released (HTTP/2 without an idle timeout, or closing).
    timeout: AtomicU32,
    /// The snapshot of the wait found overdue, with its low bit set (a snapshot with none in
    /// flight has it clear); `0` until one is.
    overdue: AtomicU64,
    /// The connection's task, woken when its wait is found overdue (and kept: woken again
    /// for a later wait without being given again) and when its server's shutdown changes
    /// state. Given once per task ([`InFlight::keep_waker`]): by the protocol's detection, then
    /// by the connection's `Drain`.
    waker: Mutex<Option<Waker>>,
    /// What is due to the connection, taken by its [`Drain`](crate::server::shutdown::Drain):
    /// [`IDLE`] when an HTTP/2 connection was idle for its timeout (a graceful shutdown:
    /// GOAWAY), [`GONE`] when an HTTP/1 client left mid-request (the connection dropped).
    due: AtomicU8,
    /// A plain TCP HTTP/1 connection's socket, kept once its protocol is told, which its IO
    /// reads and writes through this ([`SharedTcp`](super::shared_socket::SharedTcp)); unset
    /// for HTTP/2 (which reads its socket itself), TLS and Unix domain sockets. Boxed: 16
    /// bytes here rather than 48 in every connection's state, HTTP/2's included.
    /// Peeked at while an HTTP/1 answer waits, to notice a client that leaves (hyper's
    /// `half_close` on, so that hyper does not read it then), unless the server answers
    /// half-closes (`http1_half_close`).
    socket: OnceLock<Box<TcpStream>>,
}

/// A count on a server that never shuts down.
#[cfg(test)]
impl Default for InFlight {
    fn default() -> Self {
        Self::new(Arc::default(), None)
    }
}

/// [`InFlight`]'s `due`: the HTTP/2 connection was idle for its timeout.
const IDLE: u8 = 1;
/// [`InFlight`]'s `due`: the client left while a request was in flight.
const GONE: u8 = 2;

/// One request started, in [`InFlight`]'s high bits.
const STARTED: u64 = 1 << 32;

impl InFlight {
    /// A connection's count, on a server that shuts down with `shutdown`, from `peer`.
    pub(crate) fn new(shutdown: Arc<Shutdown>, peer: Option<SocketAddr>) -> Self {
        Self {
            counts: AtomicU64::new(0),
            shutdown,
            peer,
            timeout: AtomicU32::new(0),
            overdue: AtomicU64::new(0),
            waker: Mutex::new(None),
            due: AtomicU8::new(0),
            socket: OnceLock::new(),
        }
    }

    /// Keeps a plain TCP HTTP/1 connection's `socket` (once: a second is dropped).
    pub(crate) fn keep_socket(&self, socket: TcpStream) {
        let _ = self.socket.set(Box::new(socket));
    }

    /// The plain TCP HTTP/1 connection's socket, once kept.
    #[inline]
    pub(crate) fn socket(&self) -> Option<&TcpStream> {
        self.socket.get().map(|socket| &**socket)
    }

    /// Whether pactum notices a client that leaves mid-request ([`InFlight::watch_client`]),
    /// rather than hyper.
    pub(crate) fn watches_client(&self) -> bool {
        self.socket.get().is_some() && self.shutdown.watches_clients()
    }

    /// While an HTTP/1 answer of this connection waits: when its socket is watched and the
    /// client left, reports it and asks the connection's `Drain` to drop the connection
    /// (with the request); else the task is woken when the socket becomes readable.
    ///
    /// A one-byte peek once the socket is readable. Bytes waiting are not a close: the
    /// request's body still coming, or the next request (pipelined), which hyper reads in its
    /// turn; as with hyper's own check, nothing is noticed behind them.
    #[inline]
    pub(crate) fn watch_client(&self, cx: &mut Context<'_>) {
        let Some(socket) = self.socket().filter(|_| self.shutdown.watches_clients()) else {
            return;
        };
        let mut byte = [MaybeUninit::uninit()];
        let mut peeked = ReadBuf::uninit(&mut byte);
        let gone = match socket.poll_peek(cx, &mut peeked) {
            Poll::Pending | Poll::Ready(Ok(1..)) => false,
            Poll::Ready(Ok(0) | Err(_)) => true,
        };
        if gone {
            self.shutdown.report_client_error(&ClientGone);
            self.due.fetch_or(GONE, Ordering::Release);
        }
    }

    /// The server's HTTP/2 idle timeout.
    pub(crate) fn http2_idle(&self) -> Option<Duration> {
        self.shutdown.http2_idle()
    }

    /// The server's shutdown.
    #[inline]
    pub(crate) fn shutdown(&self) -> &Shutdown {
        &self.shutdown
    }

    /// The connection's peer.
    #[inline]
    pub(crate) fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// The counts as they are now: two snapshots differ when a request started in between;
    /// [`InFlight::none_at`] reads one.
    #[inline]
    pub(crate) fn snapshot(&self) -> u64 {
        self.counts.load(Ordering::Relaxed)
    }

    /// Whether no request was in flight at `snapshot`.
    #[inline]
    pub(crate) fn none_at(snapshot: u64) -> bool {
        snapshot & (STARTED - 1) == 0
    }

    /// How many requests had started at `snapshot` (wrapping).
    pub(crate) fn started_at(snapshot: u64) -> u32 {
        // The high 32 bits.
        (snapshot >> 32) as u32
    }

    /// The HTTP/2 connection was idle for its timeout: its graceful shutdown is due.
    pub(crate) fn set_idle(&self) {
        self.due.fetch_or(IDLE, Ordering::Release);
    }

    /// A new wait, timed afresh by the watch (no request is counted): the HTTP/2 preface read,
    /// the idle time starts.
    pub(crate) fn new_wait(&self) {
        self.counts.fetch_add(STARTED, Ordering::Relaxed);
    }

    /// The timeout the watch times the connection's waits for; `None` while not watched.
    pub(crate) fn timeout(&self) -> Option<Duration> {
        match self.timeout.load(Ordering::Relaxed) {
            0 => None,
            millis => Some(Duration::from_millis(u64::from(millis))),
        }
    }

    /// Times the connection's waits for `timeout` from now on (rounded up to a millisecond);
    /// the watch reads it once [registered](super::head_watch::register).
    pub(crate) fn set_timeout(&self, timeout: Duration) {
        let millis = timeout.as_nanos().div_ceil(1_000_000);
        let millis = u32::try_from(millis).unwrap_or(u32::MAX).max(1);
        self.timeout.store(millis, Ordering::Relaxed);
    }

    /// No longer watched: an HTTP/2 connection without an idle timeout, or closing. The
    /// watch forgets it at its next read.
    pub(crate) fn release(&self) {
        self.timeout.store(0, Ordering::Relaxed);
    }

    /// Whether the connection's wait for a head (HTTP/2: its idle time) is overdue (never
    /// while a request is in flight); the connection's task, whose waker is kept
    /// ([`InFlight::keep_waker`], before its first read), is woken when it becomes so.
    #[inline]
    pub(crate) fn overdue(&self) -> bool {
        let snapshot = self.snapshot();
        Self::none_at(snapshot) && self.overdue.load(Ordering::Acquire) == snapshot | 1
    }

    /// Keeps `waker`, the connection's task's, to wake it when a wait is found overdue or the
    /// server's shutdown changes state: once per task (a tokio task's waker stays the same),
    /// before the task reads what it is woken for (kept before the flag's or the state's
    /// read, a change made after it wakes the task).
    pub(crate) fn keep_waker(&self, waker: &Waker) {
        let mut kept = self.waker.lock().unwrap_or_else(PoisonError::into_inner);
        if !kept.as_ref().is_some_and(|w| w.will_wake(waker)) {
            *kept = Some(waker.clone());
        }
    }

    /// Wakes the connection's task, if its waker is kept yet.
    pub(crate) fn wake(&self) {
        let waker = self.waker.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(waker) = &*waker {
            waker.wake_by_ref();
        }
    }

    /// The watch found the wait `snapshot` overdue: flags it, and wakes the connection's task
    /// the first time.
    pub(crate) fn flag_overdue(&self, snapshot: u64) {
        let flagged = snapshot | 1;
        if self.overdue.swap(flagged, Ordering::AcqRel) != flagged {
            self.wake();
        }
    }
}

impl Idle for InFlight {
    #[inline]
    fn take_due(&self) -> Due {
        if self.due.load(Ordering::Relaxed) == 0 {
            return Due::Nothing;
        }
        match self.due.swap(0, Ordering::Acquire) {
            due if due & GONE != 0 => Due::Close,
            due if due & IDLE != 0 => Due::GracefulShutdown,
            _ => Due::Nothing,
        }
    }

    fn keep_waker(&self, waker: &Waker) {
        InFlight::keep_waker(self, waker);
    }

    #[inline]
    fn shutdown(&self) -> &Shutdown {
        InFlight::shutdown(self)
    }
}

/// Counts one request in flight until dropped (with its response body, once sent), except
/// while its streamed body waits on the peer ([`pause`](Self::pause)).
#[derive(Debug)]
pub(crate) struct InFlightGuard {
    requests: Arc<InFlight>,
    paused: bool,
    /// An HTTP/2 stream's: no longer counted once its last frame is produced.
    http2: bool,
}

impl InFlightGuard {
    pub(crate) fn new(requests: &Arc<InFlight>) -> Self {
        requests.counts.fetch_add(STARTED + 1, Ordering::Relaxed);
        Self {
            requests: Arc::clone(requests),
            paused: false,
            http2: false,
        }
    }

    /// The body handed hyper a frame and waits to be asked for the next: the peer's turn,
    /// timed like a wait for a request head (the [watch](super::head_watch)).
    #[inline]
    fn pause(&mut self) {
        self.paused = true;
        self.requests.counts.fetch_sub(1, Ordering::Relaxed);
    }

    /// Asked again: progress, counted as a request started (a new wait for the watch).
    #[inline]
    fn resume(&mut self) {
        self.paused = false;
        self.requests
            .counts
            .fetch_add(STARTED + 1, Ordering::Relaxed);
    }

    /// Watches for the request's client leaving ([`InFlight::watch_client`]).
    #[inline]
    pub(crate) fn watch_client(&self, cx: &mut Context<'_>) {
        self.requests.watch_client(cx);
    }

    /// What tells a streamed answer of this connection that the server shuts down.
    pub(crate) fn drain_signal(&self) -> Box<dyn DrainSignal> {
        Box::new(UntilDrainSignal(Mutex::new(Box::pin(UntilDrain::new(
            &self.requests.shutdown,
        )))))
    }
}

/// [`UntilDrain`] behind a lock: the answer's body polls it through a shared reference.
struct UntilDrainSignal(Mutex<Pin<Box<UntilDrain>>>);

impl DrainSignal for UntilDrainSignal {
    fn poll_draining(&self, cx: &mut Context<'_>) -> bool {
        let mut until = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        until.as_mut().poll_draining(cx)
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if !self.paused {
            self.requests.counts.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its request counted in flight until it is dropped (hyper
    /// drops it once it has been sent).
    ///
    /// The send deadline: between handing hyper a frame that is not the last and being asked
    /// for the next, a body waits on the peer (hyper asks when the peer has read enough, or
    /// opened its flow-control window). That time is not counted: it is timed as the
    /// connection's idle time — on HTTP/1.1 as the wait for a head, on HTTP/2 as its idle
    /// time, both by the header read timeout's watch — so a peer that stops reading a stream
    /// has its connection closed like an idle one. An HTTP/2 body also waits from the moment
    /// its response is handed over (hyper asks for the first frame once the peer's window
    /// allows).
    pub(crate) struct Counted<B> {
        #[pin]
        body: B,
        guard: InFlightGuard,
    }
}

impl<B> Counted<B> {
    /// `body`, answering the request `guard` counts; `http2` when it is an HTTP/2 stream's.
    pub(crate) fn new(body: B, mut guard: InFlightGuard, http2: bool) -> Self {
        if http2 {
            guard.http2 = true;
            guard.pause();
        }
        Self { body, guard }
    }
}

impl<B: Body> Body for Counted<B> {
    type Data = B::Data;
    type Error = B::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let this = self.project();
        let mut body = this.body;
        let guard = this.guard;
        // Asked for a frame: the server's turn again (progress, a new wait for the watch).
        if guard.paused {
            guard.resume();
        }
        let polled = body.as_mut().poll_frame(cx);
        if let Poll::Ready(frame) = &polled {
            // Between two frames, the peer's turn. After the last, an HTTP/1 answer counts
            // until it is sent (hyper writes it on the connection's task, then drops it); an
            // HTTP/2 stream's no longer does: what is left is the peer's to read.
            let last = !matches!(frame, Some(Ok(_))) || body.is_end_stream();
            if !last || guard.http2 {
                guard.pause();
            }
        } else if !guard.http2 {
            // An HTTP/1 stream between two events: dropped with its connection if its client
            // left meanwhile.
            guard.watch_client(cx);
        }
        polled
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// What the server's `on_client_error` hook is given when a client left while its request
/// was in flight, on a watched connection (its request dropped, unanswered): hyper's own check
/// gives an incomplete-message error instead.
#[derive(Debug)]
struct ClientGone;

impl std::fmt::Display for ClientGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client closed the connection before its answer was sent")
    }
}

impl std::error::Error for ClientGone {}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::task::Waker;

    use bytes::Bytes;
    use http_body_util::{BodyExt, Full, StreamBody};

    use super::*;

    /// Polls the body's next data frame, which is ready at once.
    fn poll_one_frame<B: Body + Unpin>(body: &mut B)
    where
        B::Error: std::fmt::Debug,
    {
        let mut frame = std::pin::pin!(body.frame());
        match frame.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Some(Ok(_))) => {}
            _ => panic!("the body's frame is ready at once"),
        }
    }

    fn two_frames() -> impl Body<Data = Bytes, Error = std::convert::Infallible> + Unpin {
        let frames = ["a", "b"].map(|data| Ok(Frame::data(Bytes::from_static(data.as_bytes()))));
        StreamBody::new(futures_util::stream::iter(frames))
    }

    #[test]
    fn an_http1_answer_is_in_flight_until_dropped() {
        let requests = Arc::new(InFlight::default());
        let mut body = Counted::new(
            Full::new(Bytes::from_static(b"x")),
            InFlightGuard::new(&requests),
            false,
        );
        poll_one_frame(&mut body);
        assert!(body.is_end_stream());
        assert!(
            !InFlight::none_at(requests.snapshot()),
            "its last frame: not paused"
        );
        drop(body);
        assert!(InFlight::none_at(requests.snapshot()));
    }

    /// A body between a frame and the next is not in flight (the watch times the peer), and
    /// each time it is asked again counts as a request started (a new wait).
    #[test]
    fn a_stream_waiting_on_the_peer_is_not_in_flight() {
        let requests = Arc::new(InFlight::default());
        let mut body = Counted::new(two_frames(), InFlightGuard::new(&requests), false);
        assert!(!InFlight::none_at(requests.snapshot()));
        poll_one_frame(&mut body);
        let waiting = requests.snapshot();
        assert!(
            InFlight::none_at(waiting),
            "a frame handed out: the peer's turn"
        );
        poll_one_frame(&mut body);
        let again = requests.snapshot();
        assert!(InFlight::none_at(again));
        assert_ne!(again, waiting, "asked again: a new wait");
        drop(body);
        assert_eq!(
            requests.snapshot(),
            again,
            "a paused request is not ended twice"
        );
    }

    /// HTTP/2: handed to hyper, an answer waits until hyper asks for its first frame (the
    /// peer's window): the connection is idle meanwhile; asked, it is progress.
    #[test]
    fn an_http2_answer_waits_on_the_peer_until_asked() {
        let requests = Arc::new(InFlight::default());
        let mut body = Counted::new(
            Full::new(Bytes::from_static(b"x")),
            InFlightGuard::new(&requests),
            true,
        );
        let handed = requests.snapshot();
        assert!(InFlight::none_at(handed), "not asked yet: the peer's turn");
        poll_one_frame(&mut body);
        let ended = requests.snapshot();
        assert!(
            InFlight::none_at(ended),
            "its last frame produced: the rest is the peer's to read"
        );
        assert_ne!(ended, handed, "asked: progress, a new wait");
        drop(body);
        assert_eq!(requests.snapshot(), ended, "not ended twice");
    }

    #[test]
    fn idle_is_taken_once() {
        let requests = InFlight::default();
        assert_eq!(requests.take_due(), Due::Nothing);
        requests.set_idle();
        assert_eq!(requests.take_due(), Due::GracefulShutdown);
        assert_eq!(requests.take_due(), Due::Nothing);
    }
}
