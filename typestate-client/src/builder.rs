//! [`ClientBuilder`]: a client's settings, checked when it is built; and the constructors of
//! [`Client`] that go through it.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use http::header::{HeaderName, HeaderValue, AUTHORIZATION};
use http::HeaderMap;
#[cfg(feature = "in-process")]
use pactum::Pipeline;
#[cfg(feature = "rustls")]
use rustls::pki_types::CertificateDer;
use url::Url;

#[cfg(feature = "in-process")]
use crate::client::IN_PROCESS_BASE;
use crate::client::{Client, Inner, Transport, DEFAULT_TIMEOUT};
use crate::credentials::Credentials;
use crate::error::Error;
use crate::reconnect::Reconnect;
#[cfg(feature = "rustls")]
use crate::tls;
use crate::url::IntoBaseUrl;

/// The root certificates added to the system's (none can be without TLS).
#[cfg(feature = "rustls")]
type Roots = Vec<CertificateDer<'static>>;
#[cfg(not(feature = "rustls"))]
type Roots = Vec<std::convert::Infallible>;

impl Client {
    /// A client for the server at `base_url`, with the default settings: no default headers,
    /// a [`DEFAULT_TIMEOUT`] of 30 s, HTTPS trusting the system's root certificates.
    ///
    /// The base URL's path is kept: `Client::new("http://host/api")` calls the route `/users`
    /// at `http://host/api/users`.
    ///
    /// # Errors
    ///
    /// A builder error ([`Error::is_builder`]) when `base_url` is not an absolute `http` or
    /// `https` URL, or has a query or a fragment.
    pub fn new(base_url: impl IntoBaseUrl) -> Result<Self, Error> {
        Self::builder().base_url(base_url).build()
    }

    /// A builder, for default headers, a bearer token, a timeout, extra root certificates, or
    /// a `reqwest::Client` of your own.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::new()
    }
}

/// Builds a [`Client`]. Made by [`Client::builder`].
///
/// Setters take and return the builder; a setter that can fail (a malformed header value,
/// certificate or URL) keeps the error, and [`build`](ClientBuilder::build) reports it.
///
/// ```no_run
/// use std::time::Duration;
/// use pactum_client::Client;
///
/// let client = Client::builder()
///     .base_url("https://api.example.com/v1")
///     .bearer_auth("secret-token")
///     .default_header("x-tenant", "acme")
///     .timeout(Duration::from_secs(5))
///     .build()?;
/// # Ok::<(), pactum_client::Error>(())
/// ```
#[must_use = "call `.build()` to get the client"]
pub struct ClientBuilder {
    base: Option<Result<Url, Error>>,
    #[cfg(feature = "in-process")]
    pipeline: Option<Pipeline>,
    reqwest: Option<reqwest::Client>,
    headers: HeaderMap,
    credentials: Credentials,
    timeout: Option<Duration>,
    reconnect: Reconnect,
    roots: Roots,
    configure: Option<ConfigureReqwest>,
    error: Option<Error>,
}

type ConfigureReqwest = Box<dyn FnOnce(reqwest::ClientBuilder) -> reqwest::ClientBuilder + Send>;

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field(
                "base_url",
                &self
                    .base
                    .as_ref()
                    .and_then(|b| b.as_ref().ok())
                    .map(Url::as_str),
            )
            .field("in_process", &self.is_in_process())
            .field("custom_reqwest_client", &self.reqwest.is_some())
            .field("default_headers", &self.headers)
            .field("credentials", &self.credentials)
            .field("timeout", &self.timeout)
            .field("reconnect", &self.reconnect)
            .field("extra_roots", &self.roots.len())
            .field("configure_reqwest", &self.configure.is_some())
            .finish_non_exhaustive()
    }
}

impl Default for ClientBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ClientBuilder {
    /// A builder with the default settings (see [`Client::new`]).
    pub fn new() -> Self {
        Self {
            base: None,
            #[cfg(feature = "in-process")]
            pipeline: None,
            reqwest: None,
            headers: HeaderMap::new(),
            credentials: Credentials::default(),
            timeout: Some(DEFAULT_TIMEOUT),
            reconnect: Reconnect::new(),
            roots: Vec::new(),
            configure: None,
            error: None,
        }
    }

    /// The URL every route is appended to; its path is kept (`http://host/api` + `/users` →
    /// `http://host/api/users`). Required, except in-process where it defaults to
    /// `http://localhost/`.
    pub fn base_url(mut self, base_url: impl IntoBaseUrl) -> Self {
        self.base = Some(base_url.into_base_url());
        self
    }

    /// Calls `pipeline` in-process instead of sending requests over HTTP: see
    /// [`Client::in_process`]. The base URL then only sets the `Host` header, the scheme and a
    /// path prefix that the pipeline's routes must include.
    #[cfg(feature = "in-process")]
    #[cfg_attr(docsrs, doc(cfg(feature = "in-process")))]
    pub fn in_process(mut self, pipeline: Pipeline) -> Self {
        self.pipeline = Some(pipeline);
        self
    }

    /// Sends requests with this `reqwest::Client` (its proxy, TLS, connection pool and other
    /// settings) instead of one built here. Default headers, the bearer token and the timeout
    /// of this builder still apply, per request.
    ///
    /// The client built here does not follow redirects, so that a
    /// [`Redirect`](pactum::contract::Redirect) contract gets its location; reqwest's own default
    /// follows up to 10, so give this client `.redirect(reqwest::redirect::Policy::none())`
    /// if you call such contracts.
    pub fn reqwest_client(mut self, client: reqwest::Client) -> Self {
        self.reqwest = Some(client);
        self
    }

    /// Adjusts the `reqwest::ClientBuilder` this builder makes (HTTP/2 prior knowledge, a
    /// proxy, connection pool sizes, a connect timeout, ...), keeping its TLS setup.
    ///
    /// `f` runs after the TLS backend is set: TLS settings made in `f` (root certificates,
    /// another backend) are ignored or break the ring-based setup — use
    /// [`add_root_certificate`](ClientBuilder::add_root_certificate), or
    /// [`reqwest_client`](ClientBuilder::reqwest_client) for full control. Not combinable with
    /// [`reqwest_client`](ClientBuilder::reqwest_client).
    ///
    /// ```
    /// let client = pactum_client::Client::builder()
    ///     .base_url("http://localhost:3000")
    ///     .configure_reqwest(|b| b.http2_prior_knowledge().pool_max_idle_per_host(4))
    ///     .build()?;
    /// # Ok::<(), pactum_client::Error>(())
    /// ```
    pub fn configure_reqwest<F>(mut self, f: F) -> Self
    where
        F: FnOnce(reqwest::ClientBuilder) -> reqwest::ClientBuilder + Send + 'static,
    {
        self.configure = Some(Box::new(f));
        self
    }

    /// Adds a header sent with every call (a call's own [`Call::header`](crate::Call::header) replaces it).
    pub fn default_header<K, V>(mut self, name: K, value: V) -> Self
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

    /// Adds headers sent with every call.
    pub fn default_headers(mut self, headers: HeaderMap) -> Self {
        for (name, value) in headers {
            if let Some(name) = name {
                self.headers.insert(name, value);
            }
        }
        self
    }

    /// The bearer token for the contracts that require one
    /// ([`Security::bearer`](pactum::Security::bearer)): `Authorization: Bearer <token>` is
    /// attached to their calls, and to no other call. The value is marked sensitive (hidden
    /// from `Debug` output). A call can use another with
    /// [`Call::bearer_token`](crate::Call::bearer_token).
    ///
    /// A call of such a contract made without a token (here, on the call, or a header set by
    /// hand) fails before anything is sent, with [`Error::is_missing_credential`]: the server
    /// would answer 401.
    ///
    /// ```
    /// use pactum::{route, Endpoint, Security};
    /// use pactum_client::Client;
    ///
    /// let me = Endpoint::get(route!("/me")).security(Security::bearer()).build()?;
    /// let client = Client::builder()
    ///     .base_url("https://api.example.com")
    ///     .bearer_token("secret-token")
    ///     .build()?;
    /// // client.call(&me).send().await sends `Authorization: Bearer secret-token`;
    /// // a contract without `.security(..)` is called without it.
    /// # let _ = (me, client);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bearer_token(mut self, token: impl fmt::Display) -> Self {
        if let Err(e) = self.credentials.set_bearer(token) {
            self.fail(e);
        }
        self
    }

    /// The API key for the contracts that require one
    /// ([`Security::api_key_header`](pactum::Security::api_key_header)): sent in the header the
    /// contract names, with their calls only. Marked sensitive; see
    /// [`bearer_token`](ClientBuilder::bearer_token) for the rest.
    pub fn api_key(mut self, key: impl fmt::Display) -> Self {
        if let Err(e) = self.credentials.set_api_key(key) {
            self.fail(e);
        }
        self
    }

    /// Sends `Authorization: Bearer <token>` with **every** call, whatever its contract
    /// declares (a default header, as reqwest's `bearer_auth`). The value is marked sensitive
    /// (hidden from `Debug` output). For contracts that declare
    /// [`Security::bearer`](pactum::Security::bearer), prefer
    /// [`bearer_token`](ClientBuilder::bearer_token), which sends the token only where the
    /// contract asks for it.
    pub fn bearer_auth(mut self, token: impl fmt::Display) -> Self {
        match HeaderValue::try_from(format!("Bearer {token}")) {
            Ok(mut value) => {
                value.set_sensitive(true);
                self.headers.insert(AUTHORIZATION, value);
            }
            Err(e) => self.fail(Error::builder(e)),
        }
        self
    }

    /// The timeout of each call, from sending the request to the end of the response body
    /// (default [`DEFAULT_TIMEOUT`], 30 s). A call that takes longer fails with
    /// [`Error::is_timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Lets calls take as long as they take.
    pub fn no_timeout(mut self) -> Self {
        self.timeout = None;
        self
    }

    /// How an event stream ([`Events`](pactum::sse::Events)) whose connection breaks is
    /// resumed, with the `Last-Event-ID` of the last event received (default
    /// [`Reconnect::new`]: 3 attempts in a row, 1 s apart unless the server sends `retry:`;
    /// [`Reconnect::never`] for none). See [`Reconnect`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use pactum_client::{Client, Reconnect};
    ///
    /// let client = Client::builder()
    ///     .base_url("http://localhost:3000")
    ///     .reconnect(Reconnect::new().with_delay(Duration::from_millis(100)))
    ///     .build()?;
    /// # Ok::<(), pactum_client::Error>(())
    /// ```
    pub fn reconnect(mut self, policy: Reconnect) -> Self {
        self.reconnect = policy;
        self
    }

    /// Trusts the certificate authorities of a PEM bundle, on top of the system's roots: for a
    /// server whose certificate comes from a private CA. Not combinable with
    /// [`reqwest_client`](ClientBuilder::reqwest_client) (add the CA to that client instead).
    /// Needs the `rustls` feature (default).
    #[cfg(feature = "rustls")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rustls")))]
    pub fn add_root_certificate(mut self, pem: impl AsRef<[u8]>) -> Self {
        match tls::parse_pem(pem.as_ref()) {
            Ok(certs) => self.roots.extend(certs),
            Err(e) => self.fail(e),
        }
        self
    }

    fn is_in_process(&self) -> bool {
        #[cfg(feature = "in-process")]
        return self.pipeline.is_some();
        #[cfg(not(feature = "in-process"))]
        false
    }

    fn fail(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Builds the client.
    ///
    /// # Errors
    ///
    /// A builder error ([`Error::is_builder`]) for the first setter that failed, a missing or
    /// invalid base URL, root certificates together with a caller-supplied `reqwest::Client`,
    /// or a TLS setup failure.
    pub fn build(self) -> Result<Client, Error> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let base = self.base.transpose()?;
        #[cfg(feature = "in-process")]
        let pipeline = self.pipeline;
        #[cfg(not(feature = "in-process"))]
        let pipeline: Option<std::convert::Infallible> = None;
        let (base, transport) = match (pipeline, base) {
            #[cfg(not(feature = "in-process"))]
            (Some(never), _) => match never {},
            #[cfg(feature = "in-process")]
            (Some(pipeline), base) => {
                if self.reqwest.is_some() || self.configure.is_some() || !self.roots.is_empty() {
                    return Err(Error::builder(
                        "an in-process client sends no HTTP: it takes no reqwest client, reqwest settings or root certificate",
                    ));
                }
                let base = match base {
                    Some(base) => base,
                    None => Url::parse(IN_PROCESS_BASE).expect("static URL parses"),
                };
                (base, Transport::InProcess(pipeline))
            }
            (None, None) => {
                return Err(Error::builder(
                    "no base URL: call `.base_url(..)` (or `.in_process(..)`)",
                ))
            }
            (None, Some(base)) => {
                let client = match self.reqwest {
                    Some(_) if !self.roots.is_empty() || self.configure.is_some() => {
                        return Err(Error::builder(
                            "root certificates and reqwest settings cannot be applied to a caller-supplied reqwest client: set them on that client",
                        ))
                    }
                    Some(client) => client,
                    None => {
                        // A redirect is an answer of its contract (`pactum::contract::Redirect`), not
                        // a hop to take: calls see the 3xx the server sent.
                        let builder = reqwest::Client::builder();
                        #[cfg(feature = "rustls")]
                        let builder =
                            builder.tls_backend_preconfigured(tls::client_config(self.roots)?);
                        let mut builder = builder.redirect(reqwest::redirect::Policy::none());
                        if let Some(configure) = self.configure {
                            builder = configure(builder);
                        }
                        builder.build().map_err(Error::from_reqwest)?
                    }
                };
                (base, Transport::Http(client))
            }
        };
        Ok(Client {
            inner: Arc::new(Inner {
                base,
                transport,
                headers: crate::client::with_defaults(self.headers),
                credentials: self.credentials,
                timeout: self.timeout,
                reconnect: self.reconnect,
            }),
        })
    }
}

#[cfg(test)]
mod tests;
