//! Graceful shutdown of the native server's connections, paid per connection, not per poll.
//!
//! hyper-util's `GracefulShutdown` polls a cancellation future every time a connection's task
//! runs (each request), and a force-close signal was a second one. Here a connection registers
//! its task once ([`Drain`]), then reads one atomic per poll: the shutdown's state only
//! changes twice (draining, forced), and each change wakes every connection.
//!
//! An HTTP/2 connection idle for its timeout is shut down gracefully here too (one more
//! atomic load per poll): its [`HeadDeadline`](super::head_deadline::HeadDeadline) says so
//! through its [`Streams`].

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::server::graceful::GracefulConnection;
use tokio::sync::futures::OwnedNotified;
use tokio::sync::Notify;

use super::idle::Streams;

const RUNNING: u8 = 0;
/// Connections finish what they are doing and close.
const DRAINING: u8 = 1;
/// The deadline passed: connections close now.
const FORCED: u8 = 2;

/// The shutdown state shared by the accept loop and every connection.
#[derive(Debug, Default)]
pub(crate) struct Shutdown {
    state: AtomicU8,
    changed: Arc<Notify>,
    open: AtomicUsize,
    closed: Notify,
}

impl Shutdown {
    /// Serves `connection` until it ends, or until the shutdown drains (a graceful close) or
    /// forces (dropped). `streams` says when an HTTP/2 connection is idle (a graceful close).
    pub(crate) fn watch<C: GracefulConnection>(
        self: &Arc<Self>,
        connection: C,
        streams: Arc<Streams>,
    ) -> Drain<C> {
        self.open.fetch_add(1, Ordering::Relaxed);
        Drain {
            connection,
            streams,
            notified: Arc::clone(&self.changed).notified_owned(),
            registered: false,
            seen: RUNNING,
            _open: Open(Arc::clone(self)),
        }
    }

    /// Drains every connection: `true` when all closed within `deadline`, else they are
    /// closed at once and `false`.
    pub(crate) async fn drain(&self, deadline: Duration) -> bool {
        self.set(DRAINING);
        let all_closed = async {
            loop {
                let closed = self.closed.notified();
                tokio::pin!(closed);
                closed.as_mut().enable();
                if self.open.load(Ordering::Acquire) == 0 {
                    return;
                }
                closed.await;
            }
        };
        let finished = tokio::time::timeout(deadline, all_closed).await.is_ok();
        if !finished {
            self.set(FORCED);
        }
        finished
    }

    fn set(&self, state: u8) {
        self.state.store(state, Ordering::Release);
        self.changed.notify_waiters();
    }
}

/// Counts a connection open until dropped.
#[derive(Debug)]
struct Open(Arc<Shutdown>);

impl Drop for Open {
    fn drop(&mut self) {
        if self.0.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.closed.notify_waiters();
        }
    }
}

pin_project_lite::pin_project! {
    /// A connection served until it ends or the shutdown closes it.
    pub(crate) struct Drain<C> {
        #[pin]
        connection: C,
        streams: Arc<Streams>,
        #[pin]
        notified: OwnedNotified,
        registered: bool,
        seen: u8,
        _open: Open,
    }
}

impl<C: GracefulConnection> Future for Drain<C> {
    type Output = Result<(), C::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        if !*this.registered {
            // The task is woken at the next change; the state is read below, after this
            // registration, so a change made before it is not missed either.
            let _ = this.notified.as_mut().poll(cx);
            *this.registered = true;
        }
        let state = this._open.0.state.load(Ordering::Acquire);
        if state != *this.seen {
            *this.seen = state;
            if state == FORCED {
                return Poll::Ready(Ok(()));
            }
            this.connection.as_mut().graceful_shutdown();
            // Registered again, for the next change.
            this.notified
                .set(Arc::clone(&this._open.0.changed).notified_owned());
            let _ = this.notified.as_mut().poll(cx);
        }
        let polled = this.connection.as_mut().poll(cx);
        if polled.is_pending() && this.streams.take_idle() {
            this.connection.as_mut().graceful_shutdown();
            return this.connection.poll(cx);
        }
        polled
    }
}
