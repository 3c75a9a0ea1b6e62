//! How the pipeline answers an error: the formatter, with or without the request's view, and
//! the hiding of plain errors' messages.

use std::sync::Arc;

use crate::error::{Error, HttpError, RequestInfo};
use crate::response::Response;

use super::ErrorFormatter;

/// Formats every error answer, seeing the request it answers
/// ([`PipelineBuilder::error_formatter_with`](super::PipelineBuilder::error_formatter_with)).
pub type RequestErrorFormatter = Arc<dyn Fn(&Error, &RequestInfo) -> Response + Send + Sync>;

/// The configured formatter.
#[derive(Clone)]
pub(super) enum Formatter {
    Plain(ErrorFormatter),
    WithRequest(RequestErrorFormatter),
}

/// The error-answering settings of a pipeline.
#[derive(Clone, Default)]
pub(super) struct Answering {
    pub(super) formatter: Option<Formatter>,
    /// [`PipelineBuilder::hide_internal_messages`](super::PipelineBuilder::hide_internal_messages).
    pub(super) hide_internal: bool,
}

impl Answering {
    /// Whether errors must carry their request's view.
    pub(super) fn keeps_request(&self) -> bool {
        matches!(self.formatter, Some(Formatter::WithRequest(_)))
    }

    /// The answer for `error` (see [`Pipeline::error_response`](super::Pipeline::error_response)).
    pub(super) fn response(&self, error: &Error) -> Response {
        if error.is_declared() {
            return error.to_response();
        }
        let hidden;
        let error = if self.hide_internal && error.is_plain() {
            let mut replacement: Error = HttpError::internal("Internal server error").into();
            if let Some(request) = error.request() {
                replacement = replacement.for_request(Box::new(request.clone()));
            }
            hidden = replacement;
            &hidden
        } else {
            error
        };
        match &self.formatter {
            None => error.to_response(),
            Some(Formatter::Plain(format)) => format(error),
            Some(Formatter::WithRequest(format)) => {
                format(error, error.request().unwrap_or(&RequestInfo::UNKNOWN))
            }
        }
    }
}
