//! [`ConfigError`]: a contract or a router that cannot work, reported at start-up.

use std::fmt;

use http::{Method, StatusCode};

/// A contract or handler list that cannot be served, found when it is built.
///
/// This is the one error meant to be matched on: each variant names the route and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The route template is malformed (e.g. it does not start with `/`, has an empty
    /// `:name`, a repeated name, or a catch-all that is not the last segment).
    InvalidRoute {
        /// The route as written.
        route: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The params type's field names differ from the route's `:name`/`*name` segments.
    RouteParamsMismatch {
        /// The route as written.
        route: String,
        /// The names the route declares.
        route_names: Vec<String>,
        /// The field names of the params type.
        params_fields: Vec<String>,
    },
    /// Two handlers have the same method and route.
    DuplicateRoute {
        /// The method both handlers declare.
        method: Method,
        /// The route both handlers declare.
        route: String,
    },
    /// Two routes cannot live in one router (e.g. `/users/:id` and `/users/:name`).
    ConflictingRoutes {
        /// The route that was being added.
        route: String,
        /// The router's explanation.
        reason: String,
    },
    /// A contract answering [`Redirect`](crate::contract::Redirect) declares a status that is not a
    /// redirect: 301, 302, 303, 307 or 308.
    RedirectStatus {
        /// The route as written.
        route: String,
        /// The status the contract declares.
        status: StatusCode,
    },
    /// A contract's declared errors ([`ErrorAnswer`](crate::error::ErrorAnswer)) list no status, or
    /// a status outside `400..=599`.
    ErrorStatus {
        /// The route as written.
        route: String,
        /// The declared error type.
        error_type: &'static str,
        /// The status that is not an error status; `None` when the list is empty.
        status: Option<StatusCode>,
    },
    /// A contract declares a [`Security`](crate::Security) scheme and nothing around its
    /// handler verifies the credential: the pipeline would answer 401 to a request without
    /// one, and let any token in. Found when the pipeline is built, so a server that would
    /// fail open does not start.
    ///
    /// Fix it by binding to the handler a provider or middleware marked as verifying the
    /// scheme ([`Provider::verifies`](crate::middleware::Provider::verifies),
    /// [`Middleware::verifies`](crate::middleware::Middleware::verifies)), marking a
    /// server-wide or contract middleware so, or — when a gateway, a tower layer or a warp
    /// filter verifies it before the pipeline sees the request — saying so with
    /// [`PipelineBuilder::security_verified_elsewhere`](crate::pipeline::PipelineBuilder::security_verified_elsewhere).
    UnverifiedSecurity {
        /// The method of the handler.
        method: Method,
        /// The route as written.
        route: String,
        /// The [name](crate::Security::name) of the scheme nothing verifies.
        scheme: String,
    },
    /// A contract's header or cookie params type cannot be read from a request: it is not a
    /// plain struct (a map, a `#[serde(flatten)]` struct, a tuple), or a field's name is not
    /// one a request can carry — a header name in lowercase (`x-signature`: use
    /// `#[serde(rename_all = "kebab-case")]`), or a cookie name.
    InvalidParamNames {
        /// The route as written.
        route: String,
        /// `"header"` or `"cookie"`.
        location: &'static str,
        /// What is wrong, with the field's name.
        reason: String,
    },
    /// An OpenAPI document is built from a handler list
    /// ([`OpenApi::handlers`](crate::openapi::OpenApi::handlers)) that holds handlers it
    /// cannot describe: converted with `.into()`, which erases their types. They would be
    /// served undocumented.
    ///
    /// Fix it by converting each with `.documented()` (or `.undocumented()` to leave it out
    /// of the document on purpose).
    Undocumented {
        /// Each handler the document cannot describe, as `METHOD /route`.
        handlers: Vec<String>,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Undocumented { handlers } => write!(
                f,
                "the OpenAPI document cannot describe {}: make each with `.documented()` \
                 instead of `.into()` (or `.undocumented()` to leave it out)",
                handlers.join(", ")
            ),
            Self::InvalidRoute { route, reason } => write!(f, "invalid route `{route}`: {reason}"),
            Self::InvalidParamNames {
                route,
                location,
                reason,
            } => write!(f, "route `{route}` declares {location} params that cannot be read: {reason}"),
            Self::RouteParamsMismatch {
                route,
                route_names,
                params_fields,
            } => write!(
                f,
                "route `{route}` has params {route_names:?} but the params type has fields {params_fields:?}"
            ),
            Self::DuplicateRoute { method, route } => {
                write!(f, "two handlers for `{method} {route}`")
            }
            Self::ConflictingRoutes { route, reason } => {
                write!(f, "route `{route}` conflicts with another route: {reason}")
            }
            Self::RedirectStatus { route, status } => write!(
                f,
                "route `{route}` answers a redirect with status {status}: use 301, 302, 303, 307 or 308"
            ),
            Self::ErrorStatus {
                route,
                error_type,
                status: None,
            } => write!(
                f,
                "route `{route}` declares errors `{error_type}` with no status: list them in `ErrorAnswer::STATUSES`"
            ),
            Self::ErrorStatus {
                route,
                error_type,
                status: Some(status),
            } => write!(
                f,
                "route `{route}` declares errors `{error_type}` with status {status}: declared errors answer 400 to 599"
            ),
            Self::UnverifiedSecurity {
                method,
                route,
                scheme,
            } => write!(
                f,
                "`{method} {route}` declares the security scheme `{scheme}` but nothing verifies its credential, so any token would be let in: bind a provider or middleware marked `.verifies(..)` for it (or a server-wide one), or call `PipelineBuilder::security_verified_elsewhere(..)` if a gateway or outer layer verifies it"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}
