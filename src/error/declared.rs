//! Declared errors: [`ErrorAnswer`], the trait of a contract's typed error answers, the
//! [`NoErrors`] marker, and how a declared error travels inside an [`Error`].

use std::fmt;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};

use super::body::ErrorBody;
use super::rejection::Rejection;
use super::{BoxError, Error, Origin};

/// The error answers a contract declares with
/// [`EndpointBuilder::errors`](crate::contract::EndpointBuilder::errors): a type, usually an enum of the
/// endpoint's errors, that is sent as its own JSON body with its own status.
///
/// - **server**: a handler returns it with `?` or `Err(e.into())` (it is a
///   `std::error::Error`, so it converts into [`Error`] like any other); the pipeline, which
///   knows the contract's type, answers it with [`status`](ErrorAnswer::status) and its JSON;
/// - **client**: `pactum-client` decodes an answer whose status is one of
///   [`STATUSES`](ErrorAnswer::STATUSES) as this type, and hands it back typed;
/// - **OpenAPI**: each status of [`STATUSES`](ErrorAnswer::STATUSES) is documented with this
///   type's schema.
///
/// Errors the type does not cover (a plain `std::io::Error`, an [`HttpError`](crate::HttpError),
/// the pipeline's own 400s) keep the built-in [`ErrorBody`]. A handler that returns a typed
/// error its contract does not declare (one another contract declares) is answered 500
/// `Internal server error`, without the error's text, and the server logs the route and type.
///
/// [`error_answer!`](crate::error::error_answer!) writes the impl from one `pattern => STATUS` table.
///
/// ```
/// use pactum::http::StatusCode;
/// use pactum::error::ErrorAnswer;
/// use serde::{Deserialize, Serialize};
///
/// /// The errors of `GET /users/:id`.
/// #[derive(Debug, Serialize, Deserialize)]
/// #[serde(tag = "code", rename_all = "snake_case")]
/// enum GetUserError {
///     UserNotFound { id: u64 },
///     Suspended { id: u64, until: String },
/// }
///
/// impl ErrorAnswer for GetUserError {
///     const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::FORBIDDEN];
///
///     fn status(&self) -> StatusCode {
///         match self {
///             Self::UserNotFound { .. } => StatusCode::NOT_FOUND,
///             Self::Suspended { .. } => StatusCode::FORBIDDEN,
///         }
///     }
/// }
///
/// // `?` needs `std::error::Error` (or use `thiserror`).
/// impl std::fmt::Display for GetUserError {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         match self {
///             Self::UserNotFound { id } => write!(f, "user {id} not found"),
///             Self::Suspended { id, until } => write!(f, "user {id} is suspended until {until}"),
///         }
///     }
/// }
/// impl std::error::Error for GetUserError {}
///
/// let error = pactum::Error::from(GetUserError::UserNotFound { id: 7 });
/// # let _ = error;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a contract's declared errors: implement `pactum::error::ErrorAnswer` for it",
    label = "not an `ErrorAnswer`",
    note = "it needs `Serialize`, `Deserialize`, `std::error::Error`, a `status()` and the list of its `STATUSES`"
)]
pub trait ErrorAnswer:
    Serialize + DeserializeOwned + std::error::Error + Send + Sync + 'static
{
    /// Every status [`status`](ErrorAnswer::status) may return, each in `400..=599` (checked
    /// by [`build`](crate::contract::EndpointBuilder::build)). The client decodes an answer with one of
    /// them as `Self` (and falls back to [`ErrorBody`] when it is not one); the OpenAPI
    /// document lists them.
    const STATUSES: &'static [StatusCode];

    /// The status this error is answered with: one of [`STATUSES`](ErrorAnswer::STATUSES).
    fn status(&self) -> StatusCode;

    /// The response headers the error sets, its rules checked
    /// ([`WithHeaders`](crate::contract::WithHeaders)); none for any other type.
    ///
    /// # Errors
    ///
    /// A header that breaks its rules or cannot be written.
    #[doc(hidden)]
    fn error_headers(&self) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
        Ok(Vec::new())
    }

    /// The error an answer with one of [`STATUSES`](ErrorAnswer::STATUSES) stands for, read
    /// from its body (and, for a [`WithHeaders`](crate::contract::WithHeaders), its headers);
    /// `None` when it is not one.
    #[doc(hidden)]
    fn read_error(body: &[u8], headers: &HeaderMap) -> Option<Self> {
        let _ = headers;
        serde_json::from_slice(body).ok()
    }

    /// Notes the type (and a [`WithHeaders`](crate::contract::WithHeaders)'s inner type) as
    /// declared by a contract of this program, so that the pipeline never sends it
    /// undeclared with its text.
    #[doc(hidden)]
    fn note_declared() {
        super::answer_types::note_declared::<Self>();
    }
}

/// Implements [`ErrorAnswer`] from one list of `pattern => STATUS` arms, so that
/// [`STATUSES`](ErrorAnswer::STATUSES) and [`status`](ErrorAnswer::status) cannot disagree.
///
/// Each status is the name of a [`StatusCode`](crate::http::StatusCode) constant. The type
/// still needs `Serialize`, `Deserialize` and `std::error::Error` (by hand or with
/// `thiserror`).
///
/// ```
/// use pactum::http::StatusCode;
/// use pactum::error::ErrorAnswer;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Serialize, Deserialize)]
/// #[serde(tag = "code", rename_all = "snake_case")]
/// enum GetUserError {
///     UserNotFound { id: u64 },
///     Suspended { id: u64 },
///     Banned { id: u64 },
/// }
///
/// pactum::error::error_answer!(GetUserError {
///     Self::UserNotFound { .. } => NOT_FOUND,
///     Self::Suspended { .. } | Self::Banned { .. } => FORBIDDEN,
/// });
/// # impl std::fmt::Display for GetUserError {
/// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{self:?}") }
/// # }
/// # impl std::error::Error for GetUserError {}
///
/// assert_eq!(GetUserError::STATUSES, [StatusCode::NOT_FOUND, StatusCode::FORBIDDEN]);
/// assert_eq!(GetUserError::Banned { id: 1 }.status(), StatusCode::FORBIDDEN);
/// ```
// Exported at the root under a hidden name (`#[macro_export]` can only put it there) and
// re-exported as `pactum::error::error_answer!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __error_answer {
    ($type:ty { $($pattern:pat => $status:ident),+ $(,)? }) => {
        impl $crate::error::ErrorAnswer for $type {
            const STATUSES: &'static [$crate::http::StatusCode] =
                &[$($crate::http::StatusCode::$status),+];

            fn status(&self) -> $crate::http::StatusCode {
                match self {
                    $($pattern => $crate::http::StatusCode::$status),+
                }
            }
        }
    };
}

/// The errors slot of a contract that declares none: every error is answered with the
/// built-in [`ErrorBody`]. No value of it exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoErrors {}

impl ErrorAnswer for NoErrors {
    const STATUSES: &'static [StatusCode] = &[];

    fn status(&self) -> StatusCode {
        match *self {}
    }
}

impl fmt::Display for NoErrors {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl std::error::Error for NoErrors {}

impl Serialize for NoErrors {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl<'de> Deserialize<'de> for NoErrors {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(D::Error::custom("the contract declares no errors"))
    }
}

/// A declared error, ready to send: its status and JSON, and the original value (logged,
/// and given back by [`Error::downcast_ref`]).
pub(super) struct DeclaredAnswer {
    pub(super) status: StatusCode,
    pub(super) body: Bytes,
    pub(super) source: BoxError,
    /// Its typed headers ([`WithHeaders`](crate::contract::WithHeaders)); most often none.
    /// Written by the pipeline's answer.
    #[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
    pub(super) headers: Vec<(HeaderName, HeaderValue)>,
    /// The declared type.
    #[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
    pub(super) origin: Origin,
}

impl DeclaredAnswer {
    /// The body read as pactum's [`ErrorBody`] (for error formatters and logs): as it is when
    /// it has that shape (an `error` string), else the error's message.
    pub(super) fn to_body(&self) -> ErrorBody {
        serde_json::from_slice(&self.body).unwrap_or_else(|_| ErrorBody {
            error: self.source.to_string(),
            details: Vec::new(),
            code: None,
        })
    }
}

impl Error {
    /// A contract's declared error, answered with its own status and JSON body.
    ///
    /// A handler's `?` does this by itself for the error type its contract declares
    /// ([`EndpointBuilder::errors`](crate::contract::EndpointBuilder::errors)). Call it where the
    /// contract is not known: in middleware. A handler whose contract does not declare `E`
    /// gets a 500 `Internal server error` instead, and the server logs the route and type: a
    /// typed error the contract does not declare never reaches the wire with its text.
    ///
    /// When `error` cannot be serialised, the answer is 500 `Response serialization failed`.
    ///
    /// ```
    /// # use pactum::http::StatusCode;
    /// # #[derive(Debug, serde::Serialize, serde::Deserialize)]
    /// # struct Gone { error: String, id: u64 }
    /// # impl std::fmt::Display for Gone {
    /// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "gone") }
    /// # }
    /// # impl std::error::Error for Gone {}
    /// # impl pactum::error::ErrorAnswer for Gone {
    /// #     const STATUSES: &'static [StatusCode] = &[StatusCode::GONE];
    /// #     fn status(&self) -> StatusCode { StatusCode::GONE }
    /// # }
    /// let error = pactum::Error::declared(Gone { error: "Gone".into(), id: 3 });
    /// assert_eq!(error.status(), 410);
    /// assert!(error.is_declared());
    /// assert_eq!(error.to_response().headers()["content-type"], "application/json");
    /// assert_eq!(error.to_body().error, "Gone"); // the body: {"error":"Gone","id":3}
    /// assert_eq!(error.downcast_ref::<Gone>().map(|g| g.id), Some(3));
    /// ```
    pub fn declared<E: ErrorAnswer>(error: E) -> Self {
        let status = error.status();
        #[cfg(feature = "pipeline")]
        if !E::STATUSES.contains(&status) {
            tracing::warn!(
                %status,
                error_type = std::any::type_name::<E>(),
                "a declared error answers a status its `STATUSES` do not list: clients will not decode it"
            );
        }
        let headers = match error.error_headers() {
            Ok(headers) => headers,
            Err(problem) => {
                return Rejection::ResponseValidationFailed
                    .error()
                    .with_source(format!("the headers of a declared error: {problem}"))
                    .into()
            }
        };
        match serde_json::to_vec(&error) {
            Ok(body) => Self::of_declared(DeclaredAnswer {
                status,
                body: Bytes::from(body),
                source: Box::new(error),
                headers,
                origin: Origin::of::<E>(),
            }),
            Err(e) => Rejection::ResponseSerializationFailed
                .error()
                .with_source(e)
                .into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::error::HttpError;

    #[derive(Debug, Serialize, Deserialize)]
    struct Gone {
        id: u64,
    }

    impl fmt::Display for Gone {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "gone {}", self.id)
        }
    }

    impl std::error::Error for Gone {}

    impl ErrorAnswer for Gone {
        const STATUSES: &'static [StatusCode] = &[StatusCode::GONE];

        fn status(&self) -> StatusCode {
            StatusCode::GONE
        }
    }

    #[test]
    fn only_the_declared_type_is_recognised() {
        let declared = Error::from(Gone { id: 1 }).recognise::<Gone>();
        assert!(declared.is_declared());
        assert_eq!(declared.status(), StatusCode::GONE);
        assert_eq!(declared.to_response().status(), StatusCode::GONE);
        assert_eq!(declared.downcast_ref::<Gone>().map(|g| g.id), Some(1));
        assert_eq!(declared.rejection(), None);
        let boxed = BoxError::from(declared);
        assert!(
            boxed.downcast_ref::<Gone>().is_some(),
            "the original comes back"
        );

        let other = Error::from(std::io::Error::other("disk")).recognise::<Gone>();
        assert!(!other.is_declared());
        assert_eq!(other.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(other.downcast_ref::<std::io::Error>().is_some());

        let http = Error::from(HttpError::conflict("taken")).recognise::<Gone>();
        assert!(!http.is_declared());
        assert_eq!(
            http.as_http().map(HttpError::status),
            Some(StatusCode::CONFLICT)
        );

        let undeclared = Error::from(Gone { id: 2 }).recognise::<NoErrors>();
        assert!(!undeclared.is_declared());
        assert_eq!(undeclared.to_body().error, "gone 2");
    }

    #[test]
    fn a_body_of_another_shape_reads_as_its_message() {
        let error = Error::declared(Gone { id: 3 });
        let expected = ErrorBody {
            error: "gone 3".to_owned(),
            details: Vec::new(),
            code: None,
        };
        assert_eq!(error.to_body(), expected);
    }

    #[test]
    fn a_declared_error_that_cannot_be_written_is_a_500() {
        #[derive(Debug, Serialize, Deserialize)]
        struct Keyed(HashMap<(u8, u8), u8>);
        impl fmt::Display for Keyed {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("keyed")
            }
        }
        impl std::error::Error for Keyed {}
        impl ErrorAnswer for Keyed {
            const STATUSES: &'static [StatusCode] = &[StatusCode::CONFLICT];
            fn status(&self) -> StatusCode {
                StatusCode::CONFLICT
            }
        }
        // JSON object keys are strings: a tuple key does not serialise.
        let error = Error::declared(Keyed(HashMap::from([((1, 2), 3)])));
        assert!(!error.is_declared());
        assert_eq!(
            error.rejection(),
            Some(Rejection::ResponseSerializationFailed)
        );
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
