//! Errors `?` cannot convert on its own: `anyhow::Error` and `Box<dyn Error + Send + Sync>`.
//!
//! Neither implements `std::error::Error`, and Rust's coherence rules forbid a `From` impl for
//! them beside [`Error`]'s blanket `From<E: std::error::Error>` (the compiler must assume that
//! `anyhow` or `std` may one day implement `std::error::Error` for them). [`ResultExt`] is the
//! one-word bridge instead: `.into_pactum()?`.

#[cfg(feature = "anyhow")]
use super::HttpError;
use super::{BoxError, Error};

impl Error {
    /// Wraps an [`anyhow::Error`]: an [`HttpError`] inside (even under `.context(..)`) keeps
    /// its status, anything else is answered 500 with the error's message (its outermost
    /// context). The source chain is kept, for the log. Feature `anyhow`.
    ///
    /// ```
    /// use pactum::{Error, HttpError};
    ///
    /// let err = Error::from_anyhow(anyhow::anyhow!("database down"));
    /// assert_eq!(err.status(), 500);
    /// assert_eq!(err.to_body().error, "database down");
    ///
    /// let err = Error::from_anyhow(HttpError::not_found("No such user").into());
    /// assert_eq!(err.status(), 404);
    /// ```
    #[cfg(feature = "anyhow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "anyhow")))]
    pub fn from_anyhow(error: anyhow::Error) -> Self {
        match error.downcast::<HttpError>() {
            Ok(http) => http.into(),
            Err(other) => Self::from_boxed(other.into()),
        }
    }
}

/// `.into_pactum()` on a `Result` whose error `?` cannot convert into [`Error`] by itself:
/// `Box<dyn std::error::Error + Send + Sync>` ([`BoxError`]) and, with feature `anyhow`,
/// `anyhow::Error`. Every other error type converts with a plain `?`.
///
/// An [`HttpError`](crate::HttpError) inside keeps its status; anything else is answered 500
/// with its message (or `Internal server error`, with
/// [`PipelineBuilder::hide_internal_messages`](crate::pipeline::PipelineBuilder::hide_internal_messages)).
/// The source chain is kept for the log.
///
/// ```
/// use pactum::{error::BoxError, Error, error::ResultExt};
///
/// fn load() -> Result<u32, BoxError> {
///     Err("config missing".into())
/// }
///
/// fn handler_body() -> Result<u32, Error> {
///     let value = load().into_pactum()?;
///     Ok(value)
/// }
///
/// let err = handler_body().unwrap_err();
/// assert_eq!(err.status(), 500);
/// assert_eq!(err.to_body().error, "config missing");
/// ```
pub trait ResultExt<T> {
    /// This result with its error made an [`Error`].
    ///
    /// # Errors
    ///
    /// The error of `self`, converted.
    fn into_pactum(self) -> Result<T, Error>;
}

impl<T> ResultExt<T> for Result<T, BoxError> {
    fn into_pactum(self) -> Result<T, Error> {
        self.map_err(Error::from_boxed)
    }
}

#[cfg(feature = "anyhow")]
#[cfg_attr(docsrs, doc(cfg(feature = "anyhow")))]
impl<T> ResultExt<T> for Result<T, anyhow::Error> {
    fn into_pactum(self) -> Result<T, Error> {
        self.map_err(Error::from_anyhow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("saving failed")
        }
    }

    impl std::error::Error for Outer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_boxed_error_keeps_its_message_and_chain() {
        let boxed: BoxError = Box::new(Outer(std::io::Error::other("disk full")));
        let err = Err::<(), _>(boxed).into_pactum().unwrap_err();
        assert_eq!(err.status(), 500);
        assert_eq!(err.to_body().error, "saving failed");
        assert_eq!(
            super::super::answer::SourceChain(&err).to_string(),
            "saving failed: disk full"
        );
        assert!(err.downcast_ref::<Outer>().is_some());
    }

    #[test]
    fn a_boxed_http_error_keeps_its_status() {
        let boxed: BoxError = Box::new(crate::HttpError::conflict("taken"));
        let err = Err::<(), _>(boxed).into_pactum().unwrap_err();
        assert_eq!(err.status(), 409);
    }

    #[cfg(feature = "anyhow")]
    #[test]
    fn anyhow_keeps_its_chain_and_http_errors() {
        use anyhow::Context;

        let err = Err::<(), _>(std::io::Error::other("disk full"))
            .context("saving failed")
            .into_pactum()
            .unwrap_err();
        assert_eq!(err.status(), 500);
        assert_eq!(err.to_body().error, "saving failed");
        assert_eq!(
            super::super::answer::SourceChain(&err).to_string(),
            "saving failed: disk full"
        );

        let err = Err::<(), _>(crate::HttpError::forbidden("no"))
            .context("checking access")
            .into_pactum()
            .unwrap_err();
        assert_eq!(err.status(), 403);
        assert_eq!(err.to_body().error, "no");
    }
}
