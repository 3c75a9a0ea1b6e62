//! [`HyperErrors`]: hyper's own answers to HTTP/1.1 heads it cannot read, given the JSON
//! error body.
//!
//! hyper answers a request head it cannot parse (400: request line, header bytes,
//! `Content-Length`, `Transfer-Encoding`), one over its size or header-count limit (431), or
//! one whose target is too long (414) by itself, before any service sees a request
//! (`hyper::proto::h1::Conn::on_parse_error`, `role::Server::on_error`): a bare head,
//! `connection: close`, `content-length: 0`, `date`, no content type, and then it closes the
//! connection. This wrapper of the connection's IO writes in its place the same status line
//! with the error body of every other answer — through the pipeline's error formatter when
//! the server knows the pipeline ([`serve`](crate::serve)), else the built-in `{"error": ..}`
//! ([`serve_service`](crate::server::serve_service)) — with `content-length` and `connection: close`
//! (and hyper's `date`).
//!
//! How hyper's own answer is told apart: hyper writes an answer only for a request the service
//! got, except for its own. The service counts requests ([`InFlight`]), and hyper flushes the
//! IO only once its buffer is empty: at a flush with no request in flight, every answer so far
//! has been written whole. A write after such a flush, with no request started since, is
//! hyper's own answer. The normal path pays a comparison per write (and an atomic load for the
//! first write of each answer) and an atomic load per flush.
//!
//! HTTP/2 passes through: its first write is a SETTINGS frame, not `HTTP/1.`. (The native
//! server takes this wrapper off an HTTP/2 connection once its preface is read.)

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use bytes::{Buf, Bytes};
use http::header::{CONNECTION, CONTENT_LENGTH, DATE, TRANSFER_ENCODING};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::in_flight::InFlight;
use crate::error::{Error, HttpError, Rejection};
use crate::server::error_answers::ErrorAnswers;

/// The most of hyper's own answer kept while it is replaced (its heads are ~100 bytes).
const MAX_HEAD: usize = 4096;

#[derive(Debug)]
enum State {
    /// HTTP/1.1 (or nothing written yet); `settled`: the [`InFlight`] snapshot at the last
    /// flush with no request in flight, until a request starts or a write passes.
    Answers { settled: Option<u64> },
    /// hyper's own answer, as written so far.
    Collecting(Vec<u8>),
    /// What is written in its place, still to send.
    Replacing(Bytes),
    /// HTTP/2, or hyper's answer sent: everything passes through.
    Through,
}

/// Wraps a connection's IO so that hyper's own HTTP/1.1 error answers carry the error body.
#[derive(Debug)]
pub(crate) struct HyperErrors<I> {
    inner: I,
    /// With the server's shutdown, which holds how the answers are formatted.
    requests: Arc<InFlight>,
    state: State,
}

impl<I> HyperErrors<I> {
    pub(crate) fn new(inner: I, requests: Arc<InFlight>) -> Self {
        Self {
            inner,
            requests,
            // Nothing written, no request yet: a write now is hyper's own answer.
            state: State::Answers { settled: Some(0) },
        }
    }

    /// The same, around the IO `map` makes of this one's (before anything is written).
    pub(crate) fn map_inner<J>(self, map: impl FnOnce(I) -> J) -> HyperErrors<J> {
        HyperErrors {
            inner: map(self.inner),
            requests: self.requests,
            state: self.state,
        }
    }

    /// The connection's IO, unwrapped (HTTP/2, before anything is written).
    #[cfg(feature = "http2")]
    pub(crate) fn into_inner(self) -> I {
        self.inner
    }
}

/// Whether `buf` starts as hyper writes its own answer (`role::Server::on_error`, encoded
/// with no body): a 4xx status line, then `connection: close` and `content-length: 0`.
fn is_hyper_answer(buf: &[u8]) -> bool {
    if !buf.starts_with(b"HTTP/1.1 4") {
        return false;
    }
    let Some(line_end) = buf.windows(2).position(|w| w == b"\r\n") else {
        return false;
    };
    buf[line_end + 2..].starts_with(b"connection: close\r\ncontent-length: 0\r\n")
}

impl<I: AsyncWrite + Unpin> HyperErrors<I> {
    /// Whether a write of `buf` goes straight to the connection (the normal path: one
    /// comparison, and an atomic load for the first write of an answer).
    fn passes(&mut self, buf: &[u8]) -> bool {
        match self.state {
            State::Answers { settled: None } | State::Through => true,
            State::Answers { settled: Some(at) } => {
                if at != self.requests.snapshot() {
                    // A request started since: its answer.
                    self.state = State::Answers { settled: None };
                    return true;
                }
                if !buf.starts_with(b"HTTP/1.") {
                    // HTTP/2's first frame.
                    self.state = State::Through;
                    return true;
                }
                if is_hyper_answer(buf) {
                    self.state = State::Collecting(Vec::new());
                    return false;
                }
                // Not as hyper writes its answers: let it be.
                tracing::debug!("unexpected write between requests, passed on");
                self.state = State::Answers { settled: None };
                true
            }
            State::Collecting(_) | State::Replacing(_) => false,
        }
    }

    /// Takes `buf` as part of hyper's own answer (or, once it is replaced, passes it on).
    fn take(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if let State::Collecting(head) = &mut self.state {
            head.extend_from_slice(buf);
            if head.windows(4).any(|w| w == b"\r\n\r\n") || head.len() > MAX_HEAD {
                let head = std::mem::take(head);
                let answers = self.requests.shutdown().answers();
                let answer = replacement(&head, answers).unwrap_or(head);
                self.state = State::Replacing(Bytes::from(answer));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    /// Sends what is to be written in place of hyper's answer, then lets everything through.
    /// Inlined: on the usual path (nothing to replace) a comparison.
    #[inline]
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if matches!(self.state, State::Collecting(_) | State::Replacing(_)) {
            return self.replace(cx);
        }
        Poll::Ready(Ok(()))
    }

    #[cold]
    fn replace(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let State::Collecting(head) = &mut self.state {
            // Flushed before its end: sent as hyper wrote it.
            self.state = State::Replacing(Bytes::from(std::mem::take(head)));
        }
        while let State::Replacing(rest) = &mut self.state {
            if rest.is_empty() {
                self.state = State::Through;
                break;
            }
            let written = ready!(Pin::new(&mut self.inner).poll_write(cx, rest))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            rest.advance(written);
        }
        Poll::Ready(Ok(()))
    }
}

/// The answer written in place of hyper's `head`: its status line, the error body of its
/// status, hyper's `date`. `None` for a status hyper does not answer by itself.
fn replacement(head: &[u8], answers: &ErrorAnswers) -> Option<Vec<u8>> {
    let line_end = head.windows(2).position(|w| w == b"\r\n")?;
    let status_line = &head[..line_end];
    let rejection = match status_line.get(9..12)? {
        b"400" => Rejection::MalformedRequest,
        b"414" => Rejection::UriTooLong,
        b"431" => Rejection::HeadTooLarge,
        _ => return None,
    };
    let response = answers.response(&Error::from(HttpError::from(rejection)));
    // An error formatter's streamed body (unlikely) is not sent: this answer is written whole.
    let body: &[u8] = response.body().as_bytes().map_or(&[], |bytes| bytes);
    let mut out = Vec::with_capacity(head.len() + 128 + body.len());
    out.extend_from_slice(status_line);
    out.extend_from_slice(b"\r\n");
    for (name, value) in response.headers() {
        if [&CONTENT_LENGTH, &TRANSFER_ENCODING, &CONNECTION, &DATE].contains(&name) {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    for line in head[line_end + 2..].split(|&b| b == b'\n') {
        if line.len() > 5 && line[..5].eq_ignore_ascii_case(b"date:") {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    out.extend_from_slice(b"connection: close\r\n\r\n");
    out.extend_from_slice(body);
    Some(out)
}

impl<I: AsyncRead + Unpin> AsyncRead for HyperErrors<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for HyperErrors<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.passes(buf) {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        }
        this.take(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &**b);
        if this.passes(first) {
            return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        }
        this.take(cx, first)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    /// Once the connection is flushed with no request in flight, every answer so far has been
    /// written: a write before the next request is hyper's own answer.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        let flushed = ready!(Pin::new(&mut this.inner).poll_flush(cx));
        if let (State::Answers { settled }, Ok(())) = (&mut this.state, &flushed) {
            let now = this.requests.snapshot();
            *settled = InFlight::none_at(now).then_some(now);
        }
        Poll::Ready(flushed)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;

    const BARE_431: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Mon, 23 Nov 2026 10:34:56 GMT\r\n\r\n";

    #[test]
    fn the_status_line_and_date_are_kept_and_the_body_added() {
        let answer = replacement(BARE_431, &ErrorAnswers::default()).expect("a 431");
        let text = String::from_utf8(answer).expect("text");
        let body = r#"{"error":"Request header fields too large"}"#;
        assert_eq!(
            text,
            format!(
                "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
                 date: Mon, 23 Nov 2026 10:34:56 GMT\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            )
        );
    }

    #[test]
    fn a_panicking_formatter_gives_the_built_in_body() {
        let pipeline = Pipeline::builder(Vec::new())
            .error_formatter(|_| -> crate::pipeline::Response { panic!("formatter") })
            .build()
            .expect("empty pipeline");
        let answer = replacement(BARE_431, &ErrorAnswers::of(&pipeline)).expect("a 431");
        let text = String::from_utf8(answer).expect("text");
        assert!(text.starts_with("HTTP/1.1 431 "), "{text}");
        assert!(
            text.ends_with(r#"{"error":"Request header fields too large"}"#),
            "{text}"
        );
    }

    #[test]
    fn other_statuses_are_left_alone() {
        let head = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement(head, &ErrorAnswers::default()).is_none());
        assert!(replacement(b"HTTP/1.1", &ErrorAnswers::default()).is_none());
    }
}
