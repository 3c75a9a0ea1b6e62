//! TCP keep-alive on accepted connections ([`ServerOptions::tcp_keepalive`]): a peer that
//! vanished is found by the kernel, at no cost per request.
//!
//! [`ServerOptions::tcp_keepalive`]: super::ServerOptions::tcp_keepalive

use std::time::Duration;

use socket2::{SockRef, TcpKeepalive};
use tokio::net::TcpStream;

/// Between two probes, once the connection has been idle for its time.
const INTERVAL: Duration = Duration::from_secs(10);
/// Probes unanswered before the connection is dropped.
const RETRIES: u32 = 3;

/// Turns keep-alive on for `stream`: probed after `idle` without receiving anything, every
/// [`INTERVAL`], dropped after [`RETRIES`] unanswered; on Linux, also dropped when data sent
/// stays unacknowledged as long. A setting the system refuses is logged, and the connection
/// served without it.
pub(super) fn enable(stream: &TcpStream, idle: Duration) {
    let socket = SockRef::from(stream);
    let keepalive = TcpKeepalive::new().with_time(idle);
    #[cfg(any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "macos",
        target_os = "ios",
        target_os = "windows",
    ))]
    let keepalive = keepalive.with_interval(INTERVAL).with_retries(RETRIES);
    if let Err(error) = socket.set_tcp_keepalive(&keepalive) {
        tracing::debug!(%error, "TCP keep-alive not set");
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Err(error) = socket.set_tcp_user_timeout(Some(idle + INTERVAL * RETRIES)) {
        tracing::debug!(%error, "TCP_USER_TIMEOUT not set");
    }
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_accepted_connection_is_probed_after_its_idle_time() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap());
        let (accepted, _client) = tokio::join!(listener.accept(), client);
        let (stream, _) = accepted.unwrap();
        enable(&stream, Duration::from_secs(20));
        let socket = SockRef::from(&stream);
        assert!(socket.keepalive().unwrap());
        assert_eq!(
            socket.tcp_keepalive_time().unwrap(),
            Duration::from_secs(20)
        );
        assert_eq!(socket.tcp_keepalive_interval().unwrap(), INTERVAL);
        assert_eq!(socket.tcp_keepalive_retries().unwrap(), RETRIES);
        assert_eq!(
            socket.tcp_user_timeout().unwrap(),
            Some(Duration::from_secs(50))
        );
    }
}
