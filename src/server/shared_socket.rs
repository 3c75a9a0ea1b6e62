//! [`SharedTcp`]: a plain TCP connection's socket, shared by its IO (what hyper reads and
//! writes) and the connection's state (`conn::InFlight`), which peeks at it to notice a
//! client that leaves while its request is in flight ([`client_gone`]).
//!
//! hyper notices such a client by itself only by reading the connection mid-request (its
//! `half_close` off): that read reserves a new read buffer while the request's bytes still
//! share the old one — an 8 KiB allocation on every request with a body, and on glibc, before
//! a large body, the merge of the previous request's freed blocks (`benches/README.md`,
//! "Large bodies"). Served with hyper's `half_close` on, a plain TCP connection is watched here
//! instead: a one-byte peek, tried only while the answer waits (a handler not done, a stream
//! between two events), with no buffer.

use std::io;
use std::mem::MaybeUninit;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::TcpStream;

/// A TCP connection's socket, read and written through a shared reference: the connection's
/// state (`conn::InFlight`) keeps the same socket to peek at.
#[derive(Debug)]
pub(crate) struct SharedTcp(Arc<TcpStream>);

impl SharedTcp {
    /// The socket as the connection's IO, and the same socket to watch.
    pub(crate) fn new(socket: TcpStream) -> (Self, Arc<TcpStream>) {
        let socket = Arc::new(socket);
        (Self(Arc::clone(&socket)), socket)
    }
}

impl AsyncRead for SharedTcp {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let socket = &*self.0;
        loop {
            let wanted = buf.remaining();
            let mut read = false;
            // Read within `try_io`, so that a read that drained the socket (fewer bytes than
            // asked) clears the readiness the read started from, as tokio's own `poll_read`
            // does on epoll: the next read then waits for the socket rather than trying it
            // (an `EAGAIN` syscall saved on every request).
            let tried = socket.try_io(Interest::READABLE, || {
                let n = socket.try_read_buf(buf)?;
                read = true;
                if n > 0 && n < wanted {
                    Err(io::ErrorKind::WouldBlock.into())
                } else {
                    Ok(())
                }
            });
            match tried {
                _ if read => return Poll::Ready(Ok(())),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    ready!(socket.poll_read_ready(cx))?;
                }
                Err(error) => return Poll::Ready(Err(error)),
                Ok(()) => unreachable!("a read without a count"),
            }
        }
    }
}

impl AsyncWrite for SharedTcp {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            match self.0.try_write(data) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    ready!(self.0.poll_write_ready(cx))?;
                }
                written => return Poll::Ready(written),
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        loop {
            match self.0.try_write_vectored(data) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    ready!(self.0.poll_write_ready(cx))?;
                }
                written => return Poll::Ready(written),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(socket2::SockRef::from(&*self.0).shutdown(Shutdown::Write))
    }
}

/// Whether the client closed (or reset) `socket` while a request of it is in flight: a
/// one-byte peek once the socket is readable, the task woken when it becomes so. Bytes waiting
/// are not a close: the request's body still coming, or the next request (pipelined), which
/// hyper reads in its turn — as hyper's own check does, nothing is noticed behind them.
pub(crate) fn client_gone(socket: &TcpStream, cx: &mut Context<'_>) -> bool {
    let mut byte = [MaybeUninit::uninit()];
    let mut peeked = ReadBuf::uninit(&mut byte);
    match socket.poll_peek(cx, &mut peeked) {
        Poll::Pending | Poll::Ready(Ok(1..)) => false,
        Poll::Ready(Ok(0) | Err(_)) => true,
    }
}

/// The error that ends a request whose client left (its connection closed without an
/// answer): the handler's future, or the streamed answer, is dropped, as hyper does when it
/// reads the close itself.
#[derive(Debug)]
pub(crate) struct ClientGone;

impl std::fmt::Display for ClientGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client closed the connection before its answer was sent")
    }
}

impl std::error::Error for ClientGone {}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    async fn pair() -> (SharedTcp, Arc<TcpStream>, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let (io, watched) = SharedTcp::new(server);
        (io, watched, client)
    }

    fn gone_now(socket: &TcpStream) -> bool {
        client_gone(socket, &mut Context::from_waker(std::task::Waker::noop()))
    }

    #[tokio::test]
    async fn reads_writes_and_shuts_down_through_the_shared_socket() {
        let (mut io, _watched, mut client) = pair().await;
        client.write_all(b"ping").await.unwrap();
        let mut read = [0; 4];
        io.read_exact(&mut read).await.unwrap();
        assert_eq!(&read, b"ping");
        io.write_all(b"pong").await.unwrap();
        io.shutdown().await.unwrap();
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        assert_eq!(answer, b"pong", "written, then the write side shut");
    }

    #[tokio::test]
    async fn a_close_is_noticed_and_bytes_waiting_are_not_one() {
        let (_io, watched, mut client) = pair().await;
        assert!(!gone_now(&watched), "nothing sent, still there");
        client.write_all(b"GET /next HTTP/1.1\r\n").await.unwrap();
        // Readable once the bytes arrive: then a peek sees them.
        let mut peek = [0; 1];
        watched.peek(&mut peek).await.unwrap();
        assert!(!gone_now(&watched), "bytes waiting are the next request");
        let (_io, watched, client) = pair().await;
        drop(client);
        watched.readable().await.unwrap();
        assert!(gone_now(&watched), "closed");
    }
}
