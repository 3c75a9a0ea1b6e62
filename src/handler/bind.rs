//! Binding typed state, providers and middleware to a handler: [`bind`] and [`Binder`].
//!
//! What is bound is kept as a flat tuple of *bindings* ([`FromState`], [`FromProvider`]) in
//! the binder's type; the function's second argument is the tuple of their values, in the
//! order they were bound. A value the function asks for that nothing binds is a type error.

use std::any::type_name;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::bindings::{Append, Bindings, FromProvider, FromState, StateValue};
use super::{Handler, HandlerFuture};
use crate::context::Ctx;
use crate::contract::{Endpoint, NoCookies, NoHeaders};
use crate::error::{Error, HttpError, NoErrors};
use crate::middleware::{Middleware, Provided, Provider};

/// Starts binding a handler to `endpoint`: state, [`Provider`]s and middleware, then the
/// function ([`Binder::to`]).
///
/// - [`.state(value)`](Binder::state) binds a value of the application (a store, a
///   connection pool, a configuration): cloned for each request.
/// - [`.provide(provider)`](Binder::provide) binds a [`Provider<T>`](Provider) (made by
///   [`middleware::provide`](crate::middleware::provide)): it runs for each request and makes
///   a `T` (the authenticated user), or answers the request itself (a 401) and the function
///   does not run.
/// - [`.middleware(m)`](Binder::middleware) binds a plain middleware to this handler only.
/// - [`.to(f)`](Binder::to) gives the [`Handler`]: `f` receives the [`Ctx`] and the tuple of
///   the bound values, in the order they were bound (`()`, `(S,)`, `(S, User)`, … up to six).
///
/// Asking for a value that is not bound — a `User` with no `Provider<User>`, or the values in
/// another order — does not compile. The contract itself is unchanged: it stays plain data
/// that a client crate can share, while the server's state and auth are bound here.
///
/// A provider and the handler's middleware run where contract middleware runs: after
/// routing, before the query and body are parsed, inside server-wide and contract middleware
/// (closest to the handler), in the order they were bound. The result is an ordinary
/// [`Handler`], served by every adapter and the in-process client.
///
/// # Example
///
/// ```
/// use pactum::middleware::{self, Request};
/// use pactum::{bind, route, Ctx, Endpoint, HttpError, NoBody, NoQuery, Params, Pipeline};
/// use serde::{Deserialize, Serialize};
/// use std::collections::HashMap;
/// use std::sync::Arc;
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate, Params)]
/// struct NotePath { id: u64 }
/// #[derive(Debug, Serialize, Deserialize, Validate)]
/// struct Note { id: u64, text: String, reader: String }
///
/// /// The application's state: cheap to clone.
/// #[derive(Clone, Default)]
/// struct Notes(Arc<HashMap<u64, String>>);
///
/// /// What the auth provider makes.
/// #[derive(Clone)]
/// struct User { name: String }
///
/// // The contract: plain data, no server code (a client crate can share it).
/// let get_note = Endpoint::get(route!("/notes/:id"))
///     .params::<NotePath>()
///     .response::<Note>()
///     .build()?;
///
/// // On the server: `Authorization: Bearer <name>` makes a `User`, else 401.
/// let auth = middleware::provide(|req: &Request| {
///     let name = req.bearer_token().map(str::to_owned);
///     async move {
///         let name = name.ok_or_else(|| HttpError::unauthorized("Unauthorized"))?;
///         Ok(User { name })
///     }
/// });
/// let notes = Notes(Arc::new(HashMap::from([(1, "hello".to_owned())])));
///
/// let h = bind(get_note)
///     .state(notes)
///     .provide(auth)
///     .to(|ctx: Ctx<NotePath>, (notes, user): (Notes, User)| async move {
///         let text = notes.0.get(&ctx.params.id).ok_or_else(|| HttpError::not_found("No such note"))?;
///         Ok(Note { id: ctx.params.id, text: text.clone(), reader: user.name })
///     });
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async move {
/// let pipeline = Pipeline::builder(vec![h.clone().into()]).build()?;
/// let get = |auth: Option<&str>| {
///     let mut req = http::Request::get("/notes/1");
///     if let Some(auth) = auth {
///         req = req.header("authorization", auth);
///     }
///     pipeline.handle(req.body(pactum::pipeline::Body::empty()).unwrap())
/// };
/// assert_eq!(get(None).await.status(), 401); // the provider answered; the function did not run
/// assert_eq!(get(Some("Bearer ada")).await.status(), 200);
///
/// // Without HTTP: `execute` runs no middleware, so the test gives the provider's value.
/// let ctx = Ctx::new(NotePath { id: 1 }, NoQuery, NoBody).with_provided(User { name: "ada".into() });
/// assert_eq!(h.execute(ctx).await?.reader, "ada");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bind<P, Q, B, R, E, H, C>(endpoint: Endpoint<P, Q, B, R, E, H, C>) -> Binder<P, Q, B, R, E, H, C> {
    Binder {
        endpoint,
        bindings: (),
        middleware: Vec::new(),
    }
}

/// A handler being bound: its contract, the state and [`Provider`]s bound so far (`L`, a
/// tuple of [`FromState`] and [`FromProvider`]) and its own middleware. Made by [`bind`],
/// finished by [`Binder::to`].
#[must_use = "a binder does nothing until `.to(f)` makes its handler"]
pub struct Binder<P, Q, B, R, E = NoErrors, H = NoHeaders, C = NoCookies, L = ()> {
    endpoint: Endpoint<P, Q, B, R, E, H, C>,
    bindings: L,
    /// The handler's own middleware, providers included, outermost first.
    middleware: Vec<Middleware>,
}

impl<P, Q, B, R, E, H, C, L> Binder<P, Q, B, R, E, H, C, L> {
    /// Binds `state`, a value of the application (a store, a pool, a configuration): the
    /// function receives a clone of it for each request, after the values bound before it.
    /// Wrap what must be shared (not copied) in an `Arc`.
    pub fn state<S>(self, state: S) -> Binder<P, Q, B, R, E, H, C, L::Output>
    where
        S: StateValue,
        L: Append<FromState<S>>,
    {
        Binder {
            endpoint: self.endpoint,
            bindings: self.bindings.append(FromState(state)),
            middleware: self.middleware,
        }
    }

    /// Binds `provider`: it runs for each request, after the middleware bound before it, and
    /// either makes a `T` — which the function receives, after the values bound before it —
    /// or answers the request with its error, and the function does not run.
    ///
    /// The value is moved into the function, not cloned — unless the handler binds providers
    /// of the same type twice: the later one's value replaces the earlier's, and each binding
    /// of the type receives it.
    pub fn provide<T>(mut self, provider: Provider<T>) -> Binder<P, Q, B, R, E, H, C, L::Output>
    where
        T: Clone + Send + Sync + 'static,
        L: Append<FromProvider<T>>,
    {
        self.middleware.push(provider.into_middleware());
        Binder {
            endpoint: self.endpoint,
            bindings: self.bindings.append(FromProvider(PhantomData)),
            middleware: self.middleware,
        }
    }

    /// Binds a plain middleware to this handler only: it runs inside server-wide and contract
    /// middleware, in the order it was bound among this handler's middleware and providers.
    /// It can attach nothing the function receives typed (that is a [`Provider`]'s job).
    pub fn middleware(mut self, middleware: Middleware) -> Self {
        self.middleware.push(middleware);
        self
    }

    /// Makes the handler: `f` receives the [`Ctx`] and the tuple of the bound values, in the
    /// order they were bound.
    ///
    /// [`Handler::execute`] on the result runs `f` directly, with no middleware: bound state is
    /// passed as bound; a provider's value must be in the context
    /// ([`Ctx::with_provided`]). One that is not there — which cannot happen to a request
    /// served through a pipeline — is answered 500 `Internal server error` (its type named in
    /// the logged source), never a panic.
    pub fn to<F, Fut>(self, f: F) -> Handler<P, Q, B, R, E, H, C>
    where
        L: Bindings,
        F: Fn(Ctx<P, Q, B, H, C>, L::Values) -> Fut + Send + Sync + 'static,
        Fut: HandlerFuture<R>,
        (P, Q, B, R, H, C): 'static,
    {
        let bindings = self.bindings;
        let keep = bindings.keep();
        let call = move |mut ctx: Ctx<P, Q, B, H, C>| match bindings.take(&mut ctx.extensions, keep) {
            Ok(values) => WithValues::Running {
                future: f(ctx, values),
            },
            Err(missing) => WithValues::Missing {
                error: Some(missing.into_error()),
            },
        };
        Handler::with_middleware(self.endpoint, call, self.middleware)
    }
}

impl<P, Q, B, R, E, H, C, L> fmt::Debug for Binder<P, Q, B, R, E, H, C, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Binder")
            .field("endpoint", &self.endpoint)
            .field("bindings", &type_name::<L>())
            .field("middleware", &self.middleware.len())
            .finish()
    }
}

impl<P, Q, B, H, C> Ctx<P, Q, B, H, C> {
    /// This context with `value` as a [`Provider`]'s value, for calling a bound handler
    /// directly ([`Handler::execute`] runs no middleware, so no provider): the function
    /// receives it where it asks for a `T` that a `.provide(..)` binds.
    ///
    /// ```
    /// # use pactum::{bind, middleware, route, Ctx, Endpoint, NoBody, contract::NoContent, NoParams, NoQuery};
    /// # #[derive(Clone)] struct User;
    /// # let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    /// # let auth = middleware::provide(|_: &middleware::Request| async { Ok(User) });
    /// let h = bind(endpoint).provide(auth).to(|_ctx: Ctx, (_user,): (User,)| async { Ok(NoContent) });
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async move {
    /// let ctx = || Ctx::new(NoParams, NoQuery, NoBody);
    /// assert!(h.execute(ctx().with_provided(User)).await.is_ok());
    /// // No `User` in the context: a 500, not a panic.
    /// assert_eq!(h.execute(ctx()).await.unwrap_err().status(), 500);
    /// # });
    /// ```
    #[must_use]
    pub fn with_provided<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(Provided(value));
        self
    }
}

pin_project_lite::pin_project! {
    /// The future of a bound function: its own, or the error of a value not provided.
    #[project = WithValuesProj]
    enum WithValues<Fut> {
        Running { #[pin] future: Fut },
        Missing { error: Option<Error> },
    }
}

impl<R, Fut: Future<Output = Result<R, Error>>> Future for WithValues<Fut> {
    type Output = Result<R, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            WithValuesProj::Running { future } => future.poll(cx),
            WithValuesProj::Missing { error } => {
                Poll::Ready(Err(error.take().unwrap_or_else(|| {
                    HttpError::internal("`WithValues` polled after completion").into()
                })))
            }
        }
    }
}
