//! The request between routing and the handler: [`Request`] as middleware sees it, its
//! [`RawParams`], and [`CallHandler`], what runs it once middleware is done.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::{Extensions, HeaderMap, Method, Uri};
use url::Url;

use crate::body::Body;
use crate::error::{Detail, Error};
use crate::response::Response;
use crate::route::RouteName;
use smallvec::SmallVec;

mod detached_head;
mod kept_buffer;
mod lazy_url;
mod read;
mod remote;
mod request_id;

pub(crate) use lazy_url::{LazyUrl, UrlCell};
pub(crate) use read::{start_bytes, BodyRead};
pub use remote::{IpNet, PeerAddr};
pub(crate) use remote::{Remote, TrustedProxies};
pub use request_id::REQUEST_ID_HEADER;
pub(crate) use request_id::{next_serial, request_id, EchoedId};

/// A boxed, sendable future.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What runs a routed request once its middleware is done: parse, validate, call, check,
/// serialise. Implemented by every contract's handler.
pub(crate) trait CallHandler: Send + Sync + 'static {
    fn call(self: Arc<Self>, req: Request) -> BoxFuture<Result<Response, Error>>;
}

/// The request as middleware sees it: routed, with its raw params, before its query and body
/// are parsed.
#[derive(Debug)]
pub struct Request {
    pub(crate) head: http::request::Parts,
    /// Made on first use.
    pub(crate) url: UrlCell,
    pub(crate) route: RouteName,
    pub(crate) params: RawParams,
    pub(crate) body: Body,
    pub(crate) body_limit: usize,
    pub(crate) remote: Remote,
}

impl Request {
    /// The method.
    pub fn method(&self) -> &Method {
        &self.head.method
    }

    /// The full request URL, built on first use: from the URI, the `Host` header and the
    /// scheme (`https` behind TLS).
    pub fn url(&self) -> &Url {
        lazy_url::made(
            &self.url,
            &self.head.uri,
            &self.head.headers,
            &self.head.extensions,
        )
    }

    /// The request target as it came (path and query, or absolute form).
    pub fn uri(&self) -> &Uri {
        &self.head.uri
    }

    /// The route template that matched, e.g. `/users/:id`.
    pub fn route(&self) -> &str {
        &self.route
    }

    /// The request headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.head.headers
    }

    /// The request headers, to change before the handler sees them.
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        &mut self.head.headers
    }

    /// The bearer token of the `Authorization` header, parsed as the pipeline's 401 check of
    /// a contract's [`Security::bearer`](crate::Security::bearer) parses it: the scheme
    /// `Bearer` in any case, one or more spaces, a non-empty token of visible ASCII.
    /// `None` when there is none. The token is not checked: that is the caller's job.
    ///
    /// ```
    /// use pactum::{middleware, HttpError, Security};
    ///
    /// let auth = middleware::from_fn(|req, next| async move {
    ///     // `bearer s3cret` and `Bearer s3cret` both give `s3cret`.
    ///     if req.bearer_token() != Some("s3cret") {
    ///         return Err(HttpError::unauthorized("Invalid token").into());
    ///     }
    ///     next.run(req).await
    /// })
    /// .verifies(Security::bearer());
    /// ```
    pub fn bearer_token(&self) -> Option<&str> {
        crate::security::bearer_token_in(&self.head.headers)
    }

    /// The API key in `header` (the one the contract's
    /// [`Security::api_key_header`](crate::Security::api_key_header) names), parsed as the
    /// pipeline's 401 check parses it: the header's value, non-empty visible ASCII. `None`
    /// when there is none. The key is not checked: that is the caller's job.
    pub fn api_key(&self, header: impl http::header::AsHeaderName) -> Option<&str> {
        crate::security::api_key_in(&self.head.headers, header)
    }

    /// Typed values attached to the request; the handler reads them as `ctx.extensions`.
    pub fn extensions(&self) -> &Extensions {
        &self.head.extensions
    }

    /// Typed values attached to the request, to add to.
    pub fn extensions_mut(&mut self) -> &mut Extensions {
        &mut self.head.extensions
    }

    /// The percent-decoded path params, before they are deserialised.
    pub fn params(&self) -> &RawParams {
        &self.params
    }

    /// The request's id: its `x-request-id` header when its peer is a trusted proxy and the
    /// value is sane (1 to 200 bytes of visible ASCII), else one generated for it — the same
    /// id the answer's `x-request-id`, the request's tracing span, the handler
    /// ([`Ctx::request_id`](crate::Ctx::request_id)) and the error formatter
    /// ([`RequestInfo`](crate::error::RequestInfo)) see ([`REQUEST_ID_HEADER`]).
    pub fn request_id(&self) -> std::borrow::Cow<'_, str> {
        request_id(&self.head.headers, &self.remote)
    }

    /// The address of the connection's peer: the client, or the last proxy before this
    /// server. `None` where the adapter has no socket (a request handed to
    /// [`Pipeline::handle`](crate::Pipeline::handle) without a [`PeerAddr`] extension).
    pub fn peer_addr(&self) -> Option<SocketAddr> {
        self.remote.peer(&self.head.extensions)
    }

    /// The client's IP address: the peer's, or, when the peer is one of the
    /// [trusted proxies](crate::pipeline::PipelineBuilder::trusted_proxies), the address it forwarded
    /// (`Forwarded`, else `X-Forwarded-For`: the rightmost hop that is not a trusted proxy).
    pub fn client_ip(&self) -> Option<IpAddr> {
        self.remote.client_ip(&self.head.extensions)
    }

    /// Reads the whole body, within the route's body limit, and keeps it: the pipeline then
    /// parses these same bytes, and the handler gets them again from
    /// [`Ctx::raw_body`](crate::Ctx::raw_body) — no second read, no copy. For middleware that
    /// checks a signature over the exact bytes (webhooks), before the body is parsed.
    ///
    /// The `Content-Type` is not checked here (the pipeline checks it when it parses).
    ///
    /// ```
    /// use pactum::{middleware, HttpError};
    ///
    /// let signed = middleware::from_fn(|mut req, next| async move {
    ///     let bytes = req.body_bytes().await?;
    ///     if !bytes.starts_with(b"{") {
    ///         return Err(HttpError::unauthorized("Invalid signature").into());
    ///     }
    ///     next.run(req).await
    /// });
    /// ```
    ///
    /// # Errors
    ///
    /// The pipeline's own: 413 `Payload too large` for a declared `Content-Length` over the
    /// limit (nothing is read) or a body that grows past it, 400 for a body that cannot be
    /// read. The body is gone then: answer with the error.
    pub async fn body_bytes(&mut self) -> Result<Bytes, Error> {
        let body = std::mem::take(&mut self.body);
        let bytes = start_bytes(&mut self.head, body, self.body_limit)?.await?;
        self.body = Body::from(bytes.clone());
        Ok(bytes)
    }
}

/// Path params as matched: names and percent-decoded values, in route order.
///
/// A value whose decoded bytes are not UTF-8 appears here with U+FFFD in their place, and a
/// catch-all value with an empty, `.` or `..` segment as it is: the pipeline refuses both
/// with a 400 when it deserialises the params, after middleware.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawParams {
    /// Names from the route table (borrowed from a literal route); values decoded. One held
    /// inline (no allocation for the usual route with one param).
    pub(crate) pairs: SmallVec<[(RouteName, String); 1]>,
    /// Why routing refused a value: answered 400 when the params are deserialised.
    pub(crate) refused: Option<Box<Detail>>,
}

impl RawParams {
    /// The value of the param `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| **n == *name)
            .map(|(_, v)| v.as_str())
    }

    /// The (name, value) pairs in route order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (&**n, v.as_str()))
    }

    /// Marks `name`'s value refused (the first reason is kept).
    pub(crate) fn refuse(&mut self, name: &str, reason: &str) {
        if self.refused.is_none() {
            self.refused = Some(Box::new(Detail::new(vec![name.into()], reason)));
        }
    }

    /// How many params matched.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// `true` when the route has no params.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
impl Request {
    pub(crate) fn probe() -> Self {
        let (head, body) = http::Request::new(Body::empty()).into_parts();
        Self {
            head,
            url: UrlCell::new(),
            route: RouteName::Static("/x"),
            params: RawParams::default(),
            body,
            body_limit: 1,
            remote: Remote::default(),
        }
    }
}
