//! [`RequestInfo`]: what the error formatter knows of the request it answers.

use http::Method;

/// The request an error answers, as
/// [`PipelineBuilder::error_formatter_with`](crate::pipeline::PipelineBuilder::error_formatter_with)
/// sees it: its method, path and id — enough for an RFC 9457 `instance`.
///
/// Every error the pipeline answers has one, a 404 `Not found` too (made before routing).
/// An error that did not come through a pipeline's request (handed to
/// [`Pipeline::error_response`](crate::Pipeline::error_response) by hand) is shown
/// [`RequestInfo::UNKNOWN`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestInfo {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) request_id: String,
}

impl RequestInfo {
    /// The view of an error that came from no request: `GET`, empty path and id.
    pub const UNKNOWN: Self = Self {
        method: Method::GET,
        path: String::new(),
        request_id: String::new(),
    };

    /// The request method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The request path, as it came (percent-encoded, without the query).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The request's id ([`Ctx::request_id`](crate::Ctx::request_id)): its `x-request-id`
    /// header when a trusted proxy sent it, else the generated one — the one on its tracing
    /// span and in the answer's `x-request-id`.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }
}
