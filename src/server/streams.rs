//! [`Streams`]: the HTTP/2 streams of one connection the server is working on — counted by the
//! service ([`StreamGuard`]), read by the connection's idle timeout
//! (`Http2Idle`, in [`conn`](super::conn)'s `idle.rs`, where the mechanism is described), whose
//! decision the connection's [`Drain`](super::shutdown::Drain) carries out. Beside `conn/`
//! rather than in it: the shutdown reads it too.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Waker};

/// The HTTP/2 streams of one connection the server is working on, and what its idle timeout
/// decided.
#[derive(Debug, Default)]
pub(crate) struct Streams {
    busy: AtomicUsize,
    /// Bumped each time a stream waiting on the peer is asked for more: progress, which
    /// restarts the idle timeout.
    progress: AtomicUsize,
    /// Whether `connection` holds the connection task's waker.
    armed: AtomicBool,
    /// The connection's task, woken when `busy` drops to zero on a stream's task.
    connection: Mutex<Option<Waker>>,
    /// Set when the connection was idle for its timeout; taken by its
    /// [`Drain`](super::shutdown::Drain), which starts the graceful shutdown.
    idle: AtomicBool,
}

impl Streams {
    /// `true` while a stream is being worked on; the caller's task is then woken when the
    /// last one ends.
    ///
    /// Inlined: an HTTP/2 connection asks each time it reads, writes or flushes (6 times a
    /// request), and all but one find it idle or already armed; the waker is stored out of
    /// line (`Streams::arm`).
    #[inline]
    pub(crate) fn busy_or_wake(&self, cx: &Context<'_>) -> bool {
        if self.busy.load(Ordering::Acquire) == 0 {
            return false;
        }
        if !self.armed.load(Ordering::Acquire) {
            self.arm(cx);
        }
        // The last stream may have ended before the waker was stored: read again.
        self.busy.load(Ordering::Acquire) > 0
    }

    /// Keeps the connection task's waker, for the stream that ends last.
    #[inline(never)]
    fn arm(&self, cx: &Context<'_>) {
        *self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
        self.armed.store(true, Ordering::Release);
    }

    /// How many times a stream waiting on the peer was asked for more (wrapping).
    pub(crate) fn progress(&self) -> usize {
        self.progress.load(Ordering::Acquire)
    }

    /// Marks the connection idle for its timeout: its graceful shutdown is due.
    pub(super) fn set_idle(&self) {
        self.idle.store(true, Ordering::Release);
    }

    /// `true` once after [`set_idle`](Self::set_idle). One atomic load otherwise.
    #[inline]
    pub(crate) fn take_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) && self.idle.swap(false, Ordering::Acquire)
    }

    fn end(&self) {
        if self.busy.fetch_sub(1, Ordering::AcqRel) == 1 && self.armed.swap(false, Ordering::AcqRel)
        {
            let waker = self
                .connection
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(waker) = waker {
                waker.wake();
            }
        }
    }
}

/// Counts one HTTP/2 stream as worked on until its response body is produced, or until
/// dropped (the stream reset, or its service future dropped) — except while its body waits
/// on the peer ([`pause`](Self::pause)).
#[derive(Debug)]
pub(crate) struct StreamGuard {
    streams: Option<Arc<Streams>>,
    paused: bool,
}

impl StreamGuard {
    /// Counts a stream of the connection.
    pub(crate) fn new(streams: &Arc<Streams>) -> Self {
        streams.busy.fetch_add(1, Ordering::AcqRel);
        Self {
            streams: Some(Arc::clone(streams)),
            paused: false,
        }
    }

    /// No longer counted: the body was produced, or the stream is gone.
    pub(crate) fn end(&mut self) {
        if let Some(streams) = self.streams.take() {
            if !self.paused {
                streams.end();
            }
        }
    }

    /// The body waits to be asked for a frame: the peer's turn, not counted.
    pub(crate) fn pause(&mut self) {
        if let (Some(streams), false) = (&self.streams, self.paused) {
            self.paused = true;
            streams.end();
        }
    }

    /// Asked for a frame: counted again, and progress for the idle timeout.
    #[inline]
    pub(crate) fn resume(&mut self) {
        if let (Some(streams), true) = (&self.streams, self.paused) {
            self.paused = false;
            streams.busy.fetch_add(1, Ordering::AcqRel);
            streams.progress.fetch_add(1, Ordering::AcqRel);
        }
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::conn::{Counted, InFlightGuard};
    use bytes::Bytes;
    use http_body::Body;
    use http_body_util::{BodyExt, Full};
    use std::future::Future;
    use std::task::Poll;

    #[derive(Default)]
    struct Woken(AtomicBool);

    impl std::task::Wake for Woken {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// Polls the body's one data frame (a `Full` body is ready at once).
    fn poll_one_frame<B: Body + Unpin>(body: &mut B)
    where
        B::Error: std::fmt::Debug,
    {
        let waker = Waker::from(Arc::new(Woken::default()));
        let mut frame = std::pin::pin!(body.frame());
        match frame.as_mut().poll(&mut Context::from_waker(&waker)) {
            Poll::Ready(Some(Ok(_))) => {}
            _ => panic!("a full body is ready at once"),
        }
    }

    #[test]
    fn a_stream_waits_on_the_peer_until_asked_then_ends_when_its_body_is_produced() {
        let streams = Arc::new(Streams::default());
        let mut body = Counted::new(
            Full::new(Bytes::from_static(b"x")),
            InFlightGuard::new(&Arc::default()),
            Some(StreamGuard::new(&streams)),
        );
        let woken = Arc::new(Woken::default());
        let waker = Waker::from(Arc::clone(&woken));
        assert!(
            !streams.busy_or_wake(&Context::from_waker(&waker)),
            "handed to hyper, not asked yet: the peer's turn"
        );
        assert_eq!(streams.progress(), 0);
        poll_one_frame(&mut body);
        assert_eq!(streams.progress(), 1, "asked: progress");
        assert!(!streams.busy_or_wake(&Context::from_waker(&waker)));
        drop(body);
        assert_eq!(streams.busy.load(Ordering::SeqCst), 0, "not ended twice");
    }

    #[test]
    fn the_last_stream_paused_wakes_the_connection() {
        let streams = Arc::new(Streams::default());
        let mut guard = StreamGuard::new(&streams);
        let woken = Arc::new(Woken::default());
        let waker = Waker::from(Arc::clone(&woken));
        assert!(streams.busy_or_wake(&Context::from_waker(&waker)));
        guard.pause();
        assert!(
            woken.0.load(Ordering::SeqCst),
            "the connection's task was woken"
        );
        assert!(!streams.busy_or_wake(&Context::from_waker(&waker)));
        guard.pause();
        guard.resume();
        assert_eq!(
            streams.busy.load(Ordering::SeqCst),
            1,
            "paused once, resumed once"
        );
        guard.pause();
        drop(guard);
        assert_eq!(
            streams.busy.load(Ordering::SeqCst),
            0,
            "a paused stream ends once"
        );
    }

    #[test]
    fn a_dropped_stream_ends_too() {
        let streams = Arc::new(Streams::default());
        let guard = StreamGuard::new(&streams);
        assert_eq!(streams.busy.load(Ordering::SeqCst), 1);
        drop(guard);
        assert_eq!(streams.busy.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn http1_bodies_are_not_counted() {
        let mut body = Counted::new(
            Full::new(Bytes::from_static(b"x")),
            InFlightGuard::new(&Arc::default()),
            None,
        );
        poll_one_frame(&mut body);
        assert!(body.is_end_stream());
    }

    /// An HTTP/1.1 body between a frame and the next is not in flight (the watch times the
    /// peer), and each time it is asked again counts as a request started (a new wait).
    #[test]
    fn an_http1_stream_waiting_on_the_peer_is_not_in_flight() {
        use crate::server::conn::InFlightCount as InFlight;
        let requests = Arc::new(InFlight::default());
        let frames = ["a", "b"].map(|data| {
            Ok::<_, std::convert::Infallible>(http_body::Frame::data(Bytes::from_static(
                data.as_bytes(),
            )))
        });
        let stream = http_body_util::StreamBody::new(futures_util::stream::iter(frames));
        let mut body = Counted::new(stream, InFlightGuard::new(&requests), None);
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

    #[test]
    fn idle_is_taken_once() {
        let streams = Streams::default();
        assert!(!streams.take_idle());
        streams.set_idle();
        assert!(streams.take_idle());
        assert!(!streams.take_idle());
    }
}
