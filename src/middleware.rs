//! Middleware: async functions of (request, next) around a contract's handler.
//!
//! Middleware runs after routing and **before** the query and body are parsed: `next.run(req)`
//! runs parse → validate → handler → response check → serialise. The first middleware in a
//! list is the outermost, and server-wide middleware wraps contract middleware.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::error::Error;
use crate::request::{BoxFuture, CallHandler};
use crate::response::Response;

pub use crate::request::{RawParams, Request};

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

/// The rest of the chain: the inner middleware, then the handler.
pub struct Next {
    chain: Arc<[Middleware]>,
    index: usize,
    endpoint: Arc<dyn CallHandler>,
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("remaining", &(self.chain.len() - self.index))
            .finish()
    }
}

impl Next {
    pub(crate) fn new(chain: Arc<[Middleware]>, endpoint: Arc<dyn CallHandler>) -> Self {
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
