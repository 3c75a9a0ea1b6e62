//! [`Error`]: everything a call can fail with, behind one opaque type.

use std::error::Error as StdError;
use std::fmt;

use http::header::{HeaderName, HeaderValue};
use http::StatusCode;
use pactum::{error::Detail, error::ErrorBody, error::NoErrors};
use url::Url;

pub use crate::part::Part;

type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// The error of every fallible operation of this crate.
///
/// Opaque on purpose: ask it what happened with the `is_*()` predicates, then read what it
/// carries with [`status`](Error::status), [`details`](Error::details),
/// [`error_body`](Error::error_body) and [`url`](Error::url).
///
/// | what happened | predicate | carries |
/// |---|---|---|
/// | params, query or body broke their rules; nothing was sent | [`is_validation`](Error::is_validation), [`validation_part`](Error::validation_part) | `details()` |
/// | the response broke its rules | [`is_validation`](Error::is_validation), `validation_part() == Some(Part::Response)` | `details()`, `status()` |
/// | the server answered a non-2xx status | [`is_status`](Error::is_status) | `status()`, `error_body()`, `details()` |
/// | … with one of the contract's declared errors | [`is_status`](Error::is_status), [`is_declared`](Error::is_declared) | [`declared()`](Error::declared): the typed value, and the above |
/// | the response body is not the contract's type | [`is_decode`](Error::is_decode) | `status()`, `details()` (where it failed) |
/// | connecting, TLS, reading or writing failed | [`is_transport`](Error::is_transport) | the source error |
/// | the call took longer than its timeout | [`is_timeout`](Error::is_timeout) (also [`is_transport`](Error::is_transport)) | |
/// | the client or request could not be built (bad URL, header, certificate) | [`is_builder`](Error::is_builder) | the source error |
/// | the contract requires a credential the client does not hold; nothing was sent | [`is_missing_credential`](Error::is_missing_credential) | |
///
/// A server-side validation failure (`400 Validation failed`) is an HTTP status error, not a
/// client-side validation error: [`is_status`](Error::is_status) is `true` and
/// [`details`](Error::details) holds what the server sent.
///
/// `E` is the contract's declared errors ([`pactum::error::ErrorAnswer`], see
/// [`declared`](Error::declared)); [`NoErrors`] for a contract that declares none and for
/// errors that come before a call (building a client).
///
/// The [`Display`](fmt::Display) text is for people and logs: it is not a stable API.
pub struct Error<E = NoErrors> {
    pub(crate) inner: Box<Inner<E>>,
}

pub(crate) struct Inner<E> {
    kind: Kind,
    /// What went wrong, for errors this crate describes itself (builder errors).
    message: Option<String>,
    status: Option<StatusCode>,
    details: Vec<Detail>,
    body: Option<ErrorBody>,
    url: Option<Url>,
    source: Option<BoxError>,
    /// The contract's declared error this answer decoded to.
    pub(crate) declared: Option<E>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Builder,
    Validation(Part),
    Status,
    Decode,
    Transport,
    Timeout,
    MissingCredential,
}

impl<E> Error<E> {
    fn new(kind: Kind) -> Self {
        Self {
            inner: Box::new(Inner {
                kind,
                message: None,
                status: None,
                details: Vec::new(),
                body: None,
                url: None,
                source: None,
                declared: None,
            }),
        }
    }

    /// The same error, as the error of a call whose contract declares `E2` (none decoded).
    pub(crate) fn typed<E2>(self) -> Error<E2> {
        let i = *self.inner;
        Error {
            inner: Box::new(Inner {
                kind: i.kind,
                message: i.message,
                status: i.status,
                details: i.details,
                body: i.body,
                url: i.url,
                source: i.source,
                declared: None,
            }),
        }
    }
}

impl Error {
    pub(crate) fn builder(message: impl fmt::Display) -> Self {
        let mut error = Self::new(Kind::Builder);
        error.inner.message = Some(message.to_string());
        error
    }

    pub(crate) fn validation(part: Part, details: Vec<Detail>) -> Self {
        let mut error = Self::new(Kind::Validation(part));
        error.inner.details = details;
        error
    }

    pub(crate) fn status_error(status: StatusCode, body: ErrorBody) -> Self {
        let mut error = Self::new(Kind::Status);
        error.inner.status = Some(status);
        error.inner.details = body.details.clone();
        error.inner.body = Some(body);
        error
    }

    pub(crate) fn decode(
        status: StatusCode,
        details: Vec<Detail>,
        source: impl Into<BoxError>,
    ) -> Self {
        let mut error = Self::new(Kind::Decode).with_source(source);
        error.inner.status = Some(status);
        error.inner.details = details;
        error
    }

    /// The contract requires one of the schemes `names`, and no credential for any is set.
    pub(crate) fn missing_credential(names: &[&str]) -> Self {
        let mut error = Self::new(Kind::MissingCredential);
        error.inner.message = Some(names.join(", "));
        error
    }

    /// A timeout of an in-process call (reqwest reports its own).
    #[cfg(feature = "in-process")]
    pub(crate) fn timeout() -> Self {
        Self::new(Kind::Timeout).with_source(Elapsed)
    }

    /// Classifies a reqwest error: timeout, builder, or transport.
    pub(crate) fn from_reqwest(error: reqwest::Error) -> Self {
        let kind = if error.is_timeout() {
            Kind::Timeout
        } else if error.is_builder() {
            Kind::Builder
        } else {
            Kind::Transport
        };
        let url = error.url().cloned();
        let mut error = Self::new(kind).with_source(error.without_url());
        error.inner.url = url;
        error
    }
}

impl<E> Error<E> {
    pub(crate) fn with_source(mut self, source: impl Into<BoxError>) -> Self {
        self.inner.source = Some(source.into());
        self
    }

    pub(crate) fn with_status(mut self, status: StatusCode) -> Self {
        self.inner.status = Some(status);
        self
    }

    /// Sets the URL, made by `url`, unless the error already carries one.
    pub(crate) fn with_url(mut self, url: impl FnOnce() -> Url) -> Self {
        if self.inner.url.is_none() {
            self.inner.url = Some(url());
        }
        self
    }

    /// `true` when a part of the call broke its `validator` rules: the params, query or body
    /// before sending (nothing was sent), or the response after receipt.
    /// [`validation_part`](Error::validation_part) says which.
    pub fn is_validation(&self) -> bool {
        matches!(self.inner.kind, Kind::Validation(_))
    }

    /// Which part failed validation, when [`is_validation`](Error::is_validation).
    pub fn validation_part(&self) -> Option<Part> {
        match self.inner.kind {
            Kind::Validation(part) => Some(part),
            _ => None,
        }
    }

    /// `true` when the server answered with a status outside `2xx`;
    /// [`status`](Error::status) and [`error_body`](Error::error_body) say what it was.
    pub fn is_status(&self) -> bool {
        self.inner.kind == Kind::Status
    }

    /// `true` when a `2xx` response body could not be decoded into the contract's response
    /// type (not JSON, or the wrong shape).
    pub fn is_decode(&self) -> bool {
        self.inner.kind == Kind::Decode
    }

    /// `true` when the request could not be carried out: connecting, TLS, sending, reading the
    /// response, or a timeout (see [`is_timeout`](Error::is_timeout)).
    pub fn is_transport(&self) -> bool {
        matches!(self.inner.kind, Kind::Transport | Kind::Timeout)
    }

    /// `true` when the call did not finish within its timeout.
    pub fn is_timeout(&self) -> bool {
        self.inner.kind == Kind::Timeout
    }

    /// `true` when the client or the request could not be built: a malformed base URL, header
    /// or certificate, or a value that cannot be encoded as a query string or JSON.
    pub fn is_builder(&self) -> bool {
        self.inner.kind == Kind::Builder
    }

    /// `true` when the contract requires a credential ([`pactum::Security`]) that neither
    /// the client nor the call holds — no [`bearer_token`](crate::ClientBuilder::bearer_token)
    /// for a bearer scheme, no [`api_key`](crate::ClientBuilder::api_key) for an API key, and
    /// no header of that name set by hand. Nothing was sent: the server would have answered
    /// 401.
    pub fn is_missing_credential(&self) -> bool {
        self.inner.kind == Kind::MissingCredential
    }

    /// The status of the response, when one was received: always for
    /// [`is_status`](Error::is_status), also for a decode or response validation failure.
    pub fn status(&self) -> Option<StatusCode> {
        self.inner.status
    }

    /// The error body of a non-2xx answer.
    ///
    /// A pactum server's JSON body (`{"error", "details", "code"}`) is decoded as is. Any other
    /// body becomes an [`ErrorBody`] whose `error` is the raw text (or the status's reason
    /// phrase when the body is empty), with no details and no code.
    pub fn error_body(&self) -> Option<&ErrorBody> {
        self.inner.body.as_ref()
    }

    /// The field-level details: why validation failed (same shape as the server's), the
    /// server's details for a non-2xx answer, or where decoding failed. Empty otherwise.
    pub fn details(&self) -> &[Detail] {
        &self.inner.details
    }

    /// The URL of the request, where it was built.
    pub fn url(&self) -> Option<&Url> {
        self.inner.url.as_ref()
    }
}

impl<E: fmt::Debug> fmt::Debug for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("pactum_client::Error");
        d.field("kind", &self.inner.kind);
        if let Some(message) = &self.inner.message {
            d.field("message", message);
        }
        if let Some(status) = self.inner.status {
            d.field("status", &status);
        }
        if let Some(url) = &self.inner.url {
            d.field("url", &url.as_str());
        }
        if let Some(declared) = &self.inner.declared {
            d.field("declared", declared);
        } else if let Some(body) = &self.inner.body {
            d.field("body", body);
        } else if !self.inner.details.is_empty() {
            d.field("details", &self.inner.details);
        }
        if let Some(source) = &self.inner.source {
            d.field("source", source);
        }
        d.finish()
    }
}

impl<E: fmt::Display> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inner.kind {
            Kind::Builder => match &self.inner.message {
                Some(message) => write!(f, "could not build the client or request: {message}")?,
                None => f.write_str("could not build the client or request")?,
            },
            Kind::Validation(Part::Response) => f.write_str("the response failed validation")?,
            Kind::Validation(part) => write!(f, "the {part} failed validation; nothing was sent")?,
            Kind::Status => {
                let status = self
                    .inner
                    .status
                    .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                write!(f, "HTTP {status}")?;
                if let Some(declared) = &self.inner.declared {
                    write!(f, ": {declared}")?;
                } else if let Some(body) = &self.inner.body {
                    write!(f, ": {}", body.error)?;
                }
            }
            Kind::Decode => f.write_str("could not decode the response body")?,
            Kind::Transport => f.write_str("the request failed")?,
            Kind::Timeout => f.write_str("the request timed out")?,
            Kind::MissingCredential => write!(
                f,
                "the contract requires a credential ({}) and none is set: give the client or \
                 the call a bearer token or API key; nothing was sent",
                self.inner.message.as_deref().unwrap_or_default()
            )?,
        }
        if let Some(url) = &self.inner.url {
            write!(f, " ({url})")?;
        }
        for detail in &self.inner.details {
            let path: Vec<String> = detail.path.iter().map(ToString::to_string).collect();
            if path.is_empty() {
                write!(f, "; {}", detail.message)?;
            } else {
                write!(f, "; {}: {}", path.join("."), detail.message)?;
            }
        }
        Ok(())
    }
}

impl<E: fmt::Debug + fmt::Display> StdError for Error<E> {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.inner
            .source
            .as_ref()
            .map(|e| &**e as &(dyn StdError + 'static))
    }
}

/// The source of a timeout in in-process mode.
#[cfg(feature = "in-process")]
#[derive(Debug)]
struct Elapsed;

#[cfg(feature = "in-process")]
impl fmt::Display for Elapsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("deadline elapsed")
    }
}

#[cfg(feature = "in-process")]
impl StdError for Elapsed {}

/// Converts a header name and value, or the builder error to report at `send`/`build`.
pub(crate) fn header_pair<K, V>(name: K, value: V) -> Result<(HeaderName, HeaderValue), Error>
where
    K: TryInto<HeaderName>,
    K::Error: Into<http::Error>,
    V: TryInto<HeaderValue>,
    V::Error: Into<http::Error>,
{
    let name = name.try_into().map_err(|e| Error::builder(e.into()))?;
    let value = value.try_into().map_err(|e| Error::builder(e.into()))?;
    Ok((name, value))
}

#[cfg(test)]
mod tests;
