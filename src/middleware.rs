//! Middleware: async functions of (request, next) around a contract's handler.
//!
//! Middleware runs after routing and **before** the query and body are parsed: `next.run(req)`
//! runs parse → validate → handler → response check → serialise. The first middleware in a
//! list is the outermost, and server-wide middleware wraps contract middleware.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use http::{Extensions, HeaderMap, Method};
use url::Url;

use crate::body::Body;
use crate::error::{Detail, Error};
use crate::handler::ErasedHandler;
use crate::Response;

/// A boxed, sendable future.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type MiddlewareFn = dyn Fn(Request, Next) -> BoxFuture<Result<Response, Error>> + Send + Sync;

/// A middleware, made by [`from_fn`]. Cheap to clone.
#[derive(Clone)]
pub struct Middleware(Arc<MiddlewareFn>);

impl fmt::Debug for Middleware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Middleware")
    }
}

/// Makes a middleware from an async function of ([`Request`], [`Next`]).
///
/// It can read the method, URL, headers and raw params, attach typed extensions that the
/// handler reads from `ctx.extensions`, answer early with an error or a response, change the
/// response `next` gives back, or catch an error from `next`, act on it and return it again.
///
/// ```
/// use pactum::{middleware, HttpError};
///
/// #[derive(Clone)]
/// struct User(String);
///
/// let auth = middleware::from_fn(|mut req, next| async move {
///     let token = req
///         .headers()
///         .get("authorization")
///         .and_then(|v| v.to_str().ok())
///         .and_then(|v| v.strip_prefix("Bearer "))
///         .ok_or_else(|| HttpError::unauthorized("Unauthorized"))?;
///     if token != "secret-token" {
///         return Err(HttpError::unauthorized("Invalid token").into());
///     }
///     req.extensions_mut().insert(User("alice".into()));
///     next.run(req).await
/// });
/// ```
pub fn from_fn<F, Fut>(f: F) -> Middleware
where
    F: Fn(Request, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Response, Error>> + Send + 'static,
{
    Middleware(Arc::new(move |req, next| Box::pin(f(req, next))))
}

/// The request as middleware sees it: routed, with its raw params, before its query and body
/// are parsed.
#[derive(Debug)]
pub struct Request {
    pub(crate) head: http::request::Parts,
    pub(crate) url: Url,
    pub(crate) route: Arc<str>,
    pub(crate) params: RawParams,
    pub(crate) body: Body,
    pub(crate) body_limit: usize,
}

impl Request {
    /// The method.
    pub fn method(&self) -> &Method {
        &self.head.method
    }

    /// The full request URL.
    pub fn url(&self) -> &Url {
        &self.url
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
}

/// Path params as matched: names and percent-decoded values, in route order.
///
/// A value whose decoded bytes are not UTF-8 appears here with U+FFFD in their place, and a
/// catch-all value with an empty, `.` or `..` segment as it is: the pipeline refuses both
/// with a 400 when it deserialises the params, after middleware.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawParams {
    pub(crate) pairs: Vec<(String, String)>,
    /// Why routing refused a value: answered 400 when the params are deserialised.
    pub(crate) refused: Option<Detail>,
}

impl RawParams {
    /// The value of the param `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The (name, value) pairs in route order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Marks `name`'s value refused (the first reason is kept).
    pub(crate) fn refuse(&mut self, name: &str, reason: &str) {
        if self.refused.is_none() {
            self.refused = Some(Detail::new(vec![name.into()], reason));
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

/// The rest of the chain: the inner middleware, then the handler.
pub struct Next {
    chain: Arc<[Middleware]>,
    index: usize,
    endpoint: Arc<dyn ErasedHandler>,
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("remaining", &(self.chain.len() - self.index))
            .finish()
    }
}

impl Next {
    pub(crate) fn new(chain: Arc<[Middleware]>, endpoint: Arc<dyn ErasedHandler>) -> Self {
        Self {
            chain,
            index: 0,
            endpoint,
        }
    }

    /// Runs the rest of the chain: inner middleware, then parse → validate → handler →
    /// response check → serialise.
    ///
    /// # Errors
    ///
    /// Whatever the inner middleware, the parsing and validation, or the handler failed with.
    pub fn run(mut self, req: Request) -> BoxFuture<Result<Response, Error>> {
        match self.chain.get(self.index) {
            Some(middleware) => {
                let middleware = Arc::clone(&middleware.0);
                self.index += 1;
                middleware(req, self)
            }
            None => self.endpoint.call(req),
        }
    }
}
