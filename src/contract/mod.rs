//! The contract: one HTTP operation described as data, shared by server and client.

mod answer;
mod body_kind;
mod builder;
mod declared_errors;
mod download;
mod errors;
pub(crate) mod event;
pub(crate) mod events;
mod http_errors;
pub mod method;
pub(crate) mod raw_event;
mod settings;
mod slot;
mod streamed;
mod with_headers;

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use http::{Method, StatusCode};

pub use crate::security::{Security, SecurityScheme};
pub use answer::{Binary, Redirect, Text};
#[doc(hidden)]
pub use body_kind::{BodyKind, EncodedBody};
pub use builder::EndpointBuilder;
pub use download::Download;
#[doc(hidden)]
pub use slot::{BodyReader, Chunks, EventItems, StreamWriter};
pub use slot::{
    Format, NoBody, NoContent, NoCookies, NoHeaders, NoParams, NoQuery, RawAnswer, Slot,
};
#[doc(hidden)]
pub use streamed::{ByteChunks, StreamedAnswer};
#[doc(hidden)]
pub use with_headers::text_fields;
pub use with_headers::WithHeaders;

pub(crate) use slot::{Declared, Presence};

/// The typestate of a contract and its builder: which slots are declared. These names appear
/// in types and compiler messages; code rarely writes them.
pub mod state {
    pub use super::builder::{
        BodyUnset, CookiesUnset, HeadersUnset, ParamsFit, ParamsUnset, QueryUnset, ResponseUnset,
    };
    pub use super::errors::ErrorsUnset;
    pub use super::slot::{Absent, Declared, Presence};
}

use crate::error::{Error, HttpError, NoErrors};
use crate::route::RouteTemplate;

pub(crate) use settings::Settings;

/// One HTTP operation: method, route, and the types of its params `P`, query `Q`, JSON body
/// `B` and response `R` (JSON, or [`Text`], [`Binary`], [`Redirect`]), with their validation
/// rules and middleware, and its declared errors `E` ([`EndpointBuilder::errors`]).
///
/// Built with [`Endpoint::get`], [`Endpoint::post`], [`Endpoint::put`], [`Endpoint::patch`]
/// or [`Endpoint::delete`]. Cheap to clone (one `Arc`), `Send + Sync + 'static`, and usable
/// from a `static` `LazyLock`. The same value serves requests ([`handler`](crate::handler()))
/// and makes them (the `pactum-client` crate).
///
/// ```
/// use pactum::{route, Endpoint, Params};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate, Params)]
/// struct UserPath { id: u64 }
///
/// #[derive(Serialize, Deserialize, Validate)]
/// struct User {
///     id: u64,
///     #[validate(length(min = 1))]
///     name: String,
/// }
///
/// let get_user = Endpoint::get(route!("/users/:id"))
///     .params::<UserPath>()
///     .response::<User>()
///     .build()?;
/// assert_eq!(get_user.path_for(&UserPath { id: 7 })?, "/users/7");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Forbidden states do not compile — a GET with a body, a pattern route without params, a
/// slot declared twice:
///
/// ```compile_fail
/// # use pactum::{route, Endpoint};
/// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)] struct NewUser { name: String }
/// let bad = Endpoint::get(route!("/users")).body::<NewUser>();
/// ```
pub struct Endpoint<
    P = NoParams,
    Q = NoQuery,
    B = NoBody,
    R = NoContent,
    E = NoErrors,
    H = NoHeaders,
    C = NoCookies,
> {
    spec: Arc<EndpointSpec>,
    _types: PhantomData<Slots<P, Q, B, R, E, H, C>>,
}

/// Keeps `Endpoint` `Send + Sync` and covariant whatever its slot types.
type Slots<P, Q, B, R, E, H, C> = fn() -> (P, Q, (B, R, E), (H, C));

/// The type-erased part of a contract: everything but the four types.
#[derive(Debug, Clone)]
pub(crate) struct EndpointSpec {
    pub(crate) method: Method,
    pub(crate) route: RouteTemplate,
    pub(crate) settings: Settings,
    /// How the response travels.
    pub(crate) format: Format,
    /// The success status, worked out once when the contract is built.
    success: StatusCode,
    /// The declared errors, if any (`errors.rs`).
    pub(crate) errors: Option<declared_errors::DeclaredErrors>,
    /// The header params' names (lowercase), when the contract declares them.
    pub(crate) header_names: &'static [&'static str],
    /// The cookie params' names, when the contract declares them.
    pub(crate) cookie_names: &'static [&'static str],
}

impl EndpointSpec {
    /// `has_response`: the contract declares a response type.
    pub(crate) fn new(
        method: Method,
        route: RouteTemplate,
        settings: Settings,
        has_response: bool,
        format: Format,
    ) -> Self {
        let success = match settings.status {
            Some(status) => status,
            None if format == Format::Redirect => StatusCode::SEE_OTHER,
            None if method == Method::POST => StatusCode::CREATED,
            None if !has_response => StatusCode::NO_CONTENT,
            None => StatusCode::OK,
        };
        Self {
            method,
            route,
            settings,
            format,
            success,
            errors: None,
            header_names: &[],
            cookie_names: &[],
        }
    }

    pub(crate) fn success_status(&self) -> StatusCode {
        self.success
    }
}

impl<P, Q, B, R, E, H, C> Endpoint<P, Q, B, R, E, H, C> {
    pub(crate) fn spec(&self) -> &Arc<EndpointSpec> {
        &self.spec
    }

    /// The HTTP method.
    pub fn method(&self) -> &Method {
        &self.spec.method
    }

    /// The route.
    pub fn route(&self) -> &RouteTemplate {
        &self.spec.route
    }

    /// The success status: the declared one, else 303 for a [`Redirect`], 201 for POST, 204
    /// for a contract without a response type, else 200.
    pub fn success_status(&self) -> StatusCode {
        self.spec.success_status()
    }

    /// The contract's own body size limit, if it overrides the server's.
    pub fn body_limit(&self) -> Option<usize> {
        self.spec.settings.body_limit
    }

    /// The operation's name, if set.
    pub fn name(&self) -> Option<&str> {
        self.spec.settings.name.as_deref()
    }

    /// The operation's description, if set.
    pub fn description(&self) -> Option<&str> {
        self.spec.settings.description.as_deref()
    }

    /// The operation's one-line summary, if set.
    pub fn summary(&self) -> Option<&str> {
        self.spec.settings.summary.as_deref()
    }

    /// The operation's tags, in the order they were added.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.spec.settings.tags.iter().map(|tag| &**tag)
    }

    /// The credentials the contract requires ([`EndpointBuilder::security`]): empty when it
    /// requires none, else any one of them.
    pub fn security(&self) -> &[Security] {
        &self.spec.settings.security
    }
}

impl<P: Slot, Q, B, R, E, H, C> Endpoint<P, Q, B, R, E, H, C> {
    /// The request path for `params`: each value percent-encoded into its segment (a
    /// catch-all keeps its slashes). This is how the typed client builds URLs.
    ///
    /// # Errors
    ///
    /// A 400 `Validation failed` error when `params` does not serialise to an object holding a
    /// scalar value for every param of the route.
    pub fn path_for(&self, params: &P) -> Result<String, Error> {
        let value = if <P::Presence as Presence>::DECLARED {
            serde_json::to_value(params)?
        } else {
            serde_json::Value::Null
        };
        self.spec.route.render_json(&value).map_err(|missing| {
            HttpError::validation(Vec::new())
                .with_detail(
                    vec![missing.name().into()],
                    "must be a string, number or bool",
                )
                .into()
        })
    }
}

impl<P, Q, B, R, E, H, C> Clone for Endpoint<P, Q, B, R, E, H, C> {
    fn clone(&self) -> Self {
        Self {
            spec: Arc::clone(&self.spec),
            _types: PhantomData,
        }
    }
}

impl<P, Q, B, R, E, H, C> fmt::Debug for Endpoint<P, Q, B, R, E, H, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("method", &self.spec.method)
            .field("route", &self.spec.route.as_str())
            .field("params", &std::any::type_name::<P>())
            .field("query", &std::any::type_name::<Q>())
            .field("body", &std::any::type_name::<B>())
            .field("response", &std::any::type_name::<R>())
            .field("errors", &std::any::type_name::<E>())
            .field("header_params", &std::any::type_name::<H>())
            .field("cookie_params", &std::any::type_name::<C>())
            .finish()
    }
}
