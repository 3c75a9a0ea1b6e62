//! [`Ctx`]: what a handler receives.

use std::sync::{Arc, Mutex, PoisonError};

use http::header::{HeaderName, HeaderValue};
use http::{Extensions, HeaderMap, Method, StatusCode};
use url::Url;

use crate::contract::{NoBody, NoParams, NoQuery};
use crate::request::{LazyUrl, UrlCell};

/// The request as a handler sees it: typed, validated params, query and body, plus the
/// request's method, URL, headers, and the extensions middleware attached.
///
/// For tests, [`Ctx::new`] builds one directly, to call [`Handler::execute`](crate::Handler::execute).
#[derive(Debug)]
#[non_exhaustive]
pub struct Ctx<P = NoParams, Q = NoQuery, B = NoBody> {
    /// The path params, deserialised and validated.
    pub params: P,
    /// The query, deserialised and validated.
    pub query: Q,
    /// The JSON body, deserialised and validated.
    pub body: B,
    /// The request method.
    pub method: Method,
    /// The full request URL, built on first use ([`Ctx::url`]).
    url: LazyUrl,
    /// The request headers.
    pub headers: HeaderMap,
    /// Typed values middleware attached (an authenticated user, a request id).
    pub extensions: Extensions,
    /// The response's status and headers, for the handler to set.
    pub response: ResponseParts,
}

impl<P, Q, B> Ctx<P, Q, B> {
    /// A context for calling a handler directly: method GET, URL `http://localhost/`, no
    /// headers, no extensions.
    pub fn new(params: P, query: Q, body: B) -> Self {
        Self {
            params,
            query,
            body,
            method: Method::GET,
            url: LazyUrl::localhost(),
            headers: HeaderMap::new(),
            extensions: Extensions::new(),
            response: ResponseParts::default(),
        }
    }

    /// The context of a routed request, for the handler.
    pub(crate) fn of_request(
        params: P,
        query: Q,
        body: B,
        head: http::request::Parts,
        url: UrlCell,
        response: ResponseParts,
    ) -> Self {
        Self {
            params,
            query,
            body,
            method: head.method,
            url: LazyUrl::new(head.uri, url),
            headers: head.headers,
            extensions: head.extensions,
            response,
        }
    }

    /// The full request URL: scheme (`https` behind TLS), host (from the `Host` header),
    /// path and query. Built on first use: a handler that never asks pays nothing.
    pub fn url(&self) -> &Url {
        self.url.get(&self.headers, &self.extensions)
    }

    /// The request target as it came: the path and query (or the absolute form), still
    /// percent-encoded.
    pub fn uri(&self) -> &http::Uri {
        self.url.uri()
    }
}

/// The status and headers of the response being made, shared between the handler and the
/// pipeline. Cheap to clone.
///
/// ```
/// # use pactum::Ctx;
/// use http::header::LOCATION;
/// let ctx = Ctx::new((), (), ());
/// ctx.response.insert_header(LOCATION, http::HeaderValue::from_static("/users/7"));
/// assert_eq!(ctx.response.headers()[LOCATION], "/users/7");
/// ```
#[derive(Debug, Clone, Default)]
pub struct ResponseParts(Arc<Mutex<Parts>>);

#[derive(Debug, Default)]
pub(crate) struct Parts {
    pub(crate) status: Option<StatusCode>,
    pub(crate) headers: HeaderMap,
}

impl ResponseParts {
    fn with<T>(&self, f: impl FnOnce(&mut Parts) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Sets a response header, replacing earlier values.
    pub fn insert_header(&self, name: HeaderName, value: HeaderValue) {
        self.with(|p| p.headers.insert(name, value));
    }

    /// Adds a response header, keeping earlier values (e.g. several `Set-Cookie`).
    pub fn append_header(&self, name: HeaderName, value: HeaderValue) {
        self.with(|p| p.headers.append(name, value));
    }

    /// Overrides the success status for this response.
    pub fn set_status(&self, status: StatusCode) {
        self.with(|p| p.status = Some(status));
    }

    /// A copy of the headers set so far.
    pub fn headers(&self) -> HeaderMap {
        self.with(|p| p.headers.clone())
    }

    pub(crate) fn take(&self) -> Parts {
        self.with(std::mem::take)
    }
}
