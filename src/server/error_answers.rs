//! [`ErrorAnswers`]: how the answers hyper gives by itself to HTTP/1.1 heads it cannot read
//! are formatted (the wrapper that writes them is `conn/hyper_errors.rs`). A server setting,
//! kept in the [`ServerOptions`](super::ServerOptions) and set by [`serve`](super::serve()):
//! beside `conn/` rather than in it, as the options hold it.

use crate::error::Error;
use crate::pipeline::Pipeline;
use crate::response::Response;

/// How hyper's own answers are formatted: by the pipeline's error formatter when the server
/// serves a pipeline, else with the built-in JSON body.
#[derive(Debug, Clone, Default)]
pub(crate) struct ErrorAnswers(Option<Pipeline>);

impl ErrorAnswers {
    /// The answers of `pipeline`'s error formatter.
    pub(crate) fn of(pipeline: &Pipeline) -> Self {
        Self(Some(pipeline.clone()))
    }

    /// The formatter's answer; the built-in one if it panics (logged).
    pub(super) fn response(&self, error: &Error) -> Response {
        let Some(pipeline) = &self.0 else {
            return error.to_response();
        };
        let formatted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pipeline.error_response(error)
        }));
        formatted.unwrap_or_else(|_| {
            tracing::error!("the error formatter panicked; the built-in body is sent");
            error.to_response()
        })
    }
}
