//! The pipeline's half of the error model: an [`Error`] as the built-in answer it is sent as,
//! as a log line, and with the request it answers.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use http::header::{HeaderValue, CONTENT_TYPE};

use super::declared::DeclaredAnswer;
use super::{Error, Inner, Rejection, RequestInfo};
use crate::response::{Response, ResponseBody};

impl Error {
    /// The built-in error answer: the status, the error's headers, and the JSON
    /// [`ErrorBody`](super::ErrorBody); a declared error's own status and JSON body.
    #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
    pub fn to_response(&self) -> Response {
        if let Inner::Declared(declared) = &*self.inner {
            return declared.to_response();
        }
        let body = serde_json::to_vec(&self.to_body())
            .unwrap_or_else(|_| br#"{"error":"Internal server error"}"#.to_vec());
        let mut response = http::Response::new(ResponseBody::from(body));
        *response.status_mut() = self.status();
        if let Some(http) = self.as_http() {
            response.headers_mut().extend(http.headers().clone());
        }
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }

    /// Logs the error at a level that fits its status, with its source chain. A request
    /// timeout — most often a client that stalled — is a warning, at most one a second
    /// ([`TimeoutWarnings`]), so that stalled clients cannot flood the log.
    pub(crate) fn log(&self) {
        let status = self.status().as_u16();
        let chain = SourceChain(self);
        if self.rejection() == Some(Rejection::RequestTimeout) {
            if let Some(suppressed) = TIMEOUT_WARNINGS.due() {
                tracing::warn!(status, suppressed, error = %chain, "request timed out");
            }
            return;
        }
        if status >= 500 {
            tracing::error!(status, error = %chain, "request failed");
        } else {
            tracing::debug!(status, error = %chain, "request rejected");
        }
    }

    /// The request this error answers, when the pipeline kept it: whole when an
    /// [`error_formatter_with`](crate::pipeline::PipelineBuilder::error_formatter_with) is set,
    /// else its id alone when the id is echoed
    /// ([`echo_request_id`](crate::pipeline::PipelineBuilder::echo_request_id)).
    pub(crate) fn request(&self) -> Option<&RequestInfo> {
        self.request.as_deref()
    }

    /// This error, answering `request`.
    pub(crate) fn for_request(mut self, request: Box<RequestInfo>) -> Self {
        self.request = Some(request);
        self
    }

    /// `true` for a plain error (not an [`HttpError`](super::HttpError), not declared):
    /// answered 500 with its message.
    pub(crate) fn is_plain(&self) -> bool {
        matches!(&*self.inner, Inner::Other(..))
    }
}

impl DeclaredAnswer {
    /// The answer: the status, `Content-Type: application/json`, its typed headers, the body.
    pub(super) fn to_response(&self) -> Response {
        // `into`: whatever body type `Response` has, it is made from `Bytes`.
        #[allow(clippy::useless_conversion)]
        let mut response = http::Response::new(self.body.clone().into());
        *response.status_mut() = self.status;
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in &self.headers {
            headers.insert(name, value.clone());
        }
        response
    }
}

/// The request-timeout warnings: at most one a second, with how many were left out since.
struct TimeoutWarnings {
    /// The second (since the first timeout) of the last warning, plus one; 0 for none yet.
    last: AtomicU64,
    suppressed: AtomicU64,
}

static TIMEOUT_WARNINGS: TimeoutWarnings = TimeoutWarnings {
    last: AtomicU64::new(0),
    suppressed: AtomicU64::new(0),
};

impl TimeoutWarnings {
    /// `Some(left out since the last one)` when a warning is due now, else counts this one
    /// as left out.
    fn due(&self) -> Option<u64> {
        static START: OnceLock<Instant> = OnceLock::new();
        let second = START.get_or_init(Instant::now).elapsed().as_secs() + 1;
        if self.last.swap(second, Ordering::Relaxed) == second {
            self.suppressed.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Some(self.suppressed.swap(0, Ordering::Relaxed))
    }
}

/// Displays an error and its sources, `outer: inner: innermost`.
pub(super) struct SourceChain<'a>(pub(super) &'a Error);

impl fmt::Display for SourceChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut current: Option<&(dyn std::error::Error + 'static)> = Some(self.0.as_dyn());
        let mut first = true;
        while let Some(error) = current {
            if !first {
                f.write_str(": ")?;
            }
            write!(f, "{error}")?;
            first = false;
            current = error.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use http::header::CONTENT_TYPE;

    use super::SourceChain;
    use crate::error::{Error, HttpError};

    #[test]
    fn other_errors_answer_500_with_their_message() {
        let err: Error = std::fmt::Error.into();
        let response = err.to_response();
        assert_eq!(response.status(), 500);
        assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
        let body: serde_json::Value =
            serde_json::from_slice(response.body().as_bytes().unwrap()).unwrap();
        assert_eq!(body["error"], std::fmt::Error.to_string());
    }

    #[test]
    fn chain_includes_sources() {
        let err: Error = HttpError::internal("Storage failed")
            .with_source(std::io::Error::other("disk"))
            .into();
        assert_eq!(SourceChain(&err).to_string(), "500 Storage failed: disk");
    }
}
