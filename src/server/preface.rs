//! A deadline for a connection's first bytes.
//!
//! hyper-util's protocol detection reads the first bytes of a connection to tell HTTP/1 from
//! HTTP/2 before hyper serves it, and hyper's header read timer only starts after that: a
//! client that connects and sends nothing, or a few bytes of the HTTP/2 preface, would hold the
//! connection forever. [`FirstBytesDeadline`] fails the read once the deadline passes, until
//! the bytes received tell the protocol apart.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// The HTTP/2 connection preface: while the bytes received match it, the protocol is unknown.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Wraps a connection so that reads fail with `TimedOut` if the protocol is not known by the
/// deadline: the first byte that differs from the HTTP/2 preface (HTTP/1, whose head hyper
/// then times itself) or the whole preface (HTTP/2) disarms it.
pub(crate) struct FirstBytesDeadline<I> {
    inner: I,
    deadline: Option<Pin<Box<Sleep>>>,
    matched: usize,
}

impl<I> FirstBytesDeadline<I> {
    pub(crate) fn new(inner: I, timeout: Option<Duration>) -> Self {
        Self {
            inner,
            deadline: timeout.map(|t| Box::pin(tokio::time::sleep(t))),
            matched: 0,
        }
    }

    fn observe(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if H2_PREFACE.get(self.matched) != Some(&byte) {
                self.deadline = None;
                return;
            }
            self.matched += 1;
            if self.matched == H2_PREFACE.len() {
                self.deadline = None;
                return;
            }
        }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for FirstBytesDeadline<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if this.deadline.is_some() {
                    let received = buf.filled()[before..].to_vec();
                    this.observe(&received);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let expired = this
                    .deadline
                    .as_mut()
                    .is_some_and(|deadline| deadline.as_mut().poll(cx).is_ready());
                if expired {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "no request head before the header read timeout",
                    )));
                }
                Poll::Pending
            }
        }
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for FirstBytesDeadline<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn http1_bytes_disarm_at_the_first_difference() {
        let mut d = FirstBytesDeadline::new((), None);
        d.deadline = Some(Box::pin(tokio::time::sleep(Duration::ZERO)));
        d.observe(b"PR");
        assert!(d.deadline.is_some(), "still looks like HTTP/2");
        d.observe(b"X");
        assert!(d.deadline.is_none(), "not HTTP/2: hyper times the head");
    }

    #[tokio::test]
    async fn the_whole_preface_disarms() {
        let mut d = FirstBytesDeadline::new((), Some(Duration::from_secs(1)));
        d.observe(&H2_PREFACE[..10]);
        assert!(d.deadline.is_some());
        d.observe(&H2_PREFACE[10..]);
        assert!(d.deadline.is_none());
    }
}
