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

/// Counts one request in flight until dropped (with its response body, once sent).
#[derive(Debug)]
pub(crate) struct InFlightGuard(Arc<InFlight>);

impl InFlightGuard {
    pub(crate) fn new(requests: &Arc<InFlight>) -> Self {
        requests.0.fetch_add(STARTED + 1, Ordering::Relaxed);
        Self(Arc::clone(requests))
    }

    /// What tells a streamed answer of this connection that the server shuts down.
    pub(crate) fn drain_signal(&self) -> Box<dyn DrainSignal> {
        Box::new(UntilDrainSignal(Mutex::new(Box::pin(UntilDrain::new(
            &self.0 .1,
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
        self.0 .0.fetch_sub(1, Ordering::Relaxed);
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its request counted in flight until it is dropped; on
    /// HTTP/2, with its stream counted as worked on until its last frame is produced
    /// ([`StreamGuard`]: the idle timeout's count).
    pub(crate) struct Counted<B> {
        #[pin]
        body: B,
        _guard: InFlightGuard,
        stream: Option<StreamGuard>,
    }
}

impl<B> Counted<B> {
    /// `body`, answering the request `guard` counts, whose HTTP/2 stream `stream` counts
    /// (`None` on HTTP/1.1).
    pub(crate) fn new(body: B, guard: InFlightGuard, stream: Option<StreamGuard>) -> Self {
        Self {
            body,
            _guard: guard,
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
        let polled = body.as_mut().poll_frame(cx);
        if let Some(stream) = this.stream {
            let ended = match &polled {
                Poll::Pending => false,
                Poll::Ready(Some(Ok(_))) => body.is_end_stream(),
                Poll::Ready(None | Some(Err(_))) => true,
            };
            if ended {
                stream.end();
            }
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
