//! The HTTP/2 idle timeout: which streams of a connection the server is working on
//! ([`Streams`]), told by the service to the connection's
//! [`HeadDeadline`](super::head_deadline::HeadDeadline), which times the connection while
//! none is, on its one timer.
//!
//! An HTTP/2 connection with no stream the server is working on for the idle timeout is shut
//! down gracefully (GOAWAY, [`Drain`](crate::server::shutdown::Drain) calls hyper's
//! `graceful_shutdown`); if it has not closed one idle timeout later (a client that does not
//! answer the GOAWAY's PING, or holds streams open), its socket is closed.
//!
//! A stream stops counting as soon as its response body has been produced: what is left is
//! the client's to read. It also stops counting while its body waits to be asked for its next
//! frame (hyper asks once the peer's flow-control window allows, see
//! [`Counted`](super::in_flight::Counted)): that is the peer's time. Each time such a stream
//! is asked again is progress, which restarts the timeout. So a client that never opens its
//! window ("zero-window"), or stops reading a stream, has its connection shut down like an
//! idle one: the stream's send deadline is the idle timeout.
//!
//! Each HTTP/2 stream runs on its own task, so the one that ends the last stream in flight
//! wakes the connection's task, which then starts the idle timer. No timer per stream; on
//! HTTP/1.1 none of this runs (a version comparison per request, a branch per body frame).

use std::sync::Arc;
use std::task::Context;
use std::time::Duration;

use tokio::time::Instant;

use crate::server::streams::Streams;

/// An HTTP/2 connection's idle timeout, and its streams.
#[derive(Debug)]
pub(crate) struct Http2Idle {
    /// How long the connection may have no stream worked on; then as long again to close
    /// after its GOAWAY.
    pub(crate) timeout: Duration,
    /// The streams the service counts.
    pub(crate) streams: Arc<Streams>,
    /// The streams' progress when the deadline was last set.
    pub(crate) progress: usize,
}

impl Http2Idle {
    /// The connection's deadline: none while a stream is being worked on (the caller's task
    /// is then woken when the last one ends), else `current` if no stream progressed since it
    /// was set, or the idle timeout from now. Inlined, as [`Streams::busy_or_wake`].
    #[inline]
    pub(crate) fn deadline(
        &mut self,
        cx: &Context<'_>,
        current: Option<Instant>,
    ) -> Option<Instant> {
        if self.streams.busy_or_wake(cx) {
            return None;
        }
        let progress = self.streams.progress();
        match current {
            Some(deadline) if progress == self.progress => Some(deadline),
            _ => {
                self.progress = progress;
                Some(Instant::now() + self.timeout)
            }
        }
    }

    /// Idle for the timeout: the graceful shutdown is due ([`Streams::take_idle`]). Returns
    /// when to close the connection if it is still open.
    pub(crate) fn shut_down(&self) -> Instant {
        self.streams.set_idle();
        Instant::now() + self.timeout
    }
}
