//! [`EndpointBuilder`]: the typestate builder behind [`Endpoint::get`] and friends.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use http::{Method, StatusCode};

use super::declared_errors::DeclaredErrors;
use super::method::{AllowsBody, ContractMethod, Delete, Get, Patch, Post, Put};
use super::slot::{Declared, NoBody, NoContent, NoCookies, NoHeaders, NoParams, NoQuery, Slot};
use super::{Endpoint, EndpointSpec, Security, Settings};
use crate::de::field_names::struct_fields;
use crate::error::{ConfigError, ErrorAnswer, NoErrors};
use crate::route::{Dynamic, FitsRoute, HasParams, Pattern, Route, RouteTemplate, Static};

/// Builds an [`Endpoint`]. Made by [`Endpoint::get`], [`Endpoint::post`], ….
///
/// The type parameters track what is declared: the method `M` and route kind `K` are fixed
/// at the start; params `P`, query `Q`, body `B`, response `R`, errors `E`, header params `H`
/// and cookie params `C` start empty and can each be declared once. [`EndpointBuilder::build`]
/// checks the route, the params' names and the header and cookie names.
#[must_use = "call `.build()` to get the endpoint"]
pub struct EndpointBuilder<
    M,
    K,
    P = NoParams,
    Q = NoQuery,
    B = NoBody,
    R = NoContent,
    E = NoErrors,
    H = NoHeaders,
    C = NoCookies,
> {
    route: Cow<'static, str>,
    dot_segments_allowed: bool,
    /// `pub(crate)`: `field_limit` (`crate::upload`) sets a multipart body's limits.
    pub(crate) settings: Settings,
    _types: Marker<M, K, P, Q, B, R, E, H, C>,
}

/// Keeps the builder `Send + Sync` and covariant whatever its type parameters.
type Marker<M, K, P, Q, B, R, E, H, C> = PhantomData<fn() -> (M, K, (P, Q, B, R, E), (H, C))>;

impl<M, K, P, Q, B, R, E, H, C> std::fmt::Debug for EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndpointBuilder")
            .field("route", &self.route)
            .finish_non_exhaustive()
    }
}

macro_rules! start {
    ($($(#[$doc:meta])* $fn:ident => $marker:ident;)*) => {
        impl Endpoint {
            $(
                $(#[$doc])*
                pub fn $fn<K: Route>(route: K) -> EndpointBuilder<$marker, K> {
                    EndpointBuilder {
                        dot_segments_allowed: route.allows_dot_segments(),
                        route: route.into_path(),
                        settings: Settings::default(),
                        _types: PhantomData,
                    }
                }
            )*
        }
    };
}

start! {
    /// Starts a `GET` contract on `route`.
    ///
    /// ```
    /// use pactum::{route, Endpoint};
    ///
    /// let health = Endpoint::get(route!("/health")).build().unwrap();
    /// assert_eq!(health.route().as_str(), "/health");
    /// ```
    get => Get;
    /// Starts a `POST` contract on `route`.
    post => Post;
    /// Starts a `PUT` contract on `route`.
    put => Put;
    /// Starts a `PATCH` contract on `route`.
    patch => Patch;
    /// Starts a `DELETE` contract on `route`.
    delete => Delete;
}

/// The params slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the params type is already declared: remove the second `.params::<T>()`",
    label = "a contract has one params type"
)]
pub trait ParamsUnset {}

/// The query slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the query type is already declared: remove the second `.query::<T>()`",
    label = "a contract has one query type"
)]
pub trait QueryUnset {}

/// The body slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the body type is already declared: remove the second `.body::<T>()`",
    label = "a contract has one body type"
)]
pub trait BodyUnset {}

/// The header params slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the header params type is already declared: remove the second `.headers::<T>()`",
    label = "a contract has one header params type"
)]
pub trait HeadersUnset {}

/// The cookie params slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the cookie params type is already declared: remove the second `.cookies::<T>()`",
    label = "a contract has one cookie params type"
)]
pub trait CookiesUnset {}

/// The response slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the response type is already declared: remove the second `.response::<T>()`",
    label = "a contract has one response type"
)]
pub trait ResponseUnset {}

/// The route kind accepts a params slot whose presence is `Pr`: a static route takes none
/// (`.params()` is not offered there), a pattern or dynamic route needs one.
#[diagnostic::on_unimplemented(
    message = "this route has path parameters: declare them with `.params::<T>()` before `.build()`",
    label = "the route's `:name` / `*name` segments need a params type"
)]
pub trait ParamsFit<Pr> {}

/// The impls behind the traits above, each a blanket impl over a sealed trait marked
/// `#[diagnostic::do_not_recommend]`: a failing bound then reports the public trait's own
/// message, without a list of the types that implement it.
mod sealed {
    use super::{
        Declared, Dynamic, NoBody, NoContent, NoCookies, NoHeaders, NoParams, NoQuery, Pattern,
        Static,
    };

    pub trait EmptyParams {}
    pub trait EmptyQuery {}
    pub trait EmptyBody {}
    pub trait EmptyResponse {}
    pub trait EmptyHeaders {}
    pub trait EmptyCookies {}
    impl EmptyParams for NoParams {}
    impl EmptyQuery for NoQuery {}
    impl EmptyBody for NoBody {}
    impl EmptyResponse for NoContent {}
    impl EmptyHeaders for NoHeaders {}
    impl EmptyCookies for NoCookies {}

    pub trait Fits<Pr> {}
    impl<Pr> Fits<Pr> for Static {}
    impl<L> Fits<Declared> for Pattern<L> {}
    impl<L> Fits<Declared> for Dynamic<L> {}
}

#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyParams> ParamsUnset for T {}
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyQuery> QueryUnset for T {}
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyBody> BodyUnset for T {}
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyResponse> ResponseUnset for T {}
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyHeaders> HeadersUnset for T {}
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyCookies> CookiesUnset for T {}
#[diagnostic::do_not_recommend]
impl<K: sealed::Fits<Pr>, Pr> ParamsFit<Pr> for K {}

impl<M, K, P, Q, B, R, E, H, C> EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
    pub(super) fn retype<P2, Q2, B2, R2, E2, H2, C2>(
        self,
    ) -> EndpointBuilder<M, K, P2, Q2, B2, R2, E2, H2, C2> {
        EndpointBuilder {
            route: self.route,
            dot_segments_allowed: self.dot_segments_allowed,
            settings: self.settings,
            _types: PhantomData,
        }
    }

    /// Declares the params type: a struct whose field names are the route's `:name` and
    /// `*name` segments. Values are percent-decoded, then deserialised (strings coerce to
    /// numbers and bools) and validated.
    ///
    /// On a [`route!`](crate::route!) route, `T` derives [`Params`](crate::Params) and its
    /// field names must be the route's names, in any order: a mismatch is a type error
    /// (`cargo check` and rust-analyzer report it) naming the params type and the fix. A route
    /// made at run time ([`route::pattern`](crate::route::pattern)) is checked by
    /// [`build`](Self::build).
    ///
    /// ```compile_fail,E0277
    /// use pactum::{route, Endpoint, Params};
    /// # use serde::{Deserialize, Serialize}; use validator::Validate;
    /// #[derive(Serialize, Deserialize, Validate, Params)]
    /// struct UserPath { user_id: u64 }
    ///
    /// // error[E0277]: params type `UserPath` does not fit this route: its field names are not
    /// // the route's `:name` segments
    /// let get_user = Endpoint::get(route!("/users/:id")).params::<UserPath>();
    /// ```
    pub fn params<T: Slot>(self) -> EndpointBuilder<M, K, T, Q, B, R, E, H, C>
    where
        K: HasParams + FitsRoute<T>,
        P: ParamsUnset,
    {
        self.retype()
    }

    /// Declares the query type, parsed from the query string with `serde_qs`.
    pub fn query<T: Slot>(self) -> EndpointBuilder<M, K, P, T, B, R, E, H, C>
    where
        Q: QueryUnset,
    {
        self.retype()
    }

    /// Declares the header params: a struct whose fields are request headers, each named as
    /// the header in lowercase (`#[serde(rename_all = "kebab-case")]` turns `x_signature`
    /// into `x-signature`). Read case-insensitively (header names are), strings coerced to
    /// numbers and bools as for the query, then validated: a missing or invalid one is a 400
    /// `Validation failed` naming the header. A header sent twice is read as its values
    /// joined by `, ` (RFC 9110 §5.3). The handler finds the value in
    /// [`ctx.header_params`](crate::Ctx::header_params); the OpenAPI document lists each as
    /// an `in: header` parameter; the typed client requires it (`.header_params(..)`) and
    /// sends it.
    ///
    /// ```
    /// use pactum::{route, Endpoint};
    /// # use serde::{Deserialize, Serialize}; use validator::Validate;
    /// #[derive(Serialize, Deserialize, Validate)]
    /// #[serde(rename_all = "kebab-case")]
    /// struct Signed {
    ///     #[validate(length(min = 64, max = 64))]
    ///     x_signature: String,
    ///     x_attempt: Option<u32>,
    /// }
    ///
    /// let webhook = Endpoint::post(route!("/webhook")).headers::<Signed>().build()?;
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn headers<T: Slot>(self) -> EndpointBuilder<M, K, P, Q, B, R, E, T, C>
    where
        H: HeadersUnset,
    {
        self.retype()
    }

    /// Declares the cookie params: a struct whose fields are cookies of the request's
    /// `Cookie` header, each named as the cookie (names are case-sensitive). Values are read
    /// as sent (a quoted value without its quotes; no percent-decoding), strings coerced to
    /// numbers and bools, then validated: a missing or invalid one is a 400 `Validation
    /// failed` naming the cookie. The handler finds the value in
    /// [`ctx.cookie_params`](crate::Ctx::cookie_params); the OpenAPI document lists each as
    /// an `in: cookie` parameter; the typed client requires it (`.cookie_params(..)`) and
    /// sends it in `Cookie`.
    ///
    /// ```
    /// use pactum::{route, Endpoint};
    /// # use serde::{Deserialize, Serialize}; use validator::Validate;
    /// #[derive(Serialize, Deserialize, Validate)]
    /// struct Session {
    ///     #[validate(length(min = 1))]
    ///     session: String,
    /// }
    ///
    /// let me = Endpoint::get(route!("/me")).cookies::<Session>().build()?;
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn cookies<T: Slot>(self) -> EndpointBuilder<M, K, P, Q, B, R, E, H, T>
    where
        C: CookiesUnset,
    {
        self.retype()
    }

    /// Declares the request body type: a JSON type, or a [`Multipart`](crate::upload::Multipart)
    /// form, or a [`ByteStream`](crate::upload::ByteStream) read as it arrives. Not offered on GET.
    pub fn body<T: Slot>(self) -> EndpointBuilder<M, K, P, Q, T, R, E, H, C>
    where
        M: AllowsBody,
        B: BodyUnset,
    {
        self.retype()
    }

    /// Declares the response type: a JSON type (its rules are checked before it is sent), or
    /// [`Text`](crate::contract::Text), [`Binary`](crate::contract::Binary) or [`Redirect`](crate::contract::Redirect) for
    /// an answer that is not JSON.
    pub fn response<T: Slot>(self) -> EndpointBuilder<M, K, P, Q, B, T, E, H, C>
    where
        R: ResponseUnset,
    {
        self.retype()
    }

    /// Requires a credential ([`Security`]), as data that the server, the typed client and
    /// the OpenAPI document all read:
    ///
    /// - the pipeline answers a request without it 401 `{"error":"Unauthorized"}` (with
    ///   `WWW-Authenticate: Bearer` for a bearer token) before the contract's middleware runs
    ///   and before the query and body are read; verifying the credential stays with the
    ///   server's code (a middleware or provider marked
    ///   [`.verifies(..)`](crate::middleware::Middleware::verifies)), without which the
    ///   pipeline does not start ([`ConfigError::UnverifiedSecurity`](crate::error::ConfigError::UnverifiedSecurity));
    /// - the typed client attaches the credential it holds to this contract's calls;
    /// - the OpenAPI document lists the scheme and the operation's requirement.
    ///
    /// Called several times, it declares alternatives: a request carrying any one of them is
    /// let through (OpenAPI lists one requirement per scheme).
    ///
    /// ```
    /// use pactum::{route, Endpoint, Security};
    /// # use serde::{Deserialize, Serialize}; use validator::Validate;
    /// # #[derive(Serialize, Deserialize, Validate)] struct NewTodo { title: String }
    /// # #[derive(Serialize, Deserialize, Validate)] struct Todo { id: u64, title: String }
    ///
    /// let create = Endpoint::post(route!("/todos"))
    ///     .body::<NewTodo>()
    ///     .response::<Todo>()
    ///     .security(Security::bearer())
    ///     .build()?;
    /// assert_eq!(create.security(), [Security::bearer()]);
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn security(mut self, security: Security) -> Self {
        if !self.settings.security.contains(&security) {
            self.settings.security.push(security);
        }
        self
    }

    /// Overrides the server's body size limit (default 1 MiB) for this contract.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.settings.body_limit = Some(bytes);
        self
    }

    /// Sets the success status (default: 303 for a [`Redirect`](crate::contract::Redirect), 201 for
    /// POST, 204 without a response type, else 200). A redirect's status must be 301, 302,
    /// 303, 307 or 308 ([`ConfigError::RedirectStatus`] otherwise).
    pub fn status(mut self, status: StatusCode) -> Self {
        self.settings.status = Some(status);
        self
    }

    /// Names the operation (used in logs and API docs: the OpenAPI `operationId`).
    pub fn name(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.settings.name = Some(name.into());
        self
    }

    /// Describes the operation (used in API docs).
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.settings.description = Some(description.into());
        self
    }

    /// Sums the operation up in a line (used in API docs: the OpenAPI `summary`).
    pub fn summary(mut self, summary: impl Into<Cow<'static, str>>) -> Self {
        self.settings.summary = Some(summary.into());
        self
    }

    /// Adds a tag that groups the operation in API docs (OpenAPI `tags`); can be called
    /// several times.
    ///
    /// ```
    /// use pactum::{route, Endpoint};
    ///
    /// let health = Endpoint::get(route!("/health"))
    ///     .name("health")
    ///     .summary("Liveness probe")
    ///     .tag("ops")
    ///     .build()?;
    /// assert_eq!(health.tags().collect::<Vec<_>>(), ["ops"]);
    /// assert_eq!(health.summary(), Some("Liveness probe"));
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn tag(mut self, tag: impl Into<Cow<'static, str>>) -> Self {
        self.settings.tags.push(tag.into());
        self
    }

    /// Finishes the contract.
    ///
    /// Compiles only when the params slot fits the route kind: a pattern or dynamic route
    /// needs `.params::<T>()`.
    ///
    /// # Errors
    ///
    /// - [`ConfigError::InvalidRoute`] when the route is malformed or does not fit its kind;
    /// - [`ConfigError::RouteParamsMismatch`] when the params type's field names are not the
    ///   route's param names;
    /// - [`ConfigError::ErrorStatus`] when the declared errors list no status, or one outside
    ///   `400..=599`, or an [`http_error`](Self::http_error) status is outside `400..=599`;
    /// - [`ConfigError::InvalidParamNames`] when the header or cookie params type is not a
    ///   plain struct, or a field's name is not a lowercase header name or a cookie name.
    #[allow(clippy::type_complexity)] // the contract's seven slot types, each named
    pub fn build(self) -> Result<Endpoint<P, Q, B, R, E, H, C>, ConfigError>
    where
        M: ContractMethod,
        K: Route + ParamsFit<P::Presence>,
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot,
        E: ErrorAnswer,
        H: Slot,
        C: Slot,
    {
        let mut route = RouteTemplate::parse(self.route, K::KIND)?;
        route.set_allows_dot_segments(self.dot_segments_allowed);
        check_param_names::<P>(&route)?;
        let mut spec = EndpointSpec::new(
            M::METHOD,
            route,
            self.settings,
            <R::Presence as super::Presence>::DECLARED,
            R::FORMAT,
        );
        let status = spec.success_status();
        if spec.format == super::Format::Redirect && !is_redirect_status(status) {
            return Err(ConfigError::RedirectStatus {
                route: spec.route.as_str().to_owned(),
                status,
            });
        }
        spec.errors = DeclaredErrors::of::<E>(spec.route.as_str())?;
        spec.header_names = param_names::<H>(spec.route.as_str(), ParamLocation::Header)?;
        spec.cookie_names = param_names::<C>(spec.route.as_str(), ParamLocation::Cookie)?;
        spec.settings.check_http_errors(spec.route.as_str())?;
        Ok(Endpoint {
            spec: Arc::new(spec),
            _types: PhantomData,
        })
    }
}

/// The statuses a [`Redirect`](crate::contract::Redirect) answer may have.
fn is_redirect_status(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

/// Where a header or cookie params type's fields are read from.
#[derive(Clone, Copy)]
enum ParamLocation {
    Header,
    Cookie,
}

/// The field names of a header or cookie params type `T` (none when it is not declared),
/// each one a request can carry: a lowercase header name (`http`'s names are lowercase, so
/// another would never be found), or a cookie name (an RFC 6265 token).
fn param_names<T: Slot>(
    route: &str,
    location: ParamLocation,
) -> Result<&'static [&'static str], ConfigError> {
    let (label, fits): (&'static str, fn(&str) -> bool) = match location {
        ParamLocation::Header => ("header", |name| {
            http::HeaderName::from_bytes(name.as_bytes()).is_ok_and(|h| h.as_str() == name)
        }),
        ParamLocation::Cookie => ("cookie", |name| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(&b))
        }),
    };
    let invalid = |reason: String| ConfigError::InvalidParamNames {
        route: route.to_owned(),
        location: label,
        reason,
    };
    if !<T::Presence as super::Presence>::DECLARED {
        return Ok(&[]);
    }
    let Some(fields) = struct_fields::<T>() else {
        return Err(invalid(format!(
            "`{}` is not a plain struct (a map, a flattened struct or a tuple cannot be read)",
            std::any::type_name::<T>()
        )));
    };
    if let Some(name) = fields.iter().find(|name| !fits(name)) {
        let fix = match location {
            ParamLocation::Header => {
                " (header names are lowercase: `#[serde(rename_all = \"kebab-case\")]`)"
            }
            ParamLocation::Cookie => "",
        };
        return Err(invalid(format!("`{name}` is not a {label} name{fix}")));
    }
    Ok(fields)
}

fn check_param_names<P: Slot>(route: &RouteTemplate) -> Result<(), ConfigError> {
    if !<P::Presence as super::Presence>::DECLARED {
        return Ok(());
    }
    let Some(fields) = struct_fields::<P>() else {
        // Not a plain struct (a map, a flattened struct): names are checked per request.
        return Ok(());
    };
    let mut route_names: Vec<&str> = route.param_names().collect();
    let mut field_names: Vec<&str> = fields.to_vec();
    route_names.sort_unstable();
    field_names.sort_unstable();
    if route_names == field_names {
        return Ok(());
    }
    Err(ConfigError::RouteParamsMismatch {
        route: route.as_str().to_owned(),
        route_names: route.param_names().map(str::to_owned).collect(),
        params_fields: fields.iter().map(|f| (*f).to_owned()).collect(),
    })
}

impl<M: ContractMethod, K, P, Q, B, R, E, H, C> EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
    /// The method being declared.
    pub fn method(&self) -> Method {
        M::METHOD
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde::{Deserialize, Serialize};
    use validator::Validate;

    use crate::error::ConfigError;
    use crate::route::static_path;
    use crate::Endpoint;

    #[derive(Serialize, Deserialize, Validate)]
    struct Shouting {
        #[serde(rename = "X-Tenant")]
        tenant: u32,
    }

    #[derive(Serialize, Deserialize, Validate)]
    struct Flattened {
        #[serde(flatten)]
        rest: HashMap<String, String>,
    }

    #[derive(Serialize, Deserialize, Validate)]
    struct Spaced {
        #[serde(rename = "a b")]
        value: String,
    }

    fn reason(error: ConfigError) -> (&'static str, String) {
        match error {
            ConfigError::InvalidParamNames {
                location, reason, ..
            } => (location, reason),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn header_and_cookie_names_a_request_cannot_carry_fail_the_build() {
        let shouting = Endpoint::get(static_path("/a"))
            .headers::<Shouting>()
            .build();
        let (location, why) = reason(shouting.unwrap_err());
        assert_eq!(location, "header");
        assert!(
            why.contains("`X-Tenant`") && why.contains("kebab-case"),
            "{why}"
        );
        let spaced = Endpoint::get(static_path("/a")).cookies::<Spaced>().build();
        assert_eq!(reason(spaced.unwrap_err()).0, "cookie");
        let map = Endpoint::get(static_path("/a"))
            .headers::<Flattened>()
            .build();
        assert!(reason(map.unwrap_err()).1.contains("not a plain struct"));
        // A cookie name may have capitals.
        assert!(Endpoint::get(static_path("/a"))
            .cookies::<Shouting>()
            .build()
            .is_ok());
    }
}
