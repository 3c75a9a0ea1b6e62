//! [`Ctx`]: what a handler receives.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue};
use http::{Extensions, HeaderMap, Method, StatusCode};
use url::Url;

use crate::contract::{NoBody, NoCookies, NoHeaders, NoParams, NoQuery};
use crate::request::{LazyUrl, Remote, UrlCell};

/// The request as a handler sees it: typed, validated params, query, body, header params and
/// cookie params, plus the request's method, URL, headers, and the extensions middleware
/// attached.
///
/// For tests, [`Ctx::new`] builds one directly, to call [`Handler::execute`](crate::handler::Handler::execute).
#[derive(Debug)]
#[non_exhaustive]
pub struct Ctx<P = NoParams, Q = NoQuery, B = NoBody, H = NoHeaders, C = NoCookies> {
    /// The path params, deserialised and validated.
    pub params: P,
    /// The query, deserialised and validated.
    pub query: Q,
    /// The header params ([`EndpointBuilder::headers`](crate::contract::EndpointBuilder::headers)),
    /// deserialised and validated.
    pub header_params: H,
    /// The cookie params ([`EndpointBuilder::cookies`](crate::contract::EndpointBuilder::cookies)),
    /// deserialised and validated.
    pub cookie_params: C,
    /// The body, deserialised and validated (JSON; a [`Multipart`](crate::upload::Multipart) form),
    /// or a [`ByteStream`](crate::upload::ByteStream) to read.
    pub body: B,
    /// The request method.
    pub method: Method,
    /// The full request URL, built on first use ([`Ctx::url`]).
    url: LazyUrl,
    /// The request headers.
    pub headers: HeaderMap,
    /// Typed values middleware attached (an authenticated user, a request id).
    pub extensions: Extensions,
    /// The response's status and headers, for the handler to set.
    pub response: ResponseParts,
    /// The bytes the JSON body was parsed from ([`Ctx::raw_body`]).
    raw_body: Bytes,
    /// The peer and the forwarded client ([`Ctx::peer_addr`], [`Ctx::client_ip`]).
    remote: Remote,
}

impl<P, Q, B> Ctx<P, Q, B> {
    /// A context for calling a handler directly: method GET, URL `http://localhost/`, no
    /// headers, no extensions, no header or cookie params
    /// ([`with_header_params`](Ctx::with_header_params),
    /// [`with_cookie_params`](Ctx::with_cookie_params) add them).
    pub fn new(params: P, query: Q, body: B) -> Self {
        Self {
            params,
            query,
            header_params: NoHeaders,
            cookie_params: NoCookies,
            body,
            method: Method::GET,
            url: LazyUrl::localhost(),
            headers: HeaderMap::new(),
            extensions: Extensions::new(),
            response: ResponseParts::default(),
            raw_body: Bytes::new(),
            remote: Remote::HAND_MADE,
        }
    }
}

impl<P, Q, B, H, C> Ctx<P, Q, B, H, C> {
    /// This context with the header params `header_params`, for calling a handler directly.
    ///
    /// ```
    /// let ctx = pactum::Ctx::new((), (), ()).with_header_params("sig").with_cookie_params(7);
    /// assert_eq!((ctx.header_params, ctx.cookie_params), ("sig", 7));
    /// ```
    pub fn with_header_params<H2>(self, header_params: H2) -> Ctx<P, Q, B, H2, C> {
        self.with_params(|_, cookie_params| (header_params, cookie_params))
    }

    /// This context with the cookie params `cookie_params`, for calling a handler directly.
    pub fn with_cookie_params<C2>(self, cookie_params: C2) -> Ctx<P, Q, B, H, C2> {
        self.with_params(|header_params, _| (header_params, cookie_params))
    }

    /// This context with the header and cookie params `make` turns the current ones into.
    fn with_params<H2, C2>(self, make: impl FnOnce(H, C) -> (H2, C2)) -> Ctx<P, Q, B, H2, C2> {
        let (header_params, cookie_params) = make(self.header_params, self.cookie_params);
        Ctx {
            params: self.params,
            query: self.query,
            header_params,
            cookie_params,
            body: self.body,
            method: self.method,
            url: self.url,
            headers: self.headers,
            extensions: self.extensions,
            response: self.response,
            raw_body: self.raw_body,
            remote: self.remote,
        }
    }

    /// This context with the raw body `bytes` ([`Ctx::raw_body`]), for calling a handler
    /// directly.
    #[must_use]
    pub fn with_raw_body(mut self, bytes: impl Into<Bytes>) -> Self {
        self.raw_body = bytes.into();
        self
    }

    /// This context with the peer address `addr` ([`Ctx::peer_addr`], [`Ctx::client_ip`]),
    /// for calling a handler directly.
    #[must_use]
    pub fn with_peer_addr(mut self, addr: SocketAddr) -> Self {
        self.remote.peer = Some(addr);
        self
    }

    /// The context of a routed request, for the handler.
    #[allow(clippy::too_many_arguments)] // the parts of a request, each moved once
    pub(crate) fn of_request(
        (params, query, header_params, cookie_params): (P, Q, H, C),
        (body, raw_body): (B, Bytes),
        head: http::request::Parts,
        url: UrlCell,
        remote: Remote,
        response: ResponseParts,
    ) -> Self {
        Self {
            params,
            query,
            header_params,
            cookie_params,
            body,
            method: head.method,
            url: LazyUrl::new(head.uri, url),
            headers: head.headers,
            extensions: head.extensions,
            response,
            raw_body,
            remote,
        }
    }

    /// The request's id: its `x-request-id` header when its peer is a trusted proxy
    /// ([`PipelineBuilder::trusted_proxies`](crate::pipeline::PipelineBuilder::trusted_proxies))
    /// and the value is sane (1 to 200 bytes of visible ASCII:
    /// [`REQUEST_ID_HEADER`](crate::pipeline::REQUEST_ID_HEADER)), else one generated for it (16
    /// hex digits, unique within the process). The same id is in the answer's
    /// `x-request-id`, on the request's tracing span (field `request_id`) and in the error
    /// formatter's [`RequestInfo`](crate::error::RequestInfo). A context made by [`Ctx::new`]
    /// keeps an `x-request-id` set on it (there is no peer to doubt), else has the id of
    /// serial 0.
    ///
    /// ```
    /// use pactum::Ctx;
    ///
    /// let mut ctx = Ctx::new((), (), ());
    /// ctx.headers.insert("x-request-id", "req-42".parse()?);
    /// assert_eq!(ctx.request_id(), "req-42");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn request_id(&self) -> std::borrow::Cow<'_, str> {
        crate::request::request_id(&self.headers, &self.remote)
    }

    /// The exact bytes the JSON body was parsed from, as they came (for a signature over
    /// them: webhooks). The same buffer the parser read — a reference count, no copy — kept
    /// until the context is dropped. Empty when the contract declares no body, or a body that
    /// is not JSON ([`Multipart`](crate::upload::Multipart), [`ByteStream`](crate::upload::ByteStream)).
    pub fn raw_body(&self) -> &Bytes {
        &self.raw_body
    }

    /// The bearer token of the `Authorization` header, parsed as the pipeline's 401 check
    /// parses it (see [`Request::bearer_token`](crate::middleware::Request::bearer_token)):
    /// `Bearer` in any case, then the token. `None` when there is none.
    ///
    /// ```
    /// use pactum::{Ctx, NoBody, NoParams, NoQuery};
    ///
    /// let mut ctx = Ctx::new(NoParams, NoQuery, NoBody);
    /// assert_eq!(ctx.bearer_token(), None);
    /// ctx.headers.insert("authorization", "bearer s3cret".parse()?);
    /// assert_eq!(ctx.bearer_token(), Some("s3cret"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bearer_token(&self) -> Option<&str> {
        crate::security::bearer_token_in(&self.headers)
    }

    /// The API key in `header`, parsed as the pipeline's 401 check parses it (see
    /// [`Request::api_key`](crate::middleware::Request::api_key)). `None` when there is none.
    pub fn api_key(&self, header: impl http::header::AsHeaderName) -> Option<&str> {
        crate::security::api_key_in(&self.headers, header)
    }

    /// The `Last-Event-ID` a reconnecting event-stream client sends: the `id` of the last
    /// event it received, for a handler answering [`Events`](crate::sse::Events) to resume
    /// after it (or answer [`Events::finished`](crate::sse::Events::finished) when nothing
    /// follows it). Read from the headers when asked: a handler that never asks pays nothing.
    ///
    /// `None` when the client sent none, or nothing an event id can be: an empty value (an
    /// `EventSource` sends none then), one that is not UTF-8 or holds a NUL, CR or LF (an
    /// id the SSE spec's parser never keeps), or the header twice. Such a request is served
    /// as a fresh one (from the start of the stream), never refused: a browser's
    /// `EventSource` treats any answer but a 200 stream or a 204 as fatal and stops
    /// reconnecting. An id is an opaque string: parse it as the handler's own ids are made.
    ///
    /// ```
    /// use pactum::Ctx;
    ///
    /// let mut ctx = Ctx::new((), (), ());
    /// assert_eq!(ctx.last_event_id(), None);
    /// ctx.headers.insert("last-event-id", "41".parse()?);
    /// assert_eq!(ctx.last_event_id(), Some("41"));
    /// let resume_after: u64 = ctx.last_event_id().and_then(|id| id.parse().ok()).unwrap_or(0);
    /// assert_eq!(resume_after, 41);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn last_event_id(&self) -> Option<&str> {
        last_event_id_in(&self.headers)
    }

    /// The address of the connection's peer: the client, or the last proxy before this
    /// server. `None` where the adapter has no socket (a socket-free test through
    /// [`Pipeline::handle`](crate::Pipeline::handle), a context made by [`Ctx::new`]), unless
    /// a [`PeerAddr`](crate::pipeline::PeerAddr) extension says otherwise.
    pub fn peer_addr(&self) -> Option<SocketAddr> {
        self.remote.peer(&self.extensions)
    }

    /// The client's IP address: the peer's, or, when the peer is one of the
    /// [trusted proxies](crate::pipeline::PipelineBuilder::trusted_proxies), the address it forwarded
    /// (`Forwarded`, else `X-Forwarded-For`: the rightmost hop that is not a trusted proxy).
    /// `X-Forwarded-For` is not believed by default: anyone can send it.
    pub fn client_ip(&self) -> Option<IpAddr> {
        self.remote.client_ip(&self.extensions)
    }

    /// The full request URL: scheme (`https` behind TLS), host (from the `Host` header),
    /// path and query. Built on first use: a handler that never asks pays nothing.
    pub fn url(&self) -> &Url {
        self.url.get(&self.headers, &self.extensions)
    }

    /// The request target as it came: the path and query (or the absolute form), still
    /// percent-encoded.
    pub fn uri(&self) -> &http::Uri {
        self.url.uri()
    }
}

/// The request's one `Last-Event-ID`, when it is an event id (see [`Ctx::last_event_id`]).
fn last_event_id_in(headers: &HeaderMap) -> Option<&str> {
    let mut values = headers.get_all("last-event-id").iter();
    let value = values.next()?;
    if values.next().is_some() {
        return None;
    }
    // Not `to_str`: an id may be any UTF-8 but NUL, CR and LF.
    let id = std::str::from_utf8(value.as_bytes()).ok()?;
    (!id.is_empty() && !id.contains(['\0', '\r', '\n'])).then_some(id)
}

/// The status and headers of the response being made, shared between the handler and the
/// pipeline. Cheap to clone.
///
/// ```
/// # use pactum::Ctx;
/// use http::header::LOCATION;
/// let ctx = Ctx::new((), (), ());
/// ctx.response.insert_header(LOCATION, http::HeaderValue::from_static("/users/7"));
/// assert_eq!(ctx.response.headers()[LOCATION], "/users/7");
/// ```
#[derive(Debug, Clone, Default)]
pub struct ResponseParts(pub(crate) Arc<Mutex<Parts>>);

#[derive(Debug, Default)]
pub(crate) struct Parts {
    pub(crate) status: Option<StatusCode>,
    pub(crate) headers: HeaderMap,
}

impl ResponseParts {
    fn with<T>(&self, f: impl FnOnce(&mut Parts) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Sets a response header, replacing earlier values.
    pub fn insert_header(&self, name: HeaderName, value: HeaderValue) {
        self.with(|p| p.headers.insert(name, value));
    }

    /// Adds a response header, keeping earlier values (e.g. several `Set-Cookie`).
    pub fn append_header(&self, name: HeaderName, value: HeaderValue) {
        self.with(|p| p.headers.append(name, value));
    }

    /// Overrides the success status for this response.
    pub fn set_status(&self, status: StatusCode) {
        self.with(|p| p.status = Some(status));
    }

    /// A copy of the headers set so far.
    pub fn headers(&self) -> HeaderMap {
        self.with(|p| p.headers.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(values: &[&[u8]]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            let value = HeaderValue::from_bytes(value).expect("a header value");
            headers.append("last-event-id", value);
        }
        headers
    }

    #[test]
    fn an_event_id_is_one_utf8_value() {
        assert_eq!(last_event_id_in(&with(&[])), None);
        assert_eq!(last_event_id_in(&with(&[b"17"])), Some("17"));
        assert_eq!(last_event_id_in(&with(&[b"a b:c"])), Some("a b:c"));
        assert_eq!(
            last_event_id_in(&with(&["é-7".as_bytes()])),
            Some("é-7"),
            "any UTF-8, as the SSE spec's ids are"
        );
    }

    #[test]
    fn what_no_event_id_can_be_is_absent() {
        assert_eq!(last_event_id_in(&with(&[b""])), None);
        assert_eq!(last_event_id_in(&with(&[b"\xff\xfe"])), None);
        assert_eq!(last_event_id_in(&with(&[b"1", b"2"])), None);
        // `HeaderValue` holds no NUL, CR or LF: the check is for a map built by hand.
        assert!(HeaderValue::from_bytes(b"a\0b").is_err());
    }
}
