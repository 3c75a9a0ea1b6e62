//! [`SharedTcp`]: a plain TCP connection's socket, kept in the connection's [`InFlight`],
//! which its IO (what hyper reads and writes) reads it through, and which peeks at it to
//! notice a client that leaves while its request is in flight
//! ([`InFlight::watch_client`]); [`Attach`]: how each kind of connection is given its
//! `InFlight`.
//!
//! hyper notices such a client by itself only by reading the connection mid-request (its
//! `half_close` off): that read reserves a new read buffer while the request's bytes still
//! share the old one — an 8 KiB allocation on every request with a body, and on glibc, before
//! a large body, the merge of the previous request's freed blocks (`benches/README.md`,
//! "Large bodies"). Served with hyper's `half_close` on, a plain TCP connection is watched
//! here instead: a one-byte peek, tried only while an answer waits (a handler not done, a
//! stream between two events), with no buffer. The socket is kept in the `InFlight` every
//! connection allocates anyway: no allocation of its own.

use std::io;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::TcpStream;

use super::in_flight::InFlight;

/// A connection's IO, as its HTTP/1 connection reads it: what
/// [`Connection::serve`](super::Connection) serves.
pub(crate) trait Attach: AsyncRead + AsyncWrite + Unpin + Send + 'static {
    /// The IO hyper's HTTP/1 connection reads and writes.
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;

    /// The IO of an HTTP/1 connection whose state is `requests` (nothing read from it yet
    /// but the bytes that told the protocol, which the wrappers above it replay).
    fn attach(self, requests: &Arc<InFlight>) -> Self::Io;
}

impl Attach for TcpStream {
    type Io = SharedTcp;

    fn attach(self, requests: &Arc<InFlight>) -> SharedTcp {
        requests.keep_socket(self);
        SharedTcp(Arc::clone(requests))
    }
}

// A Unix domain socket: hyper reads it mid-request itself (`half_close` off), to notice a
// client that leaves.
#[cfg(unix)]
impl Attach for tokio::net::UnixStream {
    type Io = Self;

    fn attach(self, _: &Arc<InFlight>) -> Self {
        self
    }
}

// TLS: as a Unix domain socket (a peek would see the client's `close_notify` as bytes,
// not as a close).
#[cfg(feature = "tls")]
impl<S: AsyncRead + AsyncWrite + Unpin + Send + 'static> Attach
    for tokio_rustls::server::TlsStream<S>
{
    type Io = Self;

    fn attach(self, _: &Arc<InFlight>) -> Self {
        self
    }
}

/// A plain TCP connection's socket, read and written through its [`InFlight`], which keeps
/// it (and peeks at it).
#[derive(Debug)]
pub(crate) struct SharedTcp(Arc<InFlight>);

impl SharedTcp {
    /// The socket: always there, as `attach` keeps it before it makes a `SharedTcp`.
    fn socket(&self) -> io::Result<&TcpStream> {
        self.0
            .socket()
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotConnected))
    }
}

impl AsyncRead for SharedTcp {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let socket = self.socket()?;
        loop {
            let wanted = buf.remaining();
            let mut read = false;
            // Read within `try_io`, so that a read that drained the socket (fewer bytes than
            // asked) clears the readiness the read started from, as tokio's own `poll_read`
            // does on epoll: the next read then waits for the socket rather than trying it
            // (an `EAGAIN` syscall saved on every request). Tried before the readiness is
            // polled (which costs more than a try that finds the socket not ready): an HTTP/1
            // connection reads twice per request, once with bytes.
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
                Ok(()) => return Poll::Ready(Ok(())),
                // Read, and the readiness cleared.
                Err(_) if read => return Poll::Ready(Ok(())),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    ready!(socket.poll_read_ready(cx))?;
                }
                Err(error) => return Poll::Ready(Err(error)),
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
        let socket = self.socket()?;
        poll_written(socket, cx, || socket.try_write(data))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let socket = self.socket()?;
        poll_written(socket, cx, || socket.try_write_vectored(data))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(socket2::SockRef::from(self.socket()?).shutdown(Shutdown::Write))
    }
}

/// What `write` wrote once `socket` took it: tried first, then waited for when the socket is
/// full.
fn poll_written(
    socket: &TcpStream,
    cx: &mut Context<'_>,
    mut write: impl FnMut() -> io::Result<usize>,
) -> Poll<io::Result<usize>> {
    loop {
        match write() {
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                ready!(socket.poll_write_ready(cx))?;
            }
            written => return Poll::Ready(written),
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    #[tokio::test]
    async fn reads_writes_and_shuts_down_through_the_connections_state() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let requests = Arc::new(InFlight::default());
        let mut io = server.attach(&requests);
        assert!(requests.socket().is_some(), "kept");
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
}
