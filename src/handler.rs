//! Handlers: an async function bound to a contract.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};
use http::StatusCode;

use crate::context::{Ctx, ResponseParts};
use crate::contract::{Endpoint, EndpointSpec, Presence, Slot};
use crate::decode;
use crate::error::{Error, Rejection};
use crate::request::{BoxFuture, CallHandler, Request};
use crate::response::Response;
use crate::validation::details_from_rules;

type HandlerFn<P, Q, B, R> = dyn Fn(Ctx<P, Q, B>) -> BoxFuture<Result<R, Error>> + Send + Sync;

/// An async function bound to a contract. Made by [`handler()`].
///
/// [`Handler::execute`] runs the function directly (no HTTP, no middleware); convert it into
/// an [`AnyHandler`] to put handlers of different contracts into one list for an adapter.
pub struct Handler<P, Q, B, R> {
    endpoint: Endpoint<P, Q, B, R>,
    func: Arc<HandlerFn<P, Q, B, R>>,
}

/// Binds an async function to a contract.
///
/// The function receives a [`Ctx`] holding the parsed, validated params, query and body, and
/// returns the response value or an [`Error`]: `?` works on any `std::error::Error` and on
/// [`HttpError`](crate::HttpError).
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
pub fn handler<P, Q, B, R, F, Fut>(endpoint: Endpoint<P, Q, B, R>, f: F) -> Handler<P, Q, B, R>
where
    F: Fn(Ctx<P, Q, B>) -> Fut + Send + Sync + 'static,
    Fut: HandlerFuture<R>,
{
    Handler {
        endpoint,
        func: Arc::new(move |ctx| Box::pin(f(ctx))),
    }
}

/// The future a handler's function returns: `Send + 'static`, resolving to
/// `Result<R, pactum::Error>`. A bound of [`handler()`], here for its compiler message.
#[diagnostic::on_unimplemented(
    message = "a handler of this contract must return `Result<{R}, pactum::Error>`",
    label = "the function's future must resolve to `Result<{R}, pactum::Error>`",
    note = "end with `Ok(value)` of the contract's response type; `?` and `Err(e.into())` turn errors into `pactum::Error`"
)]
pub trait HandlerFuture<R>: Future<Output = Result<R, Error>> + Send + 'static {}

// `do_not_recommend`: a wrong return type reports the message above, not rustc's type mismatch
// on `Future::Output`.
#[diagnostic::do_not_recommend]
impl<R, Fut> HandlerFuture<R> for Fut where Fut: Future<Output = Result<R, Error>> + Send + 'static {}

impl<P, Q, B, R> Handler<P, Q, B, R> {
    /// Runs the function with `ctx`: no HTTP, no middleware, no response check. Resolves to
    /// the response value or the function's error.
    ///
    /// # Errors
    ///
    /// The error the function returned.
    pub fn execute(&self, ctx: Ctx<P, Q, B>) -> impl Future<Output = Result<R, Error>> + Send {
        (self.func)(ctx)
    }

    /// The contract this handler serves.
    pub fn endpoint(&self) -> &Endpoint<P, Q, B, R> {
        &self.endpoint
    }
}

/// The pipeline's steps for this contract, one at a time: what the criterion benchmarks in
/// `benches/` measure. Not an API: behind the private `__bench` feature.
#[cfg(feature = "__bench")]
#[doc(hidden)]
impl<P: Slot, Q: Slot, B: Slot, R: Slot> Handler<P, Q, B, R> {
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
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
            refused: None,
        };
        decode::params::<P>(&raw)
    }

    /// Parses and validates a raw query string, as the pipeline does.
    ///
    /// # Errors
    ///
    /// The pipeline's 400 `Validation failed`.
    #[doc(hidden)]
    pub fn parse_query(&self, raw: Option<&str>) -> Result<Q, Error> {
        decode::query::<Q>(raw)
    }

    /// Parses and validates a JSON body, as the pipeline does once it is read.
    ///
    /// # Errors
    ///
    /// The pipeline's 400 `Invalid JSON` or `Validation failed`.
    #[doc(hidden)]
    pub fn parse_body(&self, json: &[u8]) -> Result<B, Error> {
        decode::json::<B>(json)
    }

    /// Checks a response value's rules and serialises it into the response, as the pipeline
    /// does after the handler.
    ///
    /// # Errors
    ///
    /// The pipeline's 500 `Response validation failed`.
    #[doc(hidden)]
    pub fn respond(&self, value: &R) -> Result<Response, Error> {
        respond(self.endpoint.spec(), value, &ResponseParts::default())
    }
}

impl<P, Q, B, R> Clone for Handler<P, Q, B, R> {
    fn clone(&self) -> Self {
        Self {
            endpoint: self.endpoint.clone(),
            func: Arc::clone(&self.func),
        }
    }
}

impl<P, Q, B, R> fmt::Debug for Handler<P, Q, B, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handler")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

/// A handler of any contract, for the lists adapters serve. Made with `.into()` from a
/// [`Handler`].
///
/// ```
/// # use pactum::{handler, route, AnyHandler, Endpoint};
/// # let health = Endpoint::get(route!("/health")).build().unwrap();
/// # let ready = Endpoint::get(route!("/ready")).build().unwrap();
/// let handlers: Vec<AnyHandler> = vec![
///     handler(health, |_| async { Ok(pactum::NoContent) }).into(),
///     handler(ready, |_| async { Ok(pactum::NoContent) }).into(),
/// ];
/// ```
#[derive(Clone)]
pub struct AnyHandler {
    /// The contract, without its types: what routing and documentation read.
    pub(crate) spec: Arc<EndpointSpec>,
    /// What runs a routed request.
    pub(crate) call: Arc<dyn CallHandler>,
}

impl fmt::Debug for AnyHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyHandler({} {})", self.spec.method, self.spec.route)
    }
}

impl<P: Slot, Q: Slot, B: Slot, R: Slot> From<Handler<P, Q, B, R>> for AnyHandler {
    fn from(handler: Handler<P, Q, B, R>) -> Self {
        Self {
            spec: Arc::clone(handler.endpoint.spec()),
            call: Arc::new(handler),
        }
    }
}

/// The pipeline's view of a handler: parse, validate, call, check, serialise.
impl<P: Slot, Q: Slot, B: Slot, R: Slot> CallHandler for Handler<P, Q, B, R> {
    fn call(self: Arc<Self>, req: Request) -> BoxFuture<Result<Response, Error>> {
        Box::pin(async move {
            let Request {
                head,
                url,
                params,
                body,
                body_limit,
                ..
            } = req;
            let params = decode::params::<P>(&params)?;
            let query = decode::query::<Q>(head.uri.query())?;
            let body = decode::body::<B>(&head.headers, body, body_limit).await?;
            let response = ResponseParts::default();
            let ctx = Ctx::of_request(params, query, body, head, url, response.clone());
            let value = (self.func)(ctx).await?;
            respond(self.endpoint.spec(), &value, &response)
        })
    }
}

/// Checks the response value's rules and serialises it, once, straight to bytes.
fn respond<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    parts: &ResponseParts,
) -> Result<Response, Error> {
    if let Err(errors) = value.check() {
        let details = details_from_rules(&errors);
        tracing::error!(route = %spec.route, ?details, "response failed its rules");
        return Err(Rejection::ResponseValidationFailed.error().into());
    }
    let parts = parts.take();
    let status = parts.status.unwrap_or_else(|| spec.success_status());
    let has_body = <R::Presence as Presence>::DECLARED
        && status != StatusCode::NO_CONTENT
        && status != StatusCode::NOT_MODIFIED;
    let body = if has_body {
        Bytes::from(serde_json::to_vec(value).map_err(|e| {
            Rejection::ResponseSerializationFailed
                .error()
                .with_source(e)
        })?)
    } else {
        Bytes::new()
    };
    let mut response = http::Response::new(body);
    *response.status_mut() = status;
    if has_body {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    if !parts.headers.is_empty() {
        response.headers_mut().extend(parts.headers);
    }
    Ok(response)
}
