//! Turns a panic inside a handler or middleware into an error, so the server keeps serving.
//!
//! As tower-http's `CatchPanic` does, a panic is caught in two places: while the future is
//! built ([`CatchPanic::new`]: the synchronous part of the outermost middleware, which runs
//! when `Next::run` calls it) and while it is polled (everything else: inner middleware, the
//! handler, their synchronous parts included, since they run inside the outer future's poll).

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

/// The future `make` returns, polled with a panic caught as `Err(message)`; a panic in
/// `make` itself makes it ready with that error at once.
pub(crate) struct CatchPanic<F>(State<F>);

enum State<F> {
    Running(F),
    /// Building the future panicked: the message, until the first poll takes it.
    Panicked(Option<String>),
}

impl<F> CatchPanic<F> {
    /// Builds the future, catching a panic while doing so. Inlined: kept out of line, it
    /// costs its call and a copy of the future on every request.
    #[inline]
    pub(crate) fn new(make: impl FnOnce() -> F) -> Self {
        match catch_unwind(AssertUnwindSafe(make)) {
            Ok(future) => Self(State::Running(future)),
            Err(payload) => Self(State::Panicked(Some(panic_message(&*payload)))),
        }
    }
}

impl<F: Future + Unpin> Future for CatchPanic<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.0 {
            State::Running(inner) => {
                match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
                    Ok(poll) => poll.map(Ok),
                    Err(payload) => Poll::Ready(Err(panic_message(&*payload))),
                }
            }
            State::Panicked(message) => Poll::Ready(Err(message
                .take()
                .expect("`CatchPanic` polled after completion"))),
        }
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::{ready, Ready};
    use std::task::Waker;

    fn poll_once<F: Future + Unpin>(future: &mut F) -> Poll<F::Output> {
        Pin::new(future).poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_panic_while_building_the_future_is_ready_as_an_error() {
        let mut caught = CatchPanic::new(|| -> Ready<u8> { panic!("before the future") });
        assert_eq!(
            poll_once(&mut caught),
            Poll::Ready(Err("before the future".to_owned()))
        );
        let mut formatted =
            CatchPanic::new(|| -> Ready<u8> { panic!("{} {}", "with", "arguments") });
        assert_eq!(
            poll_once(&mut formatted),
            Poll::Ready(Err("with arguments".to_owned()))
        );
    }

    #[test]
    fn a_panic_while_polling_is_an_error_and_a_value_passes() {
        let mut fine = CatchPanic::new(|| ready(7));
        assert_eq!(poll_once(&mut fine), Poll::Ready(Ok(7)));
        let mut panicking = CatchPanic::new(|| {
            Box::pin(async {
                std::panic::panic_any(42_u32);
                #[allow(unreachable_code)]
                1
            })
        });
        assert_eq!(
            poll_once(&mut panicking),
            Poll::Ready(Err("non-string panic payload".to_owned()))
        );
    }
}
