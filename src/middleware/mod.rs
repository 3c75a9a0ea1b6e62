//! Middleware: async functions of (request, next) around a contract's handler.
//!
//! Middleware runs after routing and **before** the query and body are parsed: `next.run(req)`
//! runs parse → validate → handler → response check → serialise. The first middleware in a
//! list is the outermost, and server-wide middleware wraps contract middleware, which wraps
//! the middleware bound to a handler ([`Binder::middleware`](crate::handler::Binder::middleware),
//! [`Binder::provide`](crate::handler::Binder::provide)).
//!
//! A [`Provider`] ([`provide`]) is a middleware that makes a typed value for the handlers it
//! is bound to: see [`bind`](crate::bind).

mod on_contract;

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::security::{Security, SecurityScheme};
use crate::error::Error;
use crate::request::{BoxFuture, CallHandler};
use crate::response::Response;

pub use crate::request::{RawParams, Request};
#[doc(no_inline)]
pub use url::Url;

type MiddlewareFn = dyn Fn(Request, Next) -> BoxFuture<Result<Response, Error>> + Send + Sync;

/// A middleware, made by [`from_fn`]. Cheap to clone.
#[derive(Clone)]
pub struct Middleware {
    run: Arc<MiddlewareFn>,
    /// The credentials it verifies ([`Middleware::verifies`]): read when the pipeline is
    /// built, never per request.
    verifies: Vec<SecurityScheme>,
}

impl fmt::Debug for Middleware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.verifies.is_empty() {
            f.write_str("Middleware")
        } else {
            f.debug_struct("Middleware")
                .field("verifies", &self.verifies)
                .finish()
        }
    }
}

impl Middleware {
    /// Marks this middleware as the one that verifies the credential of `security`'s scheme:
    /// it refuses a request whose token or key is wrong, not only one that has none.
    ///
    /// A pipeline refuses to start
    /// ([`ConfigError::UnverifiedSecurity`](crate::error::ConfigError::UnverifiedSecurity))
    /// when a contract declares a [`Security`] and no middleware around its handler — bound
    /// to the handler ([`Binder::middleware`](crate::handler::Binder::middleware)), on the
    /// contract, or server-wide ([`PipelineBuilder::middleware`](crate::pipeline::PipelineBuilder::middleware))
    /// — is marked as verifying it. Schemes match by how the credential travels
    /// ([`SecurityScheme`]: a bearer token, or an API key in the same header), not by
    /// [name](Security::named). Mark a middleware that verifies several schemes once for
    /// each. The mark is read when the pipeline is built: it costs nothing per request.
    ///
    /// The mark is a promise pactum cannot check: give it to the middleware that refuses a
    /// wrong credential. Read the credential with [`Request::bearer_token`] or
    /// [`Request::api_key`], which parse it as the pipeline's 401 check does.
    ///
    /// ```
    /// use pactum::{middleware, HttpError, Security};
    ///
    /// let auth = middleware::from_fn(|req, next| async move {
    ///     if req.bearer_token() != Some("s3cret") {
    ///         return Err(HttpError::unauthorized("Invalid token").into());
    ///     }
    ///     next.run(req).await
    /// })
    /// .verifies(Security::bearer());
    /// ```
    #[must_use]
    pub fn verifies(mut self, security: Security) -> Self {
        if !self.verifies.contains(security.scheme()) {
            self.verifies.push(security.scheme().clone());
        }
        self
    }

    /// Whether this middleware is marked as verifying credentials that travel as `scheme`.
    pub(crate) fn verifies_scheme(&self, scheme: &SecurityScheme) -> bool {
        self.verifies.contains(scheme)
    }
}

/// Makes a middleware from an async function of ([`Request`], [`Next`]).
///
/// It can read the method, URL, headers and raw params, attach extensions that the handler
/// reads from `ctx.extensions`, answer early with an error or a response, change the
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
///         .bearer_token()
///         .ok_or_else(|| HttpError::unauthorized("Unauthorized"))?;
///     if token != "secret-token" {
///         return Err(HttpError::unauthorized("Invalid token").into());
///     }
///     req.extensions_mut().insert(User("alice".into()));
///     next.run(req).await
/// })
/// // It checks the token of contracts that declare `Security::bearer()`.
/// .verifies(pactum::Security::bearer());
/// ```
///
/// To hand a value to a handler (the authenticated user), prefer a [`Provider`] bound to the
/// handler ([`bind`](crate::bind)): the handler receives it typed, with no lookup and no 401
/// check of its own.
pub fn from_fn<F, Fut>(f: F) -> Middleware
where
    F: Fn(Request, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Response, Error>> + Send + 'static,
{
    Middleware {
        run: Arc::new(move |req, next| Box::pin(f(req, next))),
        verifies: Vec::new(),
    }
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
                let middleware = Arc::clone(&middleware.run);
                self.index += 1;
                middleware(req, self)
            }
            None => self.endpoint.call(req),
        }
    }
}

/// A middleware that makes a value of type `T` for the handlers it is bound to, or answers the
/// request itself with an error. Made by [`provide`]; bound with
/// [`Binder::provide`](crate::handler::Binder::provide), after which the handler's function receives
/// the `T` typed, among its bound values. Cheap to clone: one provider serves any number of
/// handlers.
pub struct Provider<T> {
    middleware: Middleware,
    value: PhantomData<fn() -> T>,
}

impl<T> Provider<T> {
    /// Marks this provider as the one that verifies the credential of `security`'s scheme —
    /// it refuses a wrong token, not only a missing one — so that the handlers it is bound to
    /// may declare that scheme: see [`Middleware::verifies`].
    ///
    /// ```
    /// use pactum::middleware::{self, Request};
    /// use pactum::{HttpError, Security};
    ///
    /// #[derive(Clone)]
    /// struct User(String);
    ///
    /// let auth = middleware::provide(|req: &Request| {
    ///     let user = match req.bearer_token() {
    ///         Some("s3cret") => Ok(User("ada".into())),
    ///         _ => Err(HttpError::unauthorized("Invalid token").into()),
    ///     };
    ///     async move { user }
    /// })
    /// .verifies(Security::bearer());
    /// ```
    #[must_use]
    pub fn verifies(mut self, security: Security) -> Self {
        self.middleware = self.middleware.verifies(security);
        self
    }

    /// The middleware this provider runs: it makes the value and passes it on to the handler
    /// under a key of its own (not a type a handler can look up in `ctx.extensions`).
    pub(crate) fn into_middleware(self) -> Middleware {
        self.middleware
    }
}

impl<T> Clone for Provider<T> {
    fn clone(&self) -> Self {
        Self {
            middleware: self.middleware.clone(),
            value: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Provider<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Provider<{}>", std::any::type_name::<T>())
    }
}

/// The value a [`Provider`] made, on its way to the handler: a key type no one else can name,
/// so that nothing but the provider can put it there, and nothing but the binding read it.
#[derive(Clone)]
pub(crate) struct Provided<T>(pub(crate) T);

/// Makes a [`Provider`]: a middleware that makes a `T` for the handler from the request (its
/// headers, extensions, method, URL, raw params), or refuses the request.
///
/// `f` receives the request by reference and returns a future: read what it needs from the
/// request first, then make the value in an `async move` block (the future cannot borrow the
/// request). On `Ok(value)` the request goes on — inner middleware, then parse → validate →
/// handler — and the handler's function receives `value`; on `Err(error)` the request is
/// answered with `error` (a 401 [`HttpError`](crate::HttpError), say) and neither the body
/// nor the handler is touched.
///
/// It runs where contract middleware runs: after routing, before the query and body are
/// parsed, inside server-wide and contract middleware, in the order it was bound among the
/// handler's [`Binder::middleware`](crate::handler::Binder::middleware). A provider costs what a
/// [`from_fn`] middleware costs (one boxed future per request), plus its function.
///
/// `T` is `Clone` because it travels with the request's extensions; it is moved, not cloned,
/// into the handler.
///
/// ```
/// use pactum::middleware::{self, Request};
/// use pactum::HttpError;
///
/// #[derive(Debug, Clone)]
/// struct User {
///     name: String,
/// }
///
/// let auth = middleware::provide(|req: &Request| {
///     let token = req.bearer_token().map(str::to_owned);
///     async move {
///         match token.as_deref() {
///             Some("secret-token") => Ok(User { name: "alice".into() }),
///             Some(_) => Err(HttpError::unauthorized("Invalid token").into()),
///             None => Err(HttpError::unauthorized("Unauthorized")
///                 .with_www_authenticate("Bearer")
///                 .into()),
///         }
///     }
/// })
/// // It checks the token of contracts that declare `Security::bearer()`.
/// .verifies(pactum::Security::bearer());
/// # let _: middleware::Provider<User> = auth;
/// ```
pub fn provide<T, F, Fut>(f: F) -> Provider<T>
where
    F: Fn(&Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, Error>> + Send + 'static,
    T: Clone + Send + Sync + 'static,
{
    let middleware = from_fn(move |mut req: Request, next: Next| {
        let value = f(&req);
        async move {
            let value = value.await?;
            req.extensions_mut().insert(Provided(value));
            next.run(req).await
        }
    });
    Provider {
        middleware,
        value: PhantomData,
    }
}
