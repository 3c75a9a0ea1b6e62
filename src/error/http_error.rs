//! [`HttpError`]: an error that carries the HTTP answer it should produce.

use std::borrow::Cow;
use std::fmt;

use http::header::{HeaderName, HeaderValue, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, StatusCode};

use super::body::{Detail, ErrorBody, PathSegment};
use super::rejection::Rejection;
use super::BoxError;

/// An error with an HTTP status, a public message, and optional details, code and headers.
///
/// Return it from a handler or a middleware to answer with that status and the JSON error body
/// `{"error": message, "details": [...], "code": ...}`. An optional *source* is logged with
/// `tracing` when the error is answered, and never sent to the client.
///
/// ```
/// use pactum::HttpError;
///
/// let err = HttpError::not_found("User not found").with_code("user_not_found");
/// assert_eq!(err.status(), 404);
/// assert_eq!(err.message(), "User not found");
/// ```
pub struct HttpError {
    status: StatusCode,
    message: Cow<'static, str>,
    details: Vec<Detail>,
    code: Option<Cow<'static, str>>,
    headers: HeaderMap,
    source: Option<BoxError>,
    rejection: Option<Rejection>,
}

macro_rules! constructors {
    ($($(#[$doc:meta])* $name:ident => $status:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(message: impl Into<Cow<'static, str>>) -> Self {
                Self::new(StatusCode::$status, message)
            }
        )*
    };
}

impl HttpError {
    /// An error with `status` and the public `message`.
    ///
    /// Statuses outside 400..=599 are answered as given; use an error status.
    pub fn new(status: StatusCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            status,
            message: message.into(),
            details: Vec::new(),
            code: None,
            headers: HeaderMap::new(),
            source: None,
            rejection: None,
        }
    }

    constructors! {
        /// 400 Bad Request.
        bad_request => BAD_REQUEST;
        /// 401 Unauthorized. Add a challenge with [`HttpError::with_www_authenticate`].
        unauthorized => UNAUTHORIZED;
        /// 403 Forbidden.
        forbidden => FORBIDDEN;
        /// 404 Not Found.
        not_found => NOT_FOUND;
        /// 405 Method Not Allowed.
        method_not_allowed => METHOD_NOT_ALLOWED;
        /// 408 Request Timeout.
        request_timeout => REQUEST_TIMEOUT;
        /// 409 Conflict.
        conflict => CONFLICT;
        /// 410 Gone.
        gone => GONE;
        /// 413 Payload Too Large.
        payload_too_large => PAYLOAD_TOO_LARGE;
        /// 415 Unsupported Media Type.
        unsupported_media_type => UNSUPPORTED_MEDIA_TYPE;
        /// 422 Unprocessable Entity.
        unprocessable_entity => UNPROCESSABLE_ENTITY;
        /// 429 Too Many Requests. Add [`HttpError::with_retry_after`] when you know the wait.
        too_many_requests => TOO_MANY_REQUESTS;
        /// 500 Internal Server Error.
        internal => INTERNAL_SERVER_ERROR;
        /// 501 Not Implemented.
        not_implemented => NOT_IMPLEMENTED;
        /// 502 Bad Gateway.
        bad_gateway => BAD_GATEWAY;
        /// 503 Service Unavailable.
        service_unavailable => SERVICE_UNAVAILABLE;
        /// 504 Gateway Timeout.
        gateway_timeout => GATEWAY_TIMEOUT;
    }

    /// 400 `Validation failed` with the given details: the pipeline's own
    /// [`Rejection::ValidationFailed`].
    pub fn validation(details: Vec<Detail>) -> Self {
        Rejection::ValidationFailed.error().with_details(details)
    }

    /// Marks this error as the pipeline's own `rejection`.
    pub(crate) fn rejected_as(mut self, rejection: Rejection) -> Self {
        self.rejection = Some(rejection);
        self
    }

    /// Which of the pipeline's own answers this is, if it is one.
    pub fn rejection(&self) -> Option<Rejection> {
        self.rejection
    }

    /// Replaces the details.
    #[must_use]
    pub fn with_details(mut self, details: Vec<Detail>) -> Self {
        self.details = details;
        self
    }

    /// Adds one detail: the path to the offending field and a readable message.
    #[must_use]
    pub fn with_detail(mut self, path: Vec<PathSegment>, message: impl Into<String>) -> Self {
        self.details.push(Detail::new(path, message));
        self
    }

    /// Sets the machine-readable `code` of the body.
    #[must_use]
    pub fn with_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.code = Some(code.into());
        self
    }

    /// Adds a response header (for instance `WWW-Authenticate` or `Retry-After`).
    #[must_use]
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.append(name, value);
        self
    }

    /// Adds a `WWW-Authenticate` challenge, e.g. `Bearer realm="api"`.
    ///
    /// A value that is not a valid header value is dropped and logged.
    #[must_use]
    pub fn with_www_authenticate(self, challenge: &str) -> Self {
        match HeaderValue::from_str(challenge) {
            Ok(value) => self.with_header(WWW_AUTHENTICATE, value),
            Err(_) => {
                #[cfg(feature = "pipeline")]
                tracing::warn!(challenge, "invalid WWW-Authenticate value dropped");
                self
            }
        }
    }

    /// Adds `Retry-After: seconds`.
    #[must_use]
    pub fn with_retry_after(self, seconds: u64) -> Self {
        self.with_header(RETRY_AFTER, HeaderValue::from(seconds))
    }

    /// Attaches an internal cause: logged when the error is answered, never sent.
    #[must_use]
    pub fn with_source(mut self, source: impl Into<BoxError>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// The status this error answers with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The public message, sent as `error`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The details, sent as `details` when there are any.
    pub fn details(&self) -> &[Detail] {
        &self.details
    }

    /// The machine-readable code, sent as `code` when set.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The headers sent with the error response.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The JSON body this error is answered with.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody {
            error: self.message.to_string(),
            details: self.details.clone(),
            code: self.code.as_ref().map(|c| c.to_string()),
        }
    }
}

impl fmt::Debug for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpError")
            .field("status", &self.status)
            .field("message", &self.message)
            .field("details", &self.details)
            .field("code", &self.code)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for HttpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

impl Rejection {
    /// The error the pipeline answers with: this status and message, marked as this
    /// rejection.
    pub(crate) fn error(self) -> HttpError {
        HttpError::new(self.status(), self.message()).rejected_as(self)
    }
}

/// The pipeline's own answer, for an adapter that must give it without the pipeline (a
/// request that never reaches it).
impl From<Rejection> for HttpError {
    fn from(rejection: Rejection) -> Self {
        rejection.error()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_fill_the_body() {
        let err = HttpError::conflict("Email already exists")
            .with_code("email_taken")
            .with_detail(vec!["email".into()], "already used");
        let body = serde_json::to_value(err.to_body()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "error": "Email already exists",
                "details": [{"path": ["email"], "message": "already used"}],
                "code": "email_taken"
            })
        );
    }

    #[test]
    fn source_is_kept_but_not_in_the_body() {
        let io = std::io::Error::other("disk on fire");
        let err = HttpError::internal("Storage failed").with_source(io);
        assert_eq!(
            std::error::Error::source(&err).unwrap().to_string(),
            "disk on fire"
        );
        assert!(!serde_json::to_string(&err.to_body())
            .unwrap()
            .contains("disk"));
    }

    #[test]
    fn retry_after_and_challenge_headers() {
        let err = HttpError::unauthorized("Unauthorized")
            .with_www_authenticate("Bearer")
            .with_retry_after(3);
        assert_eq!(err.headers()[WWW_AUTHENTICATE], "Bearer");
        assert_eq!(err.headers()[RETRY_AFTER], "3");
    }
}
