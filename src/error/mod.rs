//! The error model: [`Error`] travels through the pipeline, [`HttpError`] says how to answer,
//! [`ErrorBody`] is what is sent, [`ConfigError`] reports a contract or router that cannot work.

#[cfg(feature = "pipeline")]
mod answer;
mod answer_types;
mod body;
mod config;
mod declared;
mod foreign;
mod http_error;
mod rejection;
mod request_info;
#[cfg(feature = "pipeline")]
mod undeclared;

use std::any::TypeId;
use std::fmt;

use http::StatusCode;

#[doc(inline)]
pub use crate::__error_answer as error_answer;
pub use body::{Detail, ErrorBody, PathSegment};
pub use config::ConfigError;
pub use declared::{ErrorAnswer, NoErrors};
pub use foreign::ResultExt;
pub use http_error::HttpError;
pub use rejection::Rejection;
pub use request_info::RequestInfo;

pub(crate) use answer_types::note_declared;
use declared::DeclaredAnswer;

/// A boxed error that can cross threads.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The error a handler or middleware returns, and what `next()` gives back.
///
/// `?` converts any `std::error::Error + Send + Sync + 'static` into it (`anyhow::Error` and
/// `Box<dyn Error + Send + Sync>`, which are not, through [`ResultExt::into_pactum`]). An [`HttpError`] keeps
/// its status, details, code and headers; the contract's declared errors ([`ErrorAnswer`])
/// their status and JSON body; any other error is answered `500` with its message.
/// The original error stays inside: [`Error::downcast_ref`] gets it back.
///
/// `Error` does not implement `std::error::Error` itself (like `anyhow::Error`), so that the
/// blanket conversion above can exist.
///
/// ```
/// use pactum::{Error, HttpError};
///
/// let err: Error = HttpError::not_found("User not found").into();
/// assert_eq!(err.status(), 404);
///
/// let err: Error = std::io::Error::other("disk full").into();
/// assert_eq!(err.status(), 500);
/// assert_eq!(err.to_body().error, "disk full");
/// assert!(err.downcast_ref::<std::io::Error>().is_some());
/// ```
pub struct Error {
    inner: Box<Inner>,
    /// The request it answers, kept when the error formatter asks for it (by the pipeline).
    #[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
    request: Option<Box<RequestInfo>>,
}

enum Inner {
    Http(HttpError),
    /// A plain error, with the type it was converted from when `?` or `into()` made it (a
    /// [`from_boxed`](Error::from_boxed) error has lost it).
    Other(BoxError, Option<Origin>),
    Declared(DeclaredAnswer),
}

/// The type a plain error was made from: how the pipeline tells a typed error answer
/// ([`ErrorAnswer`]) from a plain error once it is boxed.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
struct Origin {
    id: TypeId,
    name: &'static str,
}

impl Origin {
    fn of<E: 'static>() -> Self {
        Self {
            id: TypeId::of::<E>(),
            name: std::any::type_name::<E>(),
        }
    }
}

impl Error {
    /// Wraps any boxed error; an [`HttpError`] inside is recognised.
    pub fn from_boxed(error: BoxError) -> Self {
        let inner = match error.downcast::<HttpError>() {
            Ok(http) => Inner::Http(*http),
            Err(other) => Inner::Other(other, None),
        };
        Self {
            inner: Box::new(inner),
            request: None,
        }
    }

    fn of_declared(declared: DeclaredAnswer) -> Self {
        Self {
            inner: Box::new(Inner::Declared(declared)),
            request: None,
        }
    }

    /// The status this error is answered with: the [`HttpError`]'s or the declared error's,
    /// else 500.
    pub fn status(&self) -> StatusCode {
        match &*self.inner {
            Inner::Http(e) => e.status(),
            Inner::Other(..) => StatusCode::INTERNAL_SERVER_ERROR,
            Inner::Declared(d) => d.status,
        }
    }

    /// `true` for one of a contract's declared errors ([`ErrorAnswer`]), answered with its
    /// own JSON body (see [`Error::declared`]).
    pub fn is_declared(&self) -> bool {
        matches!(&*self.inner, Inner::Declared(_))
    }

    /// The [`HttpError`] inside, if this error is one.
    pub fn as_http(&self) -> Option<&HttpError> {
        match &*self.inner {
            Inner::Http(e) => Some(e),
            Inner::Other(..) | Inner::Declared(_) => None,
        }
    }

    /// Which of the pipeline's own answers this is ([`Rejection`]), if it is one: `None` for
    /// what a handler or middleware returned.
    pub fn rejection(&self) -> Option<Rejection> {
        self.as_http().and_then(HttpError::rejection)
    }

    /// The original error, if it is a `T`.
    pub fn downcast_ref<T: std::error::Error + 'static>(&self) -> Option<&T> {
        match &*self.inner {
            Inner::Http(e) => (e as &dyn std::error::Error).downcast_ref(),
            Inner::Other(e, _) => e.downcast_ref(),
            Inner::Declared(d) => d.source.downcast_ref(),
        }
    }

    /// The JSON body this error is answered with; for a declared error, its body read as an
    /// [`ErrorBody`] (its `error` and `code` when it has them, else its message).
    pub fn to_body(&self) -> ErrorBody {
        match &*self.inner {
            Inner::Http(e) => e.to_body(),
            Inner::Declared(d) => d.to_body(),
            Inner::Other(e, _) => ErrorBody {
                error: e.to_string(),
                details: Vec::new(),
                code: None,
            },
        }
    }

    fn as_dyn(&self) -> &(dyn std::error::Error + 'static) {
        match &*self.inner {
            Inner::Http(e) => e,
            Inner::Other(e, _) => &**e,
            Inner::Declared(d) => &*d.source,
        }
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for Error {
    fn from(error: E) -> Self {
        let mut this = Self::from_boxed(Box::new(error));
        if let Inner::Other(_, origin) = &mut *this.inner {
            *origin = Some(Origin::of::<E>());
        }
        this
    }
}

impl From<Error> for BoxError {
    /// Unwraps the original error, so `?` works in functions returning `Box<dyn Error>`.
    fn from(error: Error) -> Self {
        match *error.inner {
            Inner::Http(e) => Box::new(e),
            Inner::Other(e, _) => e,
            Inner::Declared(d) => d.source,
        }
    }
}

impl From<Error> for Box<dyn std::error::Error + 'static> {
    fn from(error: Error) -> Self {
        BoxError::from(error)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.inner {
            Inner::Http(e) => fmt::Debug::fmt(e, f),
            Inner::Other(e, _) => f.debug_tuple("Error").field(e).finish(),
            Inner::Declared(d) => f
                .debug_tuple("Declared")
                .field(&d.status)
                .field(&d.source)
                .finish(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_dyn(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_error_keeps_its_status_through_boxing() {
        let boxed: BoxError = Box::new(HttpError::forbidden("no"));
        let err = Error::from_boxed(boxed);
        assert_eq!(err.status(), StatusCode::FORBIDDEN);
        assert_eq!(err.to_body().error, "no");
    }
}
