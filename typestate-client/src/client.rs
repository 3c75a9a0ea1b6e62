//! [`Client`]: where calls go (a base URL or an in-process pipeline), and what every call
//! carries (default headers, bearer token, timeout). Built by
//! [`ClientBuilder`](crate::ClientBuilder); calls start with [`Client::call`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use http::header::{HeaderValue, ACCEPT, CONTENT_TYPE, USER_AGENT};
use http::HeaderMap;
#[cfg(feature = "in-process")]
use pactum::Pipeline;
use url::Url;

use crate::credentials::Credentials;
use crate::error::Error;
use crate::reconnect::Reconnect;
#[cfg(feature = "in-process")]
use crate::transport::send_in_process;
use crate::transport::{send_http, Prepared, Received};

/// The timeout of a call when none is set: 30 seconds, from sending the request to the end of
/// the response body. reqwest itself has no timeout; a call that never ends is rarely what a
/// client wants. Change it with [`ClientBuilder::timeout`](crate::ClientBuilder::timeout), [`ClientBuilder::no_timeout`](crate::ClientBuilder::no_timeout) or
/// per call with [`Call::timeout`](crate::Call::timeout).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The base URL of a client made by [`Client::in_process`].
#[cfg(feature = "in-process")]
pub(crate) const IN_PROCESS_BASE: &str = "http://localhost/";

/// A typed client for pactum contracts. Cheap to clone (one `Arc`), `Send + Sync`.
///
/// It sends each call either over HTTP to a base URL ([`Client::new`], on reqwest), or
/// in-process to a [`Pipeline`] ([`Client::in_process`]), with the same API and the same
/// errors. Start a call with [`Client::call`].
///
/// ```no_run
/// use pactum_client::Client;
///
/// let client = Client::new("http://localhost:3000/api")?;
/// # Ok::<(), pactum_client::Error>(())
/// ```
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) base: Url,
    pub(crate) transport: Transport,
    pub(crate) headers: HeaderMap,
    /// Attached only to calls whose contract declares their scheme.
    pub(crate) credentials: Credentials,
    pub(crate) timeout: Option<Duration>,
    /// How a broken event stream is resumed.
    pub(crate) reconnect: Reconnect,
}

pub(crate) enum Transport {
    Http(reqwest::Client),
    #[cfg(feature = "in-process")]
    InProcess(Pipeline),
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let transport = match &self.inner.transport {
            Transport::Http(_) => "http",
            #[cfg(feature = "in-process")]
            Transport::InProcess(_) => "in-process",
        };
        f.debug_struct("Client")
            .field("base_url", &self.inner.base.as_str())
            .field("transport", &transport)
            .field("default_headers", &self.inner.headers)
            .field("timeout", &self.inner.timeout)
            .field("reconnect", &self.inner.reconnect)
            .finish()
    }
}

impl Client {
    /// A client that calls `pipeline` directly, with no socket: each request runs the whole
    /// pipeline (routing, middleware, parsing, validation, handler, response check), and the
    /// answer is decoded exactly as one received over HTTP. For tests.
    ///
    /// The requests look as if they were sent to `http://localhost/`, with the same
    /// [`DEFAULT_TIMEOUT`] as over HTTP. Use [`ClientBuilder::in_process`](crate::ClientBuilder::in_process) to set headers, a
    /// timeout or another base URL.
    ///
    /// ```
    /// use pactum::{handler, route, Endpoint, Pipeline};
    /// use pactum_client::Client;
    /// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
    /// # struct Health { status: String }
    ///
    /// let health = Endpoint::get(route!("/health")).response::<Health>().build()?;
    /// let pipeline = Pipeline::new(vec![
    ///     handler(health.clone(), |_| async { Ok(Health { status: "ok".into() }) }).into(),
    /// ])?;
    /// let client = Client::in_process(pipeline);
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
    /// let answer = client.call(&health).send().await?;
    /// assert_eq!(answer.status, "ok");
    /// # Ok::<(), pactum_client::Error>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "in-process")]
    #[cfg_attr(docsrs, doc(cfg(feature = "in-process")))]
    pub fn in_process(pipeline: Pipeline) -> Self {
        Self {
            inner: Arc::new(Inner {
                base: Url::parse(IN_PROCESS_BASE).expect("static URL parses"),
                transport: Transport::InProcess(pipeline),
                headers: with_defaults(HeaderMap::new()),
                credentials: Credentials::default(),
                timeout: Some(DEFAULT_TIMEOUT),
                reconnect: Reconnect::new(),
            }),
        }
    }

    /// The base URL every route is appended to.
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// `true` when calls run in-process, through a [`Pipeline`].
    pub fn is_in_process(&self) -> bool {
        #[cfg(feature = "in-process")]
        return matches!(self.inner.transport, Transport::InProcess(_));
        #[cfg(not(feature = "in-process"))]
        false
    }

    /// The timeout of each call, `None` when calls may take forever.
    pub fn timeout(&self) -> Option<Duration> {
        self.inner.timeout
    }

    /// Sends one prepared request, over HTTP or in-process, and reads the whole answer. An
    /// error carries no URL but the one reqwest gives it: the caller adds the request's.
    pub(crate) async fn execute(&self, request: Prepared) -> Result<Received, Error> {
        let timeout = request.timeout.or(self.inner.timeout);
        // Sized for all of them, and at least as a map's first insert sizes it (six): reqwest
        // and hyper add theirs (`Host`, `Content-Length`) to a copy of this one.
        let defaults = &self.inner.headers;
        let wanted = defaults.len() + request.headers.len() + 1;
        let mut headers = HeaderMap::with_capacity(wanted.max(6));
        for (name, value) in defaults {
            headers.append(name.clone(), value.clone());
        }
        for (name, value) in request.headers {
            if let Some(name) = name {
                headers.insert(name, value);
            }
        }
        if request.body.is_some() {
            let json = || HeaderValue::from_static("application/json");
            headers.insert(CONTENT_TYPE, request.content_type.unwrap_or_else(json));
        }
        match &self.inner.transport {
            Transport::Http(client) => {
                send_http(
                    client,
                    request.method,
                    request.url,
                    headers,
                    request.body,
                    timeout,
                    request.stream_body,
                )
                .await
            }
            #[cfg(feature = "in-process")]
            Transport::InProcess(pipeline) => {
                send_in_process(
                    pipeline,
                    request.method,
                    &request.url,
                    headers,
                    request.body,
                    timeout,
                )
                .await
            }
        }
    }
}

/// The client's headers with pactum-client's defaults where they set none: `Accept:
/// application/json` and its `User-Agent`. Worked out once, when the client is made; a call's
/// own headers replace them.
pub(crate) fn with_defaults(mut headers: HeaderMap) -> HeaderMap {
    if !headers.contains_key(ACCEPT) {
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
    }
    if !headers.contains_key(USER_AGENT) {
        headers.insert(
            USER_AGENT,
            HeaderValue::from_static(concat!("pactum-client/", env!("CARGO_PKG_VERSION"))),
        );
    }
    headers
}
