//! The full URL of a request, rebuilt from its URI, `Host` header and scheme — on first use
//! only ([`LazyUrl`]): a request whose handler never reads it pays nothing.

use std::sync::OnceLock;

use http::header::HOST;
use http::uri::Scheme;
use http::{Extensions, HeaderMap, Uri};
use url::Url;

/// Where a request's URL is kept once made: boxed, so that the requests and contexts that
/// carry the cell (and are moved from future to future) stay small.
pub(crate) type UrlCell = OnceLock<Box<Url>>;

/// A request's target, and its full URL once it is asked for (made then from the target,
/// the `Host` header and the [`Scheme`] extension an adapter inserted: HTTPS servers do).
#[derive(Debug)]
pub(crate) struct LazyUrl {
    uri: Uri,
    url: UrlCell,
}

impl LazyUrl {
    /// The URL of a request with target `uri`, already made (by middleware) or not.
    pub(crate) fn new(uri: Uri, url: UrlCell) -> Self {
        Self { uri, url }
    }

    /// `http://localhost/`, for contexts made outside a request.
    pub(crate) fn localhost() -> Self {
        Self::new(Uri::from_static("/"), OnceLock::new())
    }

    pub(crate) fn uri(&self) -> &Uri {
        &self.uri
    }

    /// The URL, made on the first call from the request's `headers` and `extensions`.
    pub(crate) fn get(&self, headers: &HeaderMap, extensions: &Extensions) -> &Url {
        made(&self.url, &self.uri, headers, extensions)
    }
}

/// The URL in `cell`, made on first use.
pub(crate) fn made<'a>(
    cell: &'a UrlCell,
    uri: &Uri,
    headers: &HeaderMap,
    extensions: &Extensions,
) -> &'a Url {
    cell.get_or_init(|| {
        let scheme = extensions.get::<Scheme>().map(Scheme::as_str);
        let host = headers.get(HOST).and_then(|h| h.to_str().ok());
        Box::new(full_url(uri, scheme, host))
    })
}

/// The full URL of a request: scheme from the URI or the adapter's [`Scheme`] extension,
/// authority from the URI or the `Host` header.
fn full_url(uri: &Uri, scheme: Option<&str>, host: Option<&str>) -> Url {
    let scheme = uri.scheme_str().or(scheme).unwrap_or("http");
    let host = uri
        .authority()
        .map(|a| a.as_str())
        .or(host)
        .unwrap_or("localhost");
    let path = uri.path_and_query().map_or("/", |pq| pq.as_str());
    if uri.authority().is_none() {
        if let Some(url) = BaseUrl::join(scheme, host, path) {
            return url;
        }
    }
    parse_url(scheme, host, path)
}

/// The URL `{scheme}://{host}{path}`, with `localhost` for a host that does not parse.
fn parse_url(scheme: &str, host: &str, path: &str) -> Url {
    Url::parse(&format!("{scheme}://{host}{path}"))
        .or_else(|_| Url::parse(&format!("{scheme}://localhost{path}")))
        .unwrap_or_else(|_| Url::parse("http://localhost/").expect("static URL parses"))
}

/// The last `{scheme}://{host}/` parsed on this thread: the requests of a connection (and
/// usually of a server) share it, and parsing only the path and query against it skips the
/// host parsing (IDNA, IP addresses), the costliest part of a URL.
struct BaseUrl {
    scheme: String,
    host: String,
    url: Url,
    /// The input of `join`, reused: the path, then spaces (trimmed by the parser) whose only
    /// effect is a large enough capacity for the URL's serialisation, which the parser sizes
    /// by its input — without them, it grows twice per request.
    input: String,
}

thread_local! {
    static BASE_URL: std::cell::RefCell<Option<BaseUrl>> = const { std::cell::RefCell::new(None) };
}

impl BaseUrl {
    /// [`parse_url`]'s answer, from the cached base, where the result is the same: an
    /// `http`/`https` scheme, a host of plain name or address characters (nothing that would
    /// end the authority early or change it, like `/`, `?`, `#`, `@`, `%`), and an absolute
    /// path (not `//…`, which would be read as another authority). `None` otherwise.
    fn join(scheme: &str, host: &str, path: &str) -> Option<Url> {
        let absolute_path =
            path.starts_with('/') && !matches!(path.as_bytes().get(1), Some(b'/' | b'\\'));
        if !absolute_path {
            return None;
        }
        BASE_URL.with(|cell| {
            let mut cached = cell.borrow_mut();
            // Only a scheme and host that passed the checks below are ever cached.
            let hit = matches!(&*cached, Some(b) if b.host == host && b.scheme == scheme);
            if !hit {
                let plain_host = !host.is_empty()
                    && host.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
                    });
                if !matches!(scheme, "http" | "https") || !plain_host {
                    return None;
                }
                *cached = Some(BaseUrl {
                    scheme: scheme.to_owned(),
                    host: host.to_owned(),
                    url: Url::parse(&format!("{scheme}://{host}/")).ok()?,
                    input: String::new(),
                });
            }
            let base = cached.as_mut()?;
            const SPACES: &str = "                                                                ";
            // Room for the base's `scheme://host` (each space costs the parser's trim a
            // little; a reallocation costs far more).
            let room = base.url.as_str().len();
            base.input.clear();
            base.input.push_str(path);
            for _ in 0..room / SPACES.len() {
                base.input.push_str(SPACES);
            }
            base.input.push_str(&SPACES[..room % SPACES.len()]);
            base.url.join(&base.input).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_base_urls_give_the_parsed_url() {
        let hosts = [
            "localhost",
            "127.0.0.1:8080",
            "[::1]:3000",
            "Example.COM",
            "EXAMPLE.com:80",
            "xn--nxasmq6b.com",
            "0x7f.1",
            "a..b",
            "host:99999",
            "host:",
            "[::1",
            "bad host",
            "a/b",
            "a@b",
            "a?b",
            "a#b",
            "a%41",
            "",
        ];
        let paths = [
            "/",
            "/hello",
            "/users/7/posts?limit=10&offset=0",
            "/a/../b/./c/..",
            "/%7e/%2F?x=%20&y",
            "/caf%C3%A9?q=caf\u{e9}",
            "/a b?c d",
            "/?",
            "/a?b#c",
            "//evil.example/x",
            "/\\evil.example/x",
            "*",
            "",
        ];
        for _ in 0..2 {
            for scheme in ["http", "https", "ftp"] {
                for host in hosts {
                    for path in paths {
                        if let Some(fast) = BaseUrl::join(scheme, host, path) {
                            assert_eq!(
                                fast,
                                parse_url(scheme, host, path),
                                "{scheme}://{host}{path}"
                            );
                        }
                    }
                }
            }
        }
        assert!(BaseUrl::join("http", "localhost", "/x").is_some());
    }
}
