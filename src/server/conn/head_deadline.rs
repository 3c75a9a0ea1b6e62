//! [`HeadDeadline`]: the header read timeout, kept per connection rather than per request.
//!
//! Every request head must arrive whole within the timeout of when the server starts waiting
//! for it: at the connection's start (a client that connects and sends nothing, or a few bytes
//! of the HTTP/2 preface, is closed), and on an HTTP/1.1 connection each time the previous
//! request is answered (an idle keep-alive connection is closed; a slowloris head too).
//!
//! hyper has this timeout itself (`header_read_timeout`), but it arms a new timer per request
//! head (an allocation and a timer-wheel insertion and removal). Here the process's
//! [watch](super::head_watch) thread times the connection's waits, told by the service when a request is in
//! flight ([`InFlight`]: from the moment hyper hands it a parsed head until its response body
//! has been sent): a request costs no clock read and no timer.
//!
//! HTTP/2 is told apart by its preface; after it, the same watch times the connection's idle
//! time instead (hyper's HTTP/2 has no header or idle timeout): no stream in flight — none
//! being worked on; a stream whose answer waits on the peer's window counts as idle, the
//! zero-window defence — for the idle timeout, and the connection is shut down gracefully
//! (GOAWAY, by its [`Drain`](crate::server::shutdown::Drain)); still open one idle timeout
//! later, it is closed.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use super::control_frames::ControlFrames;
use super::head_watch;
use super::in_flight::InFlight;
use super::replay::Replay;

/// How long a closing HTTP/1 connection keeps reading what its client still sends, at most
/// ([`HeadDeadline::poll_linger`]), and how much of it.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: u32 = 16 * 1024 * 1024;

/// The HTTP/2 connection preface: while the bytes received match it, the protocol is unknown.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    /// The first `matched` bytes were the HTTP/2 preface's (a `u8`: the preface is 24 bytes,
    /// and the field is in every connection's task).
    Unknown {
        matched: u8,
    },
    Http1,
    Http2,
    /// HTTP/2, shut down for its idle timeout (GOAWAY): closed at the deadline.
    Http2Closing,
}

/// Wraps a connection so that a read fails with `TimedOut` once a request head is overdue.
///
/// Its fields are in every HTTP/2 connection's task (hyper's connection holds it), a task is
/// allocated in steps of 128 bytes, and that task is within a few bytes of a step: the
/// fields are kept small.
pub(crate) struct HeadDeadline<I> {
    inner: I,
    /// The connection's requests (HTTP/2: streams) in flight, which the watch reads, and what
    /// the watch keeps of the connection (the header read timeout of an HTTP/1 connection, or
    /// one whose protocol is not known yet; the idle timeout of an HTTP/2 one).
    ///
    /// The task's waker, which the watch wakes, is kept there too: by [`HeadDeadline::detect`]
    /// for the task that detects the protocol, then by the connection's `Drain` for the task
    /// that serves it (not a copy here, 16 bytes of every connection's task).
    requests: Arc<InFlight>,
    /// HTTP/2, shut down for its idle timeout: when to close it; HTTP/1, lingering (`Some`
    /// once its writing is shut down): until when. Allocated then, once per connection at
    /// most; the deadline is the timer's (no field of its own).
    timer: Option<Pin<Box<Sleep>>>,
    /// Bytes read to tell the protocol ([`HeadDeadline::detect`]), handed out again first.
    replay: Replay,
    /// HTTP/2: the PING and SETTINGS frames counted, against floods.
    control: ControlFrames,
    /// HTTP/1, lingering (`timer` set): how many more bytes it reads at most.
    linger_left: u32,
    /// Timed by the watch: a timeout, and not released (`false` once an HTTP/2 connection
    /// was idle for it).
    watched: bool,
    protocol: Protocol,
}

impl<I> HeadDeadline<I> {
    /// Registered with the watch, timed or not: the server's shutdown wakes the connection
    /// through it.
    pub(crate) fn new(inner: I, timeout: Option<Duration>, requests: Arc<InFlight>) -> Self {
        head_watch::register(&requests, timeout);
        Self {
            inner,
            requests,
            timer: None,
            replay: Replay::default(),
            control: ControlFrames::default(),
            linger_left: 0,
            watched: timeout.is_some(),
            protocol: Protocol::Unknown { matched: 0 },
        }
    }

    /// The same, around the IO `map` makes of this one's (before any byte is handed out:
    /// HTTP/2's connection leaves out the wrapper only HTTP/1 needs, and HTTP/1's reads a
    /// plain TCP socket through its `InFlight`).
    pub(crate) fn map_inner<J>(self, map: impl FnOnce(I) -> J) -> HeadDeadline<J> {
        HeadDeadline {
            inner: map(self.inner),
            requests: self.requests,
            timer: self.timer,
            replay: self.replay,
            control: self.control,
            linger_left: self.linger_left,
            watched: self.watched,
            protocol: self.protocol,
        }
    }

    /// Reads until the bytes received tell HTTP/2's preface from an HTTP/1 request (at most
    /// the preface's 24 bytes; the header read timeout applies), then keeps them for the
    /// connection's first reads. `true` for HTTP/2.
    ///
    /// # Errors
    ///
    /// The read's error, or `TimedOut` past the header read timeout.
    pub(crate) async fn detect(&mut self) -> io::Result<bool>
    where
        I: AsyncRead + Unpin,
    {
        // The watch wakes this task when the wait is overdue.
        std::future::poll_fn(|cx| {
            self.requests.keep_waker(cx.waker());
            Poll::Ready(())
        })
        .await;
        let mut received = [0; H2_PREFACE.len()];
        let mut filled = 0;
        while matches!(self.protocol, Protocol::Unknown { .. }) {
            let read = self.read(&mut received[filled..]).await?;
            if read == 0 {
                break;
            }
            filled += read;
        }
        self.replay = Replay::copy_from_slice(&received[..filled]);
        Ok(self.protocol == Protocol::Http2)
    }

    fn observe(&mut self, bytes: &[u8]) {
        let Protocol::Unknown { mut matched } = self.protocol else {
            return;
        };
        for &byte in bytes {
            if H2_PREFACE.get(usize::from(matched)) != Some(&byte) {
                self.protocol = Protocol::Http1;
                return;
            }
            matched += 1;
            if usize::from(matched) == H2_PREFACE.len() {
                self.protocol = Protocol::Http2;
                // No stream can be open yet: the connection is idle from here, timed by the
                // watch as a wait for a head is, in the same registration (one per
                // connection): a new wait, for the idle timeout.
                let idle = self.requests.http2_idle();
                match idle {
                    Some(timeout) => {
                        head_watch::retime(&self.requests, timeout);
                        self.requests.new_wait();
                    }
                    None => self.requests.release(),
                }
                self.watched = idle.is_some();
                return;
            }
        }
        self.protocol = Protocol::Unknown { matched };
    }

    /// Reading or writing waits: `Some` error once the connection must close. An idle
    /// HTTP/2 connection is first shut down gracefully, and closed one idle timeout later.
    fn stalled(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        if self.watched {
            if !self.requests.overdue() {
                return None;
            }
            if self.protocol != Protocol::Http2 {
                return Some(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no complete request head before the header read timeout",
                ));
            }
            // Idle for the timeout: GOAWAY (its `Drain` takes the flag after this poll),
            // then closed at the deadline if still open.
            let timeout = self.requests.timeout().unwrap_or_default();
            self.requests.release();
            self.watched = false;
            self.protocol = Protocol::Http2Closing;
            self.requests.set_idle();
            self.timer = Some(Box::pin(tokio::time::sleep(timeout)));
        }
        if self.protocol != Protocol::Http2Closing {
            return None;
        }
        self.passed(cx).then(|| {
            io::Error::new(
                io::ErrorKind::TimedOut,
                "HTTP/2 still open an idle timeout after its GOAWAY",
            )
        })
    }

    /// `true` once the timer's deadline has passed (or with no timer); else the task is
    /// woken when it does.
    fn passed(&mut self, cx: &mut Context<'_>) -> bool {
        self.timer
            .as_mut()
            .is_none_or(|timer| timer.as_mut().poll(cx).is_ready())
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for HeadDeadline<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.replay.is_empty() {
            return this.poll_replay(cx, buf);
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => Poll::Ready(this.received(&buf.filled()[before..])),
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match this.stalled(cx) {
                Some(error) => Poll::Ready(Err(error)),
                None => Poll::Pending,
            },
        }
    }
}

impl<I: AsyncRead + Unpin> HeadDeadline<I> {
    /// What a read brought, checked as the protocol asks: the flood cut-off on HTTP/2.
    #[inline(always)]
    fn received(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.protocol {
            Protocol::Http1 => Ok(()),
            Protocol::Unknown { .. } => {
                self.observe(bytes);
                Ok(())
            }
            Protocol::Http2 | Protocol::Http2Closing => match self.control.flooded(bytes) {
                true => Err(io::Error::other(
                    "HTTP/2 PING or SETTINGS flood: connection closed",
                )),
                false => Ok(()),
            },
        }
    }

    /// The bytes read to tell the protocol, handed out first, with what the socket holds
    /// after them in the same read: hyper's first read then gets the head as it would without
    /// them. Handed out alone, they would be a partial head in hyper's read buffer when it
    /// reads again, and hyper would reserve another 8 KiB for the rest (16 KiB of buffer per
    /// connection instead of 8: 4 KiB more resident per idle connection, `peer_load`).
    #[cold]
    fn poll_replay(&mut self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.replay.put_into(buf);
        if !self.replay.is_empty() || buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => Poll::Ready(self.received(&buf.filled()[before..])),
            // Nothing more yet (the task is woken when it comes), or an error the next read
            // meets: the replayed bytes now.
            Poll::Pending | Poll::Ready(Err(_)) => Poll::Ready(Ok(())),
        }
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin> AsyncWrite for HeadDeadline<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            // A client that does not read is timed as one that does not write.
            Poll::Pending => this
                .stalled(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e))),
            written => written,
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Pending => this
                .stalled(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e))),
            written => written,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    /// An answer flushed may be the end of the last request in flight: then the wait for
    /// the next head starts; if it is overdue, the watch wakes the task (its waker is kept in
    /// `requests`) and the next read says so.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let flushed = Pin::new(&mut this.inner).poll_flush(cx);
        if flushed.is_pending() {
            return this
                .stalled(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e)));
        }
        flushed
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.protocol != Protocol::Http1 {
            return Pin::new(&mut this.inner).poll_shutdown(cx);
        }
        if this.timer.is_none() {
            std::task::ready!(Pin::new(&mut this.inner).poll_shutdown(cx))?;
            this.linger_left = LINGER_BYTES;
            this.timer = Some(Box::pin(tokio::time::sleep(LINGER)));
        }
        this.poll_linger(cx)
    }
}

impl<I: AsyncRead + Unpin> HeadDeadline<I> {
    /// A lingering close, as nginx makes: once its answer is written and its writing shut
    /// down, an HTTP/1 connection reads and drops what its client still sends (the rest of a
    /// body refused before it was read) until the client closes, for at most [`LINGER`] and
    /// [`LINGER_BYTES`]. Closed with bytes unread, the connection would be reset, and the
    /// client could lose the answer it has not read yet.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut scratch = [0; 8192];
        loop {
            let left = self.linger_left as usize;
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.inner).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() && buf.filled().len() < left => {
                    // Less than `left`, a `u32`.
                    self.linger_left -= buf.filled().len() as u32;
                }
                // The client closed, failed, or sent too much: done.
                Poll::Ready(_) => return Poll::Ready(Ok(())),
                Poll::Pending if self.passed(cx) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::shutdown::Shutdown;

    fn wrapper() -> HeadDeadline<()> {
        HeadDeadline::new((), Some(Duration::from_secs(1)), Arc::default())
    }

    #[tokio::test]
    async fn http1_bytes_tell_the_protocol_at_the_first_difference() {
        let mut d = wrapper();
        d.observe(b"PR");
        assert_eq!(d.protocol, Protocol::Unknown { matched: 2 });
        assert!(d.watched);
        d.observe(b"X");
        assert_eq!(d.protocol, Protocol::Http1);
        assert!(d.watched, "the first head is still timed");
        assert!(d.requests.timeout().is_some());
    }

    #[tokio::test]
    async fn the_whole_preface_is_http2_and_leaves_the_watch() {
        let mut d = wrapper();
        d.observe(&H2_PREFACE[..10]);
        assert!(d.watched, "timed while the protocol is unknown");
        d.observe(&H2_PREFACE[10..]);
        assert_eq!(d.protocol, Protocol::Http2);
        assert!(!d.watched);
        assert!(
            d.requests.timeout().is_none(),
            "the watch no longer reads it"
        );
        assert!(d.timer.is_none(), "no HTTP/2 idle timeout set here");
    }

    #[tokio::test]
    async fn the_preface_starts_the_idle_timeout_in_the_same_registration() {
        let shutdown = Shutdown::default().with_http2_idle(Some(Duration::from_secs(5)));
        let requests = InFlight::new(Arc::new(shutdown), None);
        let mut d = HeadDeadline::new((), Some(Duration::from_secs(1)), Arc::new(requests));
        let before = d.requests.snapshot();
        d.observe(H2_PREFACE);
        assert_eq!(d.protocol, Protocol::Http2);
        assert!(d.watched);
        assert_eq!(d.requests.timeout(), Some(Duration::from_secs(5)));
        let after = d.requests.snapshot();
        assert!(InFlight::none_at(after));
        assert_ne!(after, before, "a new wait, timed afresh");
    }
}
