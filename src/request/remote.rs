//! The client's address: the connection's peer, and, behind a trusted proxy, the address the
//! proxy forwarded (`Forwarded`, `X-Forwarded-For`).

use std::net::{IpAddr, SocketAddr};

use http::header::FORWARDED;
use http::{Extensions, HeaderMap, HeaderName};

pub use ipnet::IpNet;

/// The address of the connection's peer, as a request extension.
///
/// pactum's own server hands the peer to its pipeline directly; it inserts this extension
/// only for a service that is not pactum's ([`serve_service`](crate::server::serve_service), e.g. a
/// warp filter under `pactum_warp::serve`). Another server can insert it so that
/// [`Ctx::peer_addr`](crate::Ctx::peer_addr) finds the address.
///
/// ```
/// use pactum::pipeline::PeerAddr;
/// let mut request = http::Request::new(pactum::pipeline::Body::empty());
/// request.extensions_mut().insert(PeerAddr("192.0.2.7:40000".parse().unwrap()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PeerAddr(pub SocketAddr);

/// Where a request came from, as the pipeline knows it when it routes the request: a field,
/// so that a request whose handler never asks pays nothing.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Remote {
    /// The connection's peer, when the adapter handed it over (else [`PeerAddr`] is looked
    /// up in the extensions, on demand).
    pub(crate) peer: Option<SocketAddr>,
    /// The request's serial number ([`Remote::serial`]) in the low 63 bits, and whether it is
    /// [`trusted`](Remote::trusted) in the top one: one word, so that the request (moved a few
    /// times on its way to the handler) does not grow. Serials are handed out from 1 and never
    /// reach 2^63.
    serial_and_trust: u64,
}

/// The client's address as a trusted proxy forwarded it: an extension, inserted only where
/// proxies are trusted (a request elsewhere carries no room for it).
#[derive(Debug, Clone, Copy)]
struct ForwardedClient(IpAddr);

impl Remote {
    const TRUSTED: u64 = 1 << 63;

    /// The remote of a request made by hand, outside a pipeline: no peer, serial 0, its
    /// headers believed.
    pub(crate) const HAND_MADE: Self = Self::new(None, true);

    /// A request from `peer` with serial 0, believed when `trusted`.
    pub(crate) const fn new(peer: Option<SocketAddr>, trusted: bool) -> Self {
        Self {
            peer,
            serial_and_trust: if trusted { Self::TRUSTED } else { 0 },
        }
    }

    /// The request's serial number, its generated id when it brings none
    /// ([`Request::request_id`](crate::middleware::Request::request_id)); 0 outside a pipeline.
    pub(crate) fn serial(&self) -> u64 {
        self.serial_and_trust & !Self::TRUSTED
    }

    /// Sets the request's serial number.
    pub(crate) fn set_serial(&mut self, serial: u64) {
        self.serial_and_trust = (self.serial_and_trust & Self::TRUSTED) | (serial & !Self::TRUSTED);
    }

    /// Whether the request's word about itself is believed — its `x-request-id` kept: its
    /// peer is a trusted proxy, or it was made by hand ([`Ctx::new`](crate::Ctx::new)).
    pub(crate) fn trusted(&self) -> bool {
        self.serial_and_trust & Self::TRUSTED != 0
    }

    /// The peer: handed over, else the [`PeerAddr`] extension.
    pub(crate) fn peer(&self, extensions: &Extensions) -> Option<SocketAddr> {
        self.peer
            .or_else(|| extensions.get::<PeerAddr>().map(|PeerAddr(addr)| *addr))
    }

    /// The client: forwarded by a trusted proxy, else the peer's address.
    pub(crate) fn client_ip(&self, extensions: &Extensions) -> Option<IpAddr> {
        extensions
            .get::<ForwardedClient>()
            .map(|ForwardedClient(ip)| *ip)
            .or_else(|| self.peer(extensions).map(|addr| addr.ip()))
    }
}

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The proxies whose `Forwarded` / `X-Forwarded-For` headers are believed
/// ([`PipelineBuilder::trusted_proxies`](crate::pipeline::PipelineBuilder::trusted_proxies)).
#[derive(Debug, Clone)]
pub(crate) struct TrustedProxies(pub(crate) Vec<IpNet>);

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Where the request came from, when the peer is a trusted proxy: the hops the proxies
    /// recorded (`Forwarded`'s `for=`, else `X-Forwarded-For`), read from the right, up to
    /// the first that is not a trusted proxy — the address the last trusted proxy saw. A hop
    /// that does not parse (`unknown`, an obfuscated name) stops the walk at the proxy that
    /// wrote it. Nothing when the peer is not trusted: its headers are not read.
    pub(crate) fn resolve(
        &self,
        peer: Option<SocketAddr>,
        head: &mut http::request::Parts,
    ) -> Remote {
        let headers = &head.headers;
        let trusted = peer.is_some_and(|peer| self.trusts(peer.ip()));
        let forwarded = peer.filter(|_| trusted).and_then(|peer| {
            let peer = peer.ip();
            let hops = hops(headers);
            let mut client = peer;
            for hop in hops.iter().rev() {
                let Some(ip) = parse_hop(hop) else { break };
                client = ip;
                if !self.trusts(ip) {
                    break;
                }
            }
            (client != peer).then_some(client)
        });
        if let Some(client) = forwarded {
            head.extensions.insert(ForwardedClient(client));
        }
        Remote::new(peer, trusted)
    }
}

/// The recorded hops, leftmost (the original client) first: `Forwarded`'s `for=` values when
/// the header is present, else `X-Forwarded-For`'s entries.
fn hops(headers: &HeaderMap) -> Vec<&str> {
    let mut hops = Vec::new();
    if headers.contains_key(FORWARDED) {
        for value in headers.get_all(FORWARDED).iter() {
            let Ok(value) = value.to_str() else {
                return Vec::new();
            };
            for element in value.split(',') {
                let hop = element.split(';').find_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    key.trim().eq_ignore_ascii_case("for").then(|| value.trim())
                });
                // An element without `for=` is a hop we cannot read.
                hops.push(hop.unwrap_or(""));
            }
        }
    } else {
        for value in headers.get_all(X_FORWARDED_FOR).iter() {
            let Ok(value) = value.to_str() else {
                return Vec::new();
            };
            hops.extend(value.split(',').map(str::trim));
        }
    }
    hops
}

/// An address as a proxy wrote it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]:4711`, quoted or not.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim().trim_matches('"');
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = hop.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    let v6 = hop.strip_prefix('[')?.split(']').next()?;
    v6.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn proxies() -> TrustedProxies {
        TrustedProxies(vec![
            "10.0.0.0/8".parse().unwrap(),
            "::1/128".parse().unwrap(),
        ])
    }

    fn client(peer: &str, name: &'static str, value: &'static str) -> Option<IpAddr> {
        let mut headers = HeaderMap::new();
        headers.append(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
        let (mut head, ()) = http::Request::new(()).into_parts();
        head.headers = headers;
        let remote = proxies().resolve(Some(peer.parse().unwrap()), &mut head);
        remote.client_ip(&head.extensions)
    }

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_proxy() {
        let xff = "x-forwarded-for";
        assert_eq!(client("192.0.2.9:1", xff, "203.0.113.5"), ip("192.0.2.9"));
        assert_eq!(client("10.1.2.3:1", xff, "203.0.113.5"), ip("203.0.113.5"));
        // The rightmost untrusted hop: what the client wrote itself is not believed.
        assert_eq!(
            client("10.1.2.3:1", xff, "1.1.1.1, 203.0.113.5, 10.9.9.9"),
            ip("203.0.113.5")
        );
        // Every hop trusted: the leftmost.
        assert_eq!(client("10.1.2.3:1", xff, "10.0.0.1"), ip("10.0.0.1"));
        // An unreadable hop stops at the proxy that wrote it.
        assert_eq!(client("10.1.2.3:1", xff, "1.1.1.1, junk"), ip("10.1.2.3"));
        assert_eq!(
            client("[::1]:1", xff, "[2001:db8::1]:80"),
            ip("2001:db8::1")
        );
    }

    #[test]
    fn forwarded_header_wins_and_is_parsed() {
        let value = r#"for=192.0.2.60;proto=http, for="[2001:db8::2]:4711";by=10.0.0.1"#;
        assert_eq!(client("10.1.2.3:1", "forwarded", value), ip("2001:db8::2"));
        assert_eq!(
            client("10.1.2.3:1", "forwarded", "for=unknown"),
            ip("10.1.2.3")
        );
    }

    #[test]
    fn without_headers_the_peer() {
        let (mut head, ()) = http::Request::new(()).into_parts();
        let remote = proxies().resolve(Some("10.0.0.1:9".parse().unwrap()), &mut head);
        assert_eq!(remote.client_ip(&head.extensions), ip("10.0.0.1"));
        let mut ext = Extensions::new();
        ext.insert(PeerAddr("192.0.2.1:5".parse().unwrap()));
        assert_eq!(Remote::default().client_ip(&ext), ip("192.0.2.1"));
    }

    #[test]
    fn a_trusted_peer_is_believed_and_no_other() {
        let (mut head, ()) = http::Request::new(()).into_parts();
        assert!(proxies().resolve(Some("10.0.0.1:9".parse().unwrap()), &mut head).trusted());
        assert!(!proxies().resolve(Some("192.0.2.1:9".parse().unwrap()), &mut head).trusted());
        assert!(!proxies().resolve(None, &mut head).trusted());
    }
}
