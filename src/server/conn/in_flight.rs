//! [`InFlight`]: how many requests of a connection are in flight and have started — counted
//! by the service ([`InFlightGuard`], held by the response body: [`Counted`]), read by the
//! connection's IO ([`HeadDeadline`](super::head_deadline::HeadDeadline),
//! [`HyperErrors`](super::hyper_errors::HyperErrors)).

use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use http_body::{Body, Frame, SizeHint};

use crate::response::DrainSignal;
use crate::server::shutdown::{Shutdown, UntilDrain};
use crate::server::streams::StreamGuard;

/// How many requests of a connection are in flight, and how many have started: counted by
/// the service, read by the connection's [`HeadDeadline`](super::head_deadline::HeadDeadline) and
/// [`HyperErrors`](super::hyper_errors::HyperErrors).
///
/// One word, so that a request costs one atomic add and one subtraction: the low 32 bits
/// count the requests in flight, the high 32 bits the requests started (wrapping). With the
/// server's shutdown, for the answers that end when it starts ([`Counted`]).
#[derive(Debug)]
pub(crate) struct InFlight(AtomicU64, Arc<Shutdown>);

/// A count on a server that never shuts down.
#[cfg(test)]
impl Default for InFlight {
    fn default() -> Self {
        Self::new(Arc::default())
    }
}

/// One request started, in [`InFlight`]'s high bits.
const STARTED: u64 = 1 << 32;

impl InFlight {
    /// A connection's count, on a server that shuts down with `shutdown`.
    pub(crate) fn new(shutdown: Arc<Shutdown>) -> Self {
        Self(AtomicU64::new(0), shutdown)
    }

    /// The server's shutdown.
    #[inline]
    pub(crate) fn shutdown(&self) -> &Shutdown {
        &self.1
    }

    /// The counts as they are now: two snapshots differ when a request started in between;
    /// [`InFlight::none_at`] reads one.
    #[inline]
    pub(crate) fn snapshot(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Whether no request was in flight at `snapshot`.
    #[inline]
    pub(crate) fn none_at(snapshot: u64) -> bool {
        snapshot & (STARTED - 1) == 0
    }
}

/// Counts one request in flight until dropped (with its response body, once sent), except
/// while its streamed body waits on the peer ([`pause`](Self::pause)).
#[derive(Debug)]
pub(crate) struct InFlightGuard {
    requests: Arc<InFlight>,
    paused: bool,
}

impl InFlightGuard {
    pub(crate) fn new(requests: &Arc<InFlight>) -> Self {
        requests.0.fetch_add(STARTED + 1, Ordering::Relaxed);
        Self {
            requests: Arc::clone(requests),
            paused: false,
        }
    }

    /// The body handed hyper a frame and waits to be asked for the next: the peer's turn,
    /// timed like a wait for a request head ([`HeadWatch`](super::head_watch::HeadWatch)).
    #[inline]
    fn pause(&mut self) {
        self.paused = true;
        self.requests.0.fetch_sub(1, Ordering::Relaxed);
    }

    /// Asked again: progress, counted as a request started (a new wait for the watch).
    #[inline]
    fn resume(&mut self) {
        self.paused = false;
        self.requests.0.fetch_add(STARTED + 1, Ordering::Relaxed);
    }

    /// What tells a streamed answer of this connection that the server shuts down.
    pub(crate) fn drain_signal(&self) -> Box<dyn DrainSignal> {
        Box::new(UntilDrainSignal(Mutex::new(Box::pin(UntilDrain::new(
            &self.requests.1,
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
            self.requests.0.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its request counted in flight until it is dropped; on
    /// HTTP/2, with its stream counted as worked on until its last frame is produced
    /// ([`StreamGuard`]: the idle timeout's count).
    ///
    /// The send deadline: between handing hyper a frame that is not the last and being asked
    /// for the next, a body waits on the peer (hyper asks when the peer has read enough, or
    /// opened its flow-control window). That time is not counted: it is timed as the
    /// connection's idle time — on HTTP/1.1 by the header read timeout's watch, on HTTP/2 by
    /// the idle timeout — so a peer that stops reading a stream has its connection closed
    /// like an idle one. An HTTP/2 body also waits from the moment its response is handed
    /// over (hyper asks for the first frame once the peer's window allows).
    pub(crate) struct Counted<B> {
        #[pin]
        body: B,
        guard: InFlightGuard,
        stream: Option<StreamGuard>,
    }
}

impl<B> Counted<B> {
    /// `body`, answering the request `guard` counts, whose HTTP/2 stream `stream` counts
    /// (`None` on HTTP/1.1).
    pub(crate) fn new(body: B, guard: InFlightGuard, mut stream: Option<StreamGuard>) -> Self {
        if let Some(stream) = &mut stream {
            stream.pause();
        }
        Self {
            body,
            guard,
            stream,
        }
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
        let Some(stream) = this.stream else {
            // HTTP/1.1: a one-piece answer's frame is its last (no pause); a stream's are not.
            let guard = this.guard;
            if guard.paused {
                guard.resume();
            }
            let polled = body.as_mut().poll_frame(cx);
            if let Poll::Ready(Some(Ok(_))) = &polled {
                if !body.is_end_stream() {
                    guard.pause();
                }
            }
            return polled;
        };
        stream.resume();
        let polled = body.as_mut().poll_frame(cx);
        match &polled {
            Poll::Pending => {}
            Poll::Ready(Some(Ok(_))) if !body.is_end_stream() => stream.pause(),
            Poll::Ready(_) => stream.end(),
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
