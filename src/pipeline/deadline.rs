//! [`Deadline`]: the pipeline's request timeout, on tokio's timer (feature `server`).
//!
//! The timer is set the first time the request waits (its middleware, body read or handler
//! returns `Pending`), for the whole timeout from then: a request answered without waiting
//! costs no timer, no allocation and no clock read. What ran before the first wait ran
//! without yielding, so no timer could have cut it anyway.

use std::task::Context;
use std::time::Duration;

/// When a dispatched request is answered `503 Request timeout` instead.
#[cfg(feature = "server")]
pub(super) struct Deadline {
    timeout: Duration,
    timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

/// Without the `server` feature there is no timer, and no request timeout to set.
#[cfg(not(feature = "server"))]
pub(super) enum Deadline {}

impl Deadline {
    /// The deadline of a request, if there is a timeout (only with feature `server`: without
    /// it, none can be set). Its timer starts at the request's first wait.
    pub(super) fn start(timeout: Option<Duration>) -> Option<Self> {
        #[cfg(feature = "server")]
        {
            timeout.map(|timeout| Self {
                timeout,
                timer: None,
            })
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = timeout;
            None
        }
    }

    /// Called when the request waits: `true` once the deadline has passed (the task is woken
    /// then).
    pub(super) fn passed(&mut self, cx: &mut Context<'_>) -> bool {
        #[cfg(feature = "server")]
        {
            let timeout = self.timeout;
            let timer = self
                .timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
            std::future::Future::poll(timer.as_mut(), cx).is_ready()
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = cx;
            match *self {}
        }
    }
}
