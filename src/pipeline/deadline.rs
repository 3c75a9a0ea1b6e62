//! [`Deadline`]: the pipeline's request timeout, on tokio's timer (feature `server`).

use std::task::Context;
use std::time::Duration;

/// When a dispatched request is answered `503 Request timeout` instead.
#[cfg(feature = "server")]
pub(super) struct Deadline(std::pin::Pin<Box<tokio::time::Sleep>>);

/// Without the `server` feature there is no timer, and no request timeout to set.
#[cfg(not(feature = "server"))]
pub(super) enum Deadline {}

impl Deadline {
    /// A deadline `timeout` from now, if there is a timeout (only with feature `server`:
    /// without it, none can be set).
    pub(super) fn start(timeout: Option<Duration>) -> Option<Self> {
        #[cfg(feature = "server")]
        {
            timeout.map(|timeout| Self(Box::pin(tokio::time::sleep(timeout))))
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = timeout;
            None
        }
    }

    /// `true` once the deadline has passed (the task is woken then).
    pub(super) fn passed(&mut self, cx: &mut Context<'_>) -> bool {
        #[cfg(feature = "server")]
        {
            std::future::Future::poll(self.0.as_mut(), cx).is_ready()
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = cx;
            match *self {}
        }
    }
}
