//! Handlers: an async function bound to a contract.

mod answer_size;
mod bind;
mod bindings;
mod call;
#[cfg(feature = "openapi")]
mod documentation;
mod download_body;
mod error_answer;
mod events_body;
mod nest;
mod pipeline_parts;
mod respond;

use std::fmt;
use std::future::Future;
use std::sync::Arc;

pub use crate::context::{Ctx, ResponseParts};
use crate::contract::{Endpoint, EndpointSpec, NoCookies, NoHeaders, Slot};
use crate::error::{Error, ErrorAnswer, NoErrors};
use crate::middleware::Middleware;
use crate::request::CallHandler;

pub use bind::{bind, Binder};
pub use bindings::{Append, Binding, Bindings, FromProvider, FromState, StateValue};
use call::{Bound, Call};
use error_answer::DeclaredType;
#[cfg(feature = "openapi")]
pub(crate) use documentation::Documentation;
pub use nest::nest;

/// An async function bound to a contract. Made by [`handler()`], or by [`bind`] with state,
/// providers and middleware of its own.
///
/// [`Handler::execute`] runs the function directly (no HTTP, no middleware); convert it into
/// an [`AnyHandler`] to put handlers of different contracts into one list for an adapter.
pub struct Handler<P, Q, B, R, E = NoErrors, H = NoHeaders, C = NoCookies> {
    endpoint: Endpoint<P, Q, B, R, E, H, C>,
    func: Arc<dyn Call<P, Q, B, R, H, C>>,
    /// The middleware bound to this handler ([`Binder::middleware`], [`Binder::provide`]),
    /// outermost first; joined to the contract's when the route table is built.
    middleware: Vec<Middleware>,
}

/// Binds an async function to a contract.
///
/// The function receives a [`Ctx`] holding the parsed, validated params, query and body, and
/// returns the response value or an [`Error`]: `?` works on any `std::error::Error` and on
/// [`HttpError`](crate::HttpError) (on `anyhow::Error` and `Box<dyn Error + Send + Sync>`
/// after [`.into_pactum()`](crate::error::ResultExt::into_pactum)). An error of the type the
/// contract declares ([`EndpointBuilder::errors`](crate::contract::EndpointBuilder::errors)) is
/// answered with its own status and JSON body.
///
/// ```
/// use pactum::{handler, route, Ctx, Endpoint, HttpError, NoBody, NoQuery, Params};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate, Params)]
/// struct UserPath { id: u64 }
/// #[derive(Debug, Serialize, Deserialize, Validate)]
/// struct User { id: u64 }
///
/// let get_user = Endpoint::get(route!("/users/:id"))
///     .params::<UserPath>()
///     .response::<User>()
///     .build()?;
/// let h = handler(get_user, |ctx: Ctx<UserPath>| async move {
///     if ctx.params.id == 0 {
///         return Err(HttpError::not_found("User not found").into());
///     }
///     Ok(User { id: ctx.params.id })
/// });
///
/// # tokio_test(async move {
/// let user = h.execute(Ctx::new(UserPath { id: 7 }, pactum::NoQuery, NoBody)).await?;
/// assert_eq!(user.id, 7);
/// # Ok::<(), pactum::Error>(())
/// # });
/// # fn tokio_test<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn handler<P, Q, B, R, E, H, C, F, Fut>(
    endpoint: Endpoint<P, Q, B, R, E, H, C>,
    f: F,
) -> Handler<P, Q, B, R, E, H, C>
where
    F: Fn(Ctx<P, Q, B, H, C>) -> Fut + Send + Sync + 'static,
    Fut: HandlerFuture<R>,
    (P, Q, B, R, H, C): 'static,
{
    Handler::with_middleware(endpoint, f, Vec::new())
}

/// The future a handler's function returns: `Send + 'static`, resolving to
/// `Result<R, pactum::Error>`. A bound of [`handler()`], here for its compiler message.
#[diagnostic::on_unimplemented(
    message = "a handler of this contract must be an `async` function returning `Result<{R}, pactum::Error>`",
    label = "this function must be `async` (return a future) and resolve to `Result<{R}, pactum::Error>`",
    note = "end with `Ok(value)` of the contract's response type; `?` and `Err(e.into())` turn errors into `pactum::Error`"
)]
pub trait HandlerFuture<R>: Future<Output = Result<R, Error>> + Send + 'static {}

// `do_not_recommend`: a wrong return type reports the message above, not rustc's type mismatch
// on `Future::Output`.
#[diagnostic::do_not_recommend]
impl<R, Fut> HandlerFuture<R> for Fut where Fut: Future<Output = Result<R, Error>> + Send + 'static {}

impl<P, Q, B, R, E, H, C> Handler<P, Q, B, R, E, H, C> {
    /// A handler of `f`, with the middleware bound to it.
    fn with_middleware<F, Fut>(
        endpoint: Endpoint<P, Q, B, R, E, H, C>,
        f: F,
        middleware: Vec<Middleware>,
    ) -> Self
    where
        F: Fn(Ctx<P, Q, B, H, C>) -> Fut + Send + Sync + 'static,
        Fut: HandlerFuture<R>,
        (P, Q, B, R, H, C): 'static,
    {
        let spec = Arc::clone(endpoint.spec());
        Handler {
            endpoint,
            func: Arc::new(Bound {
                f,
                spec,
                answer_size: Default::default(),
                undeclared: Default::default(),
            }),
            middleware,
        }
    }
}

impl<P: 'static, Q: 'static, B: 'static, R: 'static, E, H: 'static, C: 'static> Handler<P, Q, B, R, E, H, C> {
    /// Runs the function with `ctx`: no HTTP, no middleware, no response check. Resolves to
    /// the response value or the function's error (as it returned it: a declared error is not
    /// turned into its answer).
    ///
    /// A handler made by [`bind`] gets its bound state as bound; its providers do not run, so
    /// their values come from the context ([`Ctx::with_provided`]), and one that is missing
    /// is a 500 error.
    ///
    /// # Errors
    ///
    /// The error the function returned.
    pub fn execute(&self, ctx: Ctx<P, Q, B, H, C>) -> impl Future<Output = Result<R, Error>> + Send {
        self.func.execute(ctx)
    }

    /// The contract this handler serves.
    pub fn endpoint(&self) -> &Endpoint<P, Q, B, R, E, H, C> {
        &self.endpoint
    }
}

/// The pipeline's steps for this contract, one at a time: what the criterion benchmarks in
/// `benches/` measure. Not an API: behind the private `__bench` feature.
#[cfg(feature = "__bench")]
#[doc(hidden)]
impl<P: Slot, Q: Slot, B: Slot, R: Slot, E, H: Slot, C: Slot> Handler<P, Q, B, R, E, H, C> {
    /// Deserialises and validates percent-decoded path params, as the pipeline does.
    ///
    /// # Errors
    ///
    /// The pipeline's 400 `Validation failed`.
    #[doc(hidden)]
    pub fn parse_params(&self, params: &[(&str, &str)]) -> Result<P, Error> {
        let raw = crate::request::RawParams {
            pairs: params
                .iter()
                .map(|(name, value)| ((*name).into(), (*value).to_owned()))
                .collect(),
            refused: None,
        };
        crate::decode::params::<P>(&raw)
    }

    /// Parses and validates a raw query string, as the pipeline does.
    ///
    /// # Errors
    ///
    /// The pipeline's 400 `Validation failed`.
    #[doc(hidden)]
    pub fn parse_query(&self, raw: Option<&str>) -> Result<Q, Error> {
        crate::decode::query::<Q>(raw)
    }

    /// Parses and validates a JSON body, as the pipeline does once it is read.
    ///
    /// # Errors
    ///
    /// The pipeline's 400 `Invalid JSON` or `Validation failed`.
    #[doc(hidden)]
    pub fn parse_body(&self, json: &[u8]) -> Result<B, Error> {
        crate::decode::json::<B>(json)
    }

    /// Checks a response value's rules and serialises it into the response, as the pipeline
    /// does after the handler.
    ///
    /// # Errors
    ///
    /// The pipeline's 500 `Response validation failed`.
    #[doc(hidden)]
    pub fn respond(&self, value: &R) -> Result<crate::response::Response, Error> {
        respond::respond(
            self.endpoint.spec(),
            value,
            &mut pipeline_parts::PipelineParts::new(),
            &answer_size::AnswerSize::default(),
        )
    }
}

impl<P, Q, B, R, E, H, C> Clone for Handler<P, Q, B, R, E, H, C> {
    fn clone(&self) -> Self {
        Self {
            endpoint: self.endpoint.clone(),
            func: Arc::clone(&self.func),
            middleware: self.middleware.clone(),
        }
    }
}

impl<P, Q, B, R, E, H, C> fmt::Debug for Handler<P, Q, B, R, E, H, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handler")
            .field("endpoint", &self.endpoint)
            .field("middleware", &self.middleware.len())
            .finish_non_exhaustive()
    }
}

/// A handler of any contract, for the lists adapters serve. Made with `.into()` from a
/// [`Handler`].
///
/// ```
/// # use pactum::{handler, route, handler::AnyHandler, Endpoint};
/// # let health = Endpoint::get(route!("/health")).build().unwrap();
/// # let ready = Endpoint::get(route!("/ready")).build().unwrap();
/// let handlers: Vec<AnyHandler> = vec![
///     handler(health, |_| async { Ok(pactum::contract::NoContent) }).into(),
///     handler(ready, |_| async { Ok(pactum::contract::NoContent) }).into(),
/// ];
/// ```
#[derive(Clone)]
pub struct AnyHandler {
    /// The contract, without its types: what routing and documentation read.
    pub(crate) spec: Arc<EndpointSpec>,
    /// What runs a routed request.
    pub(crate) call: Arc<dyn CallHandler>,
    /// The handler's own middleware, run inside the contract's: outermost first.
    pub(crate) middleware: Vec<Middleware>,
    /// What the OpenAPI document knows of it.
    #[cfg(feature = "openapi")]
    pub(crate) documentation: Documentation,
}

impl fmt::Debug for AnyHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyHandler({} {})", self.spec.method, self.spec.route)
    }
}

impl<P: Slot, Q: Slot, B: Slot, R: Slot, E: ErrorAnswer, H: Slot, C: Slot> From<Handler<P, Q, B, R, E, H, C>>
    for AnyHandler
{
    fn from(handler: Handler<P, Q, B, R, E, H, C>) -> Self {
        let spec = Arc::clone(handler.endpoint.spec());
        Self {
            call: handler.func.for_pipeline(DeclaredType::of::<E>(&spec)),
            spec,
            middleware: handler.middleware,
            #[cfg(feature = "openapi")]
            documentation: Documentation::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::request::Request;
    use crate::route;

    /// The one box a handled request costs stays within glibc's thread cache (1,032 bytes):
    /// larger blocks take malloc's slower path. Grows if a stage of `call::HandlerCall` or the
    /// request's head gets bigger.
    #[test]
    fn a_handler_future_is_small() {
        let endpoint = crate::Endpoint::get(route::static_path("/x"))
            .build()
            .unwrap();
        let handler = super::handler(endpoint, |_| async { Ok(crate::contract::NoContent) });
        let future = super::AnyHandler::from(handler).call.call(Request::probe());
        assert!(std::mem::size_of_val(&*future) < 1024);
        assert!(
            std::mem::size_of::<Request>() <= 400,
            "{}",
            std::mem::size_of::<Request>()
        );
    }
}
