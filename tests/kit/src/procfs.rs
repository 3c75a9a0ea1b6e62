//! What Linux's `/proc` shows of this process's sockets and memory: how a test sees the other
//! side's progress where no in-process signal reaches.

use std::net::SocketAddr;

/// The IPv4 TCP sockets of this network namespace (Linux's `/proc/net/tcp`): local port,
/// remote port, state, and the bytes received that the socket's owner has not read yet.
fn tcp_sockets() -> Vec<(u16, u16, u8, u32)> {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("Linux's /proc/net/tcp");
    let port = |address: &str| {
        let (_, port) = address.split_once(':')?;
        u16::from_str_radix(port, 16).ok()
    };
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (_, unread) = fields.get(4)?.split_once(':')?;
            Some((
                port(fields.get(1)?)?,
                port(fields.get(2)?)?,
                u8::from_str_radix(fields.get(3)?, 16).ok()?,
                u32::from_str_radix(unread, 16).ok()?,
            ))
        })
        .collect()
}

/// Whether a socket listens on `addr`'s port (a server that stopped accepting has closed it).
pub fn listening(addr: SocketAddr) -> bool {
    const LISTEN: u8 = 0x0A;
    tcp_sockets()
        .iter()
        .any(|&(local, _, state, _)| state == LISTEN && local == addr.port())
}

/// Whether the server's end of the connection from `client` to `server` has read every byte
/// sent to it: the server accepted the connection and holds the request (even in another
/// process, which no in-process signal reaches).
pub fn read_by_server(server: SocketAddr, client: SocketAddr) -> bool {
    tcp_sockets().iter().any(|&(local, remote, _, unread)| {
        local == server.port() && remote == client.port() && unread == 0
    })
}

/// The resident memory of this process (servers and clients of the test both), in KiB.
pub fn rss_kib() -> u64 {
    vm_rss("/proc/self/status")
}

/// The resident memory of the process `pid` (a server in a process of its own, such as the
/// `conformance` binary), in KiB; 0 when it cannot be read.
pub fn rss_kib_of(pid: u32) -> u64 {
    vm_rss(&format!("/proc/{pid}/status"))
}

/// `VmRSS` of a `/proc/*/status` file, in KiB.
fn vm_rss(path: &str) -> u64 {
    let status = std::fs::read_to_string(path).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
