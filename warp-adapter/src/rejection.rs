//! [`PactumRejection`] and [`recover`]: errors handed to warp's `.recover()`.

use std::fmt;

use http::StatusCode;
use pactum::{pipeline::AnswerMode, Error, Pipeline};
use warp::reject::{Reject, Rejection};
use warp::reply::Response;

/// A request a route of the list matched, that ended in an error: the rejection of a filter
/// built with [`Options::reject_errors`](crate::Options::reject_errors).
///
/// It carries the [`pactum::Error`] (already logged by the pipeline). A `.recover()` finds it
/// with [`Rejection::find`] and formats it its own way, or answers with [`to_response`]
/// (what the filter would have answered); [`recover`] does the latter.
///
/// ```
/// use warp::http::StatusCode;
/// use warp::reply::{Reply, Response};
/// use warp::Rejection;
///
/// async fn plain_text(rejection: Rejection) -> Result<Response, Rejection> {
///     match rejection.find::<pactum_warp::PactumRejection>() {
///         Some(e) => Ok(warp::reply::with_status(e.error().to_string(), e.status()).into_response()),
///         None => Err(rejection),
///     }
/// }
/// ```
///
/// [`to_response`]: PactumRejection::to_response
pub struct PactumRejection {
    error: Error,
    pipeline: Pipeline,
    mode: AnswerMode,
}

impl PactumRejection {
    pub(crate) fn new(error: Error, pipeline: Pipeline, mode: AnswerMode) -> Self {
        Self {
            error,
            pipeline,
            mode,
        }
    }

    /// The pipeline's error: validation details, the [`pactum::HttpError`] a handler
    /// returned, or any other error (500).
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The status the error is answered with.
    pub fn status(&self) -> StatusCode {
        self.error.status()
    }

    /// The answer the filter gives without `reject_errors`: the pipeline's error formatter's
    /// if it has one, else the built-in JSON body (`{"error": .., "details": [..]}`) with the
    /// error's headers (such as `Allow` on a 405). No body for a `HEAD` request.
    pub fn to_response(&self) -> Response {
        let response = self.pipeline.error_response(&self.error);
        crate::reply::into_warp(self.pipeline.answer(self.mode, Ok(response)))
    }
}

impl fmt::Debug for PactumRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PactumRejection")
            .field("error", &self.error)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Reject for PactumRejection {}

/// A ready-made `.recover()` for [`PactumRejection`]: answers it like the filter does without
/// [`reject_errors`](crate::Options::reject_errors), with pactum's JSON error body; passes
/// every other rejection on.
///
/// ```
/// use pactum::{handler, route, Endpoint, contract::NoContent};
/// use warp::Filter;
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let api = pactum_warp::Options::new()
///     .reject_errors(true)
///     .filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()])?;
/// let app = warp::path("api").and(api).recover(pactum_warp::recover);
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
///
/// # Errors
///
/// `rejection` itself when it holds no [`PactumRejection`].
pub async fn recover(rejection: Rejection) -> Result<Response, Rejection> {
    match rejection.find::<PactumRejection>() {
        Some(pactum) => Ok(pactum.to_response()),
        None => Err(rejection),
    }
}
