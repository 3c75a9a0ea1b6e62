//! [`RequestRules`]: the HTTP rules a request head must keep that hyper does not check, kept
//! by the connection (so that every service the native server runs keeps them) before the
//! service is called:
//!
//! - HTTP/1.x: exactly one valid `Host` (RFC 9112 §3.2: "A server MUST respond with a 400
//!   (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field
//!   and to any request message that contains more than one Host header field line or a Host
//!   header field with an invalid field value"). HTTP/1.0 may leave it out.
//! - HTTP/2: at most `max_headers` header fields, as hyper's HTTP/1 parser counts them
//!   (hyper's HTTP/2 server bounds only their bytes).
//!
//! The `Host` check is on every HTTP/1 request's path, so it is written for the common case:
//! clients send `Host` first (curl, reqwest, browsers, wrk, as RFC 9110 §7.2 asks of user
//! agents), and hyper's map is walked in the request's order, without hashing. The value is checked
//! against the bytes RFC 3986 allows in `uri-host [ ":" port ]` — an alphabet check, not a
//! parse of the authority: it refuses what makes a `Host` ambiguous or smuggles something
//! else (whitespace, `/`, `?`, `#`, `@`, quotes, `\`, controls, non-ASCII). The same check
//! is proposed to hyper (`src/server/upstream/`).

use http::header::HOST;
use http::{HeaderMap, HeaderValue, Version};

use crate::error::Rejection;

/// The rules of one server: its header count limit (`ServerOptions::max_headers`), read from
/// the server's shutdown for each request (not kept in every connection's task).
#[derive(Debug, Clone, Copy)]
pub(super) struct RequestRules {
    /// Saturated to a `u32`.
    pub(super) max_headers: u32,
}

impl RequestRules {
    /// The rejection `headers`, received over `version`, break; `None` for a request to serve.
    #[inline]
    pub(super) fn refusal(self, version: Version, headers: &HeaderMap) -> Option<Rejection> {
        if version == Version::HTTP_2 {
            return (headers.len() > self.max_headers as usize).then_some(Rejection::HeadTooLarge);
        }
        (!host_rule_holds(version, headers)).then_some(Rejection::MalformedRequest)
    }
}

/// Whether an HTTP/1 request has exactly one valid `Host` (none at all is allowed before
/// HTTP/1.1).
///
/// A walk of the map in the request's order rather than a hashed lookup: `Host` comes first
/// from every common client, so the walk stops at once, and the map's values of one name are
/// yielded one after the other (a second `Host` line follows the first). The walk is inlined
/// whole: a pointer into the request handed to a function that is not (`HeaderMap::get_all`)
/// made the compiler copy the whole request (264 bytes) before passing it to the service.
#[inline]
fn host_rule_holds(version: Version, headers: &HeaderMap) -> bool {
    // No name given twice (as many values as names): a first `Host` is the only one.
    if headers.len() == headers.keys_len() {
        if let Some((name, value)) = headers.iter().next() {
            if *name == HOST {
                return is_valid_host(value);
            }
        }
    }
    let mut all = headers.iter();
    while let Some((name, value)) = all.next() {
        if *name == HOST {
            return all.next().is_none_or(|(next, _)| *next != HOST) && is_valid_host(value);
        }
    }
    version < Version::HTTP_11
}

/// Whether every byte of `value` may appear in `uri-host [ ":" port ]`.
#[inline]
fn is_valid_host(value: &HeaderValue) -> bool {
    // No early exit: the loop stays branch-free per byte (a `Host` is a few bytes long).
    value
        .as_bytes()
        .iter()
        .fold(0, |bad, byte| bad | NOT_IN_HOST[usize::from(*byte)])
        == 0
}

/// 1 for each byte outside a `Host` value's alphabet: RFC 3986's unreserved
/// (`A-Z a-z 0-9 - . _ ~`), sub-delims (`! $ & ' ( ) * + , ; =`), `%` (pct-encoded), `:`
/// (port, IPv6), `[` and `]` (IP-literal).
static NOT_IN_HOST: [u8; 256] = {
    let allowed =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=%:[]";
    let mut table = [1; 256];
    let mut i = 0;
    while i < allowed.len() {
        table[allowed[i] as usize] = 0;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> RequestRules {
        RequestRules { max_headers: 3 }
    }

    fn headers(lines: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in lines {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn one_valid_host_is_served_wherever_it_is() {
        for lines in [
            &[("host", "127.0.0.1:8080")][..],
            &[("host", "example.com"), ("accept", "*/*")],
            &[("accept", "*/*"), ("host", "[::1]:80")],
            &[
                ("user-agent", "x"),
                ("accept", "*/*"),
                ("host", "a-b.c_d~e%41"),
            ],
            &[("host", "a"), ("accept", "1"), ("accept", "2")],
            &[("accept", "1"), ("accept", "2"), ("host", "a")],
            &[("host", "")],
        ] {
            assert_eq!(
                rules().refusal(Version::HTTP_11, &headers(lines)),
                None,
                "{lines:?}"
            );
        }
    }

    #[test]
    fn a_missing_host_is_refused_on_http_1_1_only() {
        let none = headers(&[("accept", "*/*")]);
        assert_eq!(
            rules().refusal(Version::HTTP_11, &none),
            Some(Rejection::MalformedRequest)
        );
        assert_eq!(rules().refusal(Version::HTTP_10, &none), None);
        assert_eq!(rules().refusal(Version::HTTP_10, &HeaderMap::new()), None);
    }

    #[test]
    fn two_hosts_are_refused_first_or_not() {
        for lines in [
            &[("host", "a"), ("host", "a")][..],
            &[("host", "a"), ("host", "b"), ("accept", "*/*")],
            &[("accept", "*/*"), ("host", "a"), ("host", "b")],
            &[("host", "a"), ("accept", "*/*"), ("host", "a")],
        ] {
            for version in [Version::HTTP_10, Version::HTTP_11] {
                assert_eq!(
                    rules().refusal(version, &headers(lines)),
                    Some(Rejection::MalformedRequest),
                    "{lines:?} {version:?}"
                );
            }
        }
    }

    #[test]
    fn a_host_with_a_byte_outside_its_alphabet_is_refused() {
        for value in [
            "a b", "a\tb", "a/b", "a?b", "a#b", "user@a", "a\"", "a\\b", "a<b>", "a{b}", "a|b",
            "a^b", "a`b",
        ] {
            let first = headers(&[("host", value)]);
            let later = headers(&[("accept", "*/*"), ("host", value)]);
            for map in [first, later] {
                assert_eq!(
                    rules().refusal(Version::HTTP_11, &map),
                    Some(Rejection::MalformedRequest),
                    "{value:?}"
                );
            }
        }
        let non_ascii = HeaderValue::from_bytes("münchen.de".as_bytes()).unwrap();
        let mut map = HeaderMap::new();
        map.insert(HOST, non_ascii);
        assert_eq!(
            rules().refusal(Version::HTTP_11, &map),
            Some(Rejection::MalformedRequest)
        );
    }

    #[test]
    fn http_2_counts_header_fields_and_needs_no_host() {
        let three = headers(&[("a", "1"), ("b", "2"), ("b", "3")]);
        assert_eq!(rules().refusal(Version::HTTP_2, &three), None);
        let four = headers(&[("a", "1"), ("b", "2"), ("b", "3"), ("c", "4")]);
        assert_eq!(
            rules().refusal(Version::HTTP_2, &four),
            Some(Rejection::HeadTooLarge)
        );
        // HTTP/1's count is hyper's (431 from its parser): not counted twice.
        let many = headers(&[("host", "a"), ("b", "2"), ("b", "3"), ("c", "4")]);
        assert_eq!(rules().refusal(Version::HTTP_11, &many), None);
    }
}
