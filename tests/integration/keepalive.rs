//! Dead peers: TCP keep-alive on every connection the server accepts
//! (`ServerOptions::tcp_keepalive`), on the native server and on the warp adapter served by
//! `pactum_warp::serve`. Read from the kernel's own table of sockets (`/proc/net/tcp`): the
//! server's end of an idle connection has its keep-alive timer running.

#![cfg(target_os = "linux")]

use std::time::Duration;

use pactum::server::Server;
use pactum::ServerOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use warp::Filter;

use crate::support::options;

/// `/proc/net/tcp` counts its timers in clock ticks (`USER_HZ`).
const TICKS_PER_SECOND: u64 = 100;
/// The timer a socket with keep-alive on runs while it is idle (`/proc/net/tcp`'s `tr`).
const KEEPALIVE_TIMER: u8 = 2;

async fn serve(adapter: &str, options: ServerOptions) -> Server {
    let pipeline = pactum::Pipeline::new(crate::api::handlers()).expect("valid handlers");
    match adapter {
        "native" => pactum::serve(pipeline, options).await,
        _ => {
            let filter = pactum_warp::filter_with(pipeline).or(pactum_warp::not_found());
            pactum_warp::serve(filter, options)
                .await
                .map_err(pactum::server::ServeError::Bind)
        }
    }
    .expect("server starts")
}

/// A keep-alive connection that got one answer and is now idle.
async fn idle_connection(server: &Server) -> TcpStream {
    let mut stream = TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    stream
        .write_all(b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut answer = [0; 512];
    let n = stream.read(&mut answer).await.unwrap();
    assert!(answer[..n].starts_with(b"HTTP/1.1 200"), "answered");
    stream
}

/// The server's end of `client`'s connection in `/proc/net/tcp`: its timer and the time
/// left on it.
fn server_side_timer(client: &TcpStream) -> (u8, Duration) {
    let hex = |addr: std::net::SocketAddr| {
        let std::net::IpAddr::V4(ip) = addr.ip() else {
            panic!("IPv4 only here")
        };
        format!(
            "{:08X}:{:04X}",
            u32::from_le_bytes(ip.octets()),
            addr.port()
        )
    };
    let (server, local) = (
        hex(client.peer_addr().unwrap()),
        hex(client.local_addr().unwrap()),
    );
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let line = table
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|fields| {
            fields.get(1) == Some(&server.as_str()) && fields.get(2) == Some(&local.as_str())
        })
        .unwrap_or_else(|| panic!("the server's socket {server} -> {local} in:\n{table}"));
    let (timer, when) = line[5].split_once(':').expect("tr:tm->when");
    let ticks = u64::from_str_radix(when, 16).unwrap();
    (
        timer.parse().unwrap(),
        Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND),
    )
}

#[tokio::test]
async fn an_idle_connection_is_probed_by_tcp_keep_alive_after_20_s() {
    for adapter in ["native", "warp"] {
        let server = serve(adapter, options()).await;
        let client = idle_connection(&server).await;
        let (timer, left) = server_side_timer(&client);
        assert_eq!(timer, KEEPALIVE_TIMER, "{adapter}: keep-alive timer");
        assert!(
            left > Duration::from_secs(15) && left <= Duration::from_secs(20),
            "{adapter}: the first probe in {left:?}"
        );
        server.shutdown().await;
    }
}

#[tokio::test]
async fn the_idle_time_is_settable_and_keep_alive_can_be_left_off() {
    let server = serve("native", options().tcp_keepalive(Duration::from_secs(120))).await;
    let client = idle_connection(&server).await;
    let (timer, left) = server_side_timer(&client);
    assert_eq!(timer, KEEPALIVE_TIMER);
    assert!(
        left > Duration::from_secs(100),
        "the first probe in {left:?}"
    );
    server.shutdown().await;

    let server = serve("native", options().tcp_keepalive(None)).await;
    let client = idle_connection(&server).await;
    let (timer, _) = server_side_timer(&client);
    assert_eq!(timer, 0, "no timer on an idle socket without keep-alive");
    server.shutdown().await;
}
