//! [`Call`]: one request being put together, with the compiler tracking which required parts
//! are still missing.

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use http::header::{HeaderName, HeaderValue};
use http::HeaderMap;
use pactum::contract::state::{Absent, Presence};
use pactum::contract::{BodyKind, Format};
use pactum::{
    contract::Slot, error::Detail, error::ErrorAnswer, error::NoErrors, Endpoint, NoCookies,
    NoHeaders,
};

use crate::client::Client;
use crate::credentials::Credentials;
use crate::decode::{decode, Response};
use crate::error::{Error, Part};
use crate::resume::Resume;
use crate::state::{
    BodyNotGiven, BodyReady, CookieParamsNotGiven, CookieParamsReady, Given, HasBody,
    HasCookieParams, HasHeaderParams, HasParams, HasQuery, HeaderParamsNotGiven, HeaderParamsReady,
    ParamsNotGiven, ParamsReady, Provided, QueryNotGiven, QueryReady,
};
use crate::transport::{Prepared, Received};
use url::Url;

/// One call of a contract, being put together. Made by [`Client::call`]; nothing is sent
/// until [`send`](Call::send) is awaited.
///
/// `P`, `Q`, `B`, `R` are the contract's params, query, body and response types, `E` its
/// declared errors (see [`Error::declared`]), `H` and `C` its header and cookie params
/// (tracked by `HS` and `CS` as the other parts are). `PS`, `QS` and `BS` track the params, the query and the body: they start as the contract's
/// [`Presence`](pactum::contract::state::Presence) of each — [`Declared`](pactum::contract::state::Declared) (to be given) or
/// [`Absent`](pactum::contract::state::Absent) (nothing to give) — and a given part becomes [`Provided`]. Each
/// rule below is a bound whose compiler message names the fix:
///
/// - `.params(p)`, `.query(q)`, `.body(b)`, `.header_params(h)` and `.cookie_params(c)`
///   compile only when the contract declares that part, and once per call;
/// - `.send()` compiles only once the params, the body and the header and cookie params
///   (where declared) are given, and the query too unless its type implements `Default` — a
///   query left out is then sent as `Q::default()`;
/// - `.header(..)` and `.timeout(..)` always compile.
///
/// ```compile_fail
/// # use pactum::{route, Endpoint};
/// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate, pactum::Params)] struct UserPath { id: u64 }
/// # let get_user = Endpoint::get(route!("/users/:id")).params::<UserPath>().build().unwrap();
/// # let client = pactum_client::Client::new("http://localhost").unwrap();
/// // error[E0277]: this route has path parameters: call `.params(..)` before `.send()`
/// let future = client.call(&get_user).send();
/// ```
#[must_use = "a call does nothing until `.send().await`"]
pub struct Call<
    'a,
    P,
    Q,
    B,
    R,
    PS,
    QS,
    BS,
    E = NoErrors,
    H = NoHeaders,
    C = NoCookies,
    HS = Absent,
    CS = Absent,
> {
    client: &'a Client,
    endpoint: &'a Endpoint<P, Q, B, R, E, H, C>,
    given_params: Option<P>,
    given_query: Option<Q>,
    given_body: Option<B>,
    given_header_params: Option<H>,
    given_cookie_params: Option<C>,
    headers: HeaderMap,
    credentials: Credentials,
    /// This call's own timeout; `None`: the client's.
    timeout: Option<Duration>,
    error: Option<Error>,
    _state: PhantomData<States<PS, QS, BS, HS, CS>>,
}

/// Keeps `Call` `Send + Sync` whatever its state types.
type States<PS, QS, BS, HS, CS> = fn() -> (PS, QS, BS, (HS, CS));

impl<P, Q, B, R, PS, QS, BS, E, H, C, HS, CS> fmt::Debug
    for Call<'_, P, Q, B, R, PS, QS, BS, E, H, C, HS, CS>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("endpoint", self.endpoint)
            .field("params_given", &self.given_params.is_some())
            .field("query_given", &self.given_query.is_some())
            .field("body_given", &self.given_body.is_some())
            .field("header_params_given", &self.given_header_params.is_some())
            .field("cookie_params_given", &self.given_cookie_params.is_some())
            .field("headers", &self.headers)
            .finish_non_exhaustive()
    }
}

impl<'a, P, Q, B, R, PS, QS, BS, E, H, C, HS, CS>
    Call<'a, P, Q, B, R, PS, QS, BS, E, H, C, HS, CS>
{
    pub(crate) fn new(client: &'a Client, endpoint: &'a Endpoint<P, Q, B, R, E, H, C>) -> Self {
        Self {
            client,
            endpoint,
            given_params: None,
            given_query: None,
            given_body: None,
            given_header_params: None,
            given_cookie_params: None,
            headers: HeaderMap::new(),
            credentials: Credentials::default(),
            timeout: None,
            error: None,
            _state: PhantomData,
        }
    }

    fn retype<PS2, QS2, BS2, HS2, CS2>(
        self,
    ) -> Call<'a, P, Q, B, R, PS2, QS2, BS2, E, H, C, HS2, CS2> {
        Call {
            client: self.client,
            endpoint: self.endpoint,
            given_params: self.given_params,
            given_query: self.given_query,
            given_body: self.given_body,
            given_header_params: self.given_header_params,
            given_cookie_params: self.given_cookie_params,
            headers: self.headers,
            credentials: self.credentials,
            timeout: self.timeout,
            error: self.error,
            _state: PhantomData,
        }
    }

    /// Adds a header to this call, replacing a client default of the same name.
    ///
    /// A malformed name or value is reported by [`send`](Call::send) as a builder error.
    pub fn header<K, V>(mut self, name: K, value: V) -> Self
    where
        K: TryInto<HeaderName>,
        K::Error: Into<http::Error>,
        V: TryInto<HeaderValue>,
        V::Error: Into<http::Error>,
    {
        match crate::error::header_pair(name, value) {
            Ok((name, value)) => {
                self.headers.insert(name, value);
            }
            Err(error) => self.fail(error),
        }
        self
    }

    /// Uses this bearer token for this call, in place of the client's
    /// [`bearer_token`](crate::ClientBuilder::bearer_token). Like the client's, it is sent
    /// only when the contract declares [`Security::bearer`](pactum::Security::bearer).
    pub fn bearer_token(mut self, token: impl fmt::Display) -> Self {
        if let Err(e) = self.credentials.set_bearer(token) {
            self.fail(e);
        }
        self
    }

    /// Uses this API key for this call, in place of the client's
    /// [`api_key`](crate::ClientBuilder::api_key). Like the client's, it is sent only when
    /// the contract declares an API key scheme, in the header the contract names.
    pub fn api_key(mut self, key: impl fmt::Display) -> Self {
        if let Err(e) = self.credentials.set_api_key(key) {
            self.fail(e);
        }
        self
    }

    /// Sets this call's timeout, in place of the client's.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    fn fail(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Gives the path params. They are validated and percent-encoded into the route's
    /// segments when the call is sent (a `/` inside a `:name` value stays in its segment; a
    /// catch-all `*name` value keeps its slashes).
    ///
    /// Compiles only when the contract declares params, once per call. `A` is the contract's
    /// params type `P` (generic only so that a contract without params reports that alone).
    pub fn params<A>(mut self, params: A) -> Call<'a, P, Q, B, R, Provided, QS, BS, E, H, C, HS, CS>
    where
        PS: HasParams + ParamsNotGiven + Given<P, A>,
    {
        self.given_params = PS::given(params);
        self.retype()
    }

    /// Gives the query. It is validated, then serialised with `serde_qs` so that the server
    /// parses the same value back: nested fields as `a[b]=1`, lists as `tags[0]=x&tags[1]=y`.
    ///
    /// Compiles only when the contract declares a query, once per call; `A` is the contract's
    /// query type `Q` (generic only so that a contract without a query reports that alone). A
    /// query whose type implements `Default` may be left out: `Q::default()` is sent.
    ///
    /// An empty list is left out of the query string: give list fields `#[serde(default)]`
    /// so that the server reads them back as empty. A `None` is written as a bare key
    /// (`&page&`), which the server reads back as `None`.
    pub fn query<A>(mut self, query: A) -> Call<'a, P, Q, B, R, PS, Provided, BS, E, H, C, HS, CS>
    where
        QS: HasQuery + QueryNotGiven + Given<Q, A>,
    {
        self.given_query = QS::given(query);
        self.retype()
    }

    /// Gives the body. It is validated, then serialised, when the call is sent: as JSON, or
    /// for a [`Multipart`](pactum::upload::Multipart) body as a `multipart/form-data` form (text
    /// fields as text parts, [`FilePart`](pactum::upload::FilePart)s as files), or for a
    /// [`ByteStream`](pactum::upload::ByteStream) made from bytes as `application/octet-stream`.
    ///
    /// Compiles only when the contract declares a body, once per call. `A` is the contract's
    /// body type `B` (generic only so that a contract without a body reports that alone).
    pub fn body<A>(mut self, body: A) -> Call<'a, P, Q, B, R, PS, QS, Provided, E, H, C, HS, CS>
    where
        BS: HasBody + BodyNotGiven + Given<B, A>,
    {
        self.given_body = BS::given(body);
        self.retype()
    }

    /// Gives the header params. They are validated, then sent as headers when the call is
    /// sent: each field under its name, a string as it is, a number or a bool in text, `None`
    /// left out. They replace a header of the same name set with [`header`](Call::header).
    ///
    /// Compiles only when the contract declares header params, once per call; `A` is the
    /// contract's header params type `H` (generic only so that a contract without header
    /// params reports that alone).
    pub fn header_params<A>(
        mut self,
        header_params: A,
    ) -> Call<'a, P, Q, B, R, PS, QS, BS, E, H, C, Provided, CS>
    where
        HS: HasHeaderParams + HeaderParamsNotGiven + Given<H, A>,
    {
        self.given_header_params = HS::given(header_params);
        self.retype()
    }

    /// Gives the cookie params. They are validated, then sent in the `Cookie` header when the
    /// call is sent (`name=value` pairs, after a `Cookie` set with [`header`](Call::header)),
    /// a number or a bool in text, `None` left out.
    ///
    /// Compiles only when the contract declares cookie params, once per call; `A` is the
    /// contract's cookie params type `C` (generic only so that a contract without cookie
    /// params reports that alone).
    pub fn cookie_params<A>(
        mut self,
        cookie_params: A,
    ) -> Call<'a, P, Q, B, R, PS, QS, BS, E, H, C, HS, Provided>
    where
        CS: HasCookieParams + CookieParamsNotGiven + Given<C, A>,
    {
        self.given_cookie_params = CS::given(cookie_params);
        self.retype()
    }
}

impl<P, Q, B, R, PS, QS, BS, E, H, C, HS, CS> Call<'_, P, Q, B, R, PS, QS, BS, E, H, C, HS, CS>
where
    P: Slot,
    Q: Slot,
    B: Slot,
    R: Slot,
    E: ErrorAnswer,
    H: Slot,
    C: Slot,
{
    /// Validates what is given, sends the request, and decodes the answer into the contract's
    /// response type, validating it.
    ///
    /// Compiles only when the params, the query, the body, the header params and the cookie
    /// params are ready: given, or not declared — or, for a query, header params or cookie
    /// params whose type implements `Default`, left out (the default is sent).
    ///
    /// # Errors
    ///
    /// - [`Error::is_validation`] with [`Part::Params`], [`Part::Query`] or [`Part::Body`]
    ///   when what was given breaks its rules — nothing is sent;
    /// - [`Error::is_status`] for a non-2xx answer, with the decoded error body, and
    ///   [`Error::declared`] holding the contract's declared error when it is one;
    /// - [`Error::is_decode`] when a 2xx body is not the response type;
    /// - [`Error::is_validation`] with [`Part::Response`] when the response breaks its rules;
    /// - [`Error::is_transport`] / [`Error::is_timeout`] when the request could not be carried
    ///   out; [`Error::is_builder`] for a malformed header or an unencodable value.
    pub async fn send(self) -> Result<R, Error<E>>
    where
        PS: ParamsReady,
        QS: QueryReady<Q>,
        BS: BodyReady,
        HS: HeaderParamsReady<H>,
        CS: CookieParamsReady<C>,
    {
        self.with_defaults::<QS, HS, CS>()
            .send_inner()
            .await
            .map(Response::into_value)
    }

    /// Like [`send`](Call::send), but also returns the answer's status and headers (a
    /// `Location`, a rate limit).
    ///
    /// # Errors
    ///
    /// As [`send`](Call::send).
    pub async fn send_full(self) -> Result<Response<R>, Error<E>>
    where
        PS: ParamsReady,
        QS: QueryReady<Q>,
        BS: BodyReady,
        HS: HeaderParamsReady<H>,
        CS: CookieParamsReady<C>,
    {
        self.with_defaults::<QS, HS, CS>().send_inner().await
    }

    /// The call with the defaults of what was left out: a query, header params or cookie
    /// params of a type with `Default` (none for what is given or not declared).
    fn with_defaults<QR, HR, CR>(mut self) -> Self
    where
        QR: QueryReady<Q>,
        HR: HeaderParamsReady<H>,
        CR: CookieParamsReady<C>,
    {
        self.given_query = self.given_query.or_else(QR::default_query);
        self.given_header_params = self.given_header_params.or_else(HR::default_header_params);
        self.given_cookie_params = self.given_cookie_params.or_else(CR::default_cookie_params);
        self
    }

    async fn send_inner(self) -> Result<Response<R>, Error<E>> {
        let base = self.client.base_url();
        let client = self.client;
        let (received, target, again) = self.exchange().await.map_err(Error::typed)?;
        if let Some(declared) =
            Error::of_declared(received.status, &received.headers, &received.body)
        {
            return Err(declared.with_url(|| target.url(base)));
        }
        let resume = again.map(|request| Resume {
            client: client.clone(),
            request,
        });
        decode(received, resume).map_err(|e| e.with_url(|| target.url(base)).typed())
    }

    /// Validates, encodes and sends the call: the answer, where it went, and, for an event
    /// stream, the request to send again to resume it.
    async fn exchange(self) -> Result<(Received, Target, Option<Box<Prepared>>), Error> {
        let Self {
            client,
            endpoint,
            given_params: params,
            given_query: query,
            given_body: body,
            given_header_params: header_params,
            given_cookie_params: cookie_params,
            mut headers,
            credentials,
            timeout,
            error,
            ..
        } = self;
        if let Some(error) = error {
            return Err(error);
        }
        crate::credentials::attach(
            endpoint.security(),
            &credentials,
            &client.inner.credentials,
            &client.inner.headers,
            &mut headers,
        )?;
        if let Some(header_params) = &header_params {
            check(Part::HeaderParams, header_params)?;
            crate::request_params::set_headers(header_params, &mut headers)?;
        }
        if let Some(cookie_params) = &cookie_params {
            check(Part::CookieParams, cookie_params)?;
            crate::request_params::add_cookies(cookie_params, &mut headers)?;
        }
        if let Some(params) = &params {
            check(Part::Params, params)?;
        }
        let path = crate::url::path(endpoint, params.as_ref())?;
        let query = match &query {
            Some(query) => {
                check(Part::Query, query)?;
                crate::url::encode_query(query)?
            }
            None => String::new(),
        };
        let mut content_type = None;
        let body = match &body {
            Some(body) if <B::Presence as Presence>::DECLARED => {
                check(Part::Body, body)?;
                if matches!(B::BODY, BodyKind::Json) {
                    let bytes = serde_json::to_vec(body).map_err(|e| {
                        Error::builder(format!("the body cannot be serialised as JSON: {e}"))
                    })?;
                    Some(bytes)
                } else {
                    // A multipart form or a byte stream: pactum writes it.
                    let encoded = body.encode_body().map_err(Error::builder)?;
                    content_type = Some(encoded.content_type);
                    Some(Vec::from(encoded.bytes))
                }
            }
            _ => None,
        };
        let base = client.base_url();
        let target = Target { path, query };
        let request = Prepared {
            method: endpoint.method().clone(),
            url: target.url(base),
            headers,
            body,
            content_type,
            timeout,
            stream_body: matches!(R::FORMAT, Format::Download),
        };
        // A constant per response type: other calls clone nothing (and carry a null pointer).
        let again = matches!(R::FORMAT, Format::EventStream).then(|| Box::new(request.clone()));
        match client.execute(request).await {
            Ok(received) => Ok((received, target, again)),
            Err(error) => Err(error.with_url(|| target.url(base))),
        }
    }
}

/// Where a call went: its path and query string, under the client's base URL. The URL is
/// built once for the request; an error that needs it builds it again (no copy kept per call).
struct Target {
    path: String,
    query: String,
}

impl Target {
    fn url(&self, base: &Url) -> Url {
        crate::url::join(base, &self.path, &self.query)
    }
}

fn check<T: Slot>(part: Part, value: &T) -> Result<(), Error> {
    value
        .check()
        .map_err(|errors| Error::validation(part, Detail::from_validation(&errors)))
}

/// A call as [`Client::call`] starts it: each part's state is the contract's presence of it.
type Started<'a, P, Q, B, R, E, H, C> = Call<
    'a,
    P,
    Q,
    B,
    R,
    <P as Slot>::Presence,
    <Q as Slot>::Presence,
    <B as Slot>::Presence,
    E,
    H,
    C,
    <H as Slot>::Presence,
    <C as Slot>::Presence,
>;

impl Client {
    /// Starts a call of `endpoint`.
    ///
    /// The call's type tracks what the contract requires: `.params(..)`, `.query(..)`,
    /// `.body(..)`, `.header_params(..)` and `.cookie_params(..)` compile only when the
    /// contract declares that part, once each, and `.send()` compiles only once the params,
    /// the body, the header and cookie params and a query without a `Default` (where
    /// declared) are given. See [`Call`].
    pub fn call<'a, P, Q, B, R, E, H, C>(
        &'a self,
        endpoint: &'a Endpoint<P, Q, B, R, E, H, C>,
    ) -> Started<'a, P, Q, B, R, E, H, C>
    where
        P: Slot,
        Q: Slot,
        B: Slot,
        R: Slot,
        H: Slot,
        C: Slot,
    {
        Call::new(self, endpoint)
    }
}
