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

/// How a pipeline formats its error answers: the formatter, and whether plain errors' messages
/// are hidden.
#[derive(Clone, Default)]
pub(super) struct ErrorFormatting {
    pub(super) formatter: Option<Formatter>,
    /// [`PipelineBuilder::hide_internal_messages`](super::PipelineBuilder::hide_internal_messages).
    pub(super) hide_internal: bool,
}

impl ErrorFormatting {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn titled() -> ErrorFormatting {
        ErrorFormatting {
            formatter: Some(Formatter::WithRequest(Arc::new(|error, request| {
                let text = format!("{} [{}]", error.to_body().error, request.path());
                http::Response::new(text.into())
            }))),
            hide_internal: true,
        }
    }

    #[test]
    fn a_hidden_message_reaches_the_formatter_hidden_and_http_errors_do_not() {
        let error_formatting = titled();
        let plain: Error = std::io::Error::other("/var/db locked").into();
        let plain = plain.for_request(Box::new(RequestInfo {
            path: "/save".into(),
            ..RequestInfo::UNKNOWN
        }));
        let answer = error_formatting.response(&plain);
        assert_eq!(answer.body(), "Internal server error [/save]");
        let http: Error = HttpError::conflict("Taken").into();
        assert_eq!(error_formatting.response(&http).body(), "Taken []");
    }

    #[test]
    fn the_built_in_body_hides_only_when_asked() {
        let plain = || -> Error { std::io::Error::other("disk").into() };
        let shown = ErrorFormatting::default().response(&plain());
        assert_eq!(shown.body(), r#"{"error":"disk"}"#);
        let hiding = ErrorFormatting {
            formatter: None,
            hide_internal: true,
        };
        let hidden = hiding.response(&plain());
        assert_eq!(hidden.status(), 500);
        assert_eq!(hidden.body(), r#"{"error":"Internal server error"}"#);
    }
}
