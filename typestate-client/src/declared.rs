//! A contract's declared errors ([`pactum::error::ErrorAnswer`]), handed back typed: decoding an
//! answer as one, and [`Error::declared`] / [`Error::into_declared`].

use http::{HeaderMap, StatusCode};
use pactum::{error::ErrorAnswer, error::ErrorBody};

use crate::error::Error;
use crate::transport::ReceivedBody;

impl<E> Error<E> {
    /// The contract's declared error the server answered with, decoded: match on it.
    ///
    /// `Some` when the contract declares errors ([`EndpointBuilder::errors`]) and the answer's
    /// status is one of theirs ([`ErrorAnswer::STATUSES`]) with a body of their type. Every
    /// other failure — an error the contract does not declare, the pipeline's own 400, a
    /// transport error — is `None` and reads as before ([`status`](Error::status),
    /// [`error_body`](Error::error_body), …).
    ///
    /// [`EndpointBuilder::errors`]: pactum::contract::EndpointBuilder::errors
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::{handler, route, Ctx, Endpoint, error::ErrorAnswer, Params, Pipeline};
    /// use pactum_client::Client;
    /// use serde::{Deserialize, Serialize};
    /// use validator::Validate;
    ///
    /// #[derive(Serialize, Deserialize, Validate, Params)]
    /// struct UserPath { id: u64 }
    /// #[derive(Debug, Serialize, Deserialize, Validate)]
    /// struct User { id: u64 }
    ///
    /// /// The errors of `GET /users/:id`.
    /// #[derive(Debug, PartialEq, Serialize, Deserialize)]
    /// #[serde(tag = "code", rename_all = "snake_case")]
    /// enum GetUserError {
    ///     UserNotFound { id: u64 },
    ///     Suspended { id: u64 },
    /// }
    /// impl ErrorAnswer for GetUserError {
    ///     const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::FORBIDDEN];
    ///     fn status(&self) -> StatusCode {
    ///         match self {
    ///             Self::UserNotFound { .. } => StatusCode::NOT_FOUND,
    ///             Self::Suspended { .. } => StatusCode::FORBIDDEN,
    ///         }
    ///     }
    /// }
    /// impl std::fmt::Display for GetUserError {
    ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    ///         write!(f, "{self:?}")
    ///     }
    /// }
    /// impl std::error::Error for GetUserError {}
    ///
    /// let get_user = Endpoint::get(route!("/users/:id"))
    ///     .params::<UserPath>()
    ///     .response::<User>()
    ///     .errors::<GetUserError>()
    ///     .build()?;
    /// let server = handler(get_user.clone(), |ctx: Ctx<UserPath>| async move {
    ///     match ctx.params.id {
    ///         1 => Ok(User { id: 1 }),
    ///         id => Err(GetUserError::UserNotFound { id }.into()),
    ///     }
    /// });
    /// let client = Client::in_process(Pipeline::new(vec![server.into()])?);
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
    /// let err = client.call(&get_user).params(UserPath { id: 9 }).send().await.unwrap_err();
    /// match err.declared() {
    ///     Some(GetUserError::UserNotFound { id }) => assert_eq!(*id, 9),
    ///     Some(GetUserError::Suspended { .. }) => unreachable!("not suspended"),
    ///     None => return Err(err.into()), // not one of the contract's errors
    /// }
    /// assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn declared(&self) -> Option<&E> {
        self.inner.declared.as_ref()
    }

    /// The declared error, taken out; the error itself when it is not one (to return it
    /// with `?`).
    ///
    /// # Errors
    ///
    /// `self`, when the answer is not one of the contract's declared errors.
    pub fn into_declared(mut self) -> Result<E, Self> {
        match self.inner.declared.take() {
            Some(declared) => Ok(declared),
            None => Err(self),
        }
    }

    /// `true` when the answer is one of the contract's declared errors
    /// ([`declared`](Error::declared) is `Some`).
    pub fn is_declared(&self) -> bool {
        self.inner.declared.is_some()
    }

    /// The same error without its declared type: the status, body, details and source are
    /// kept, the decoded declared error is dropped. For a function that returns errors of
    /// several contracts as one `pactum_client::Error`.
    pub fn untyped(self) -> Error {
        self.typed()
    }
}

impl<E: ErrorAnswer> Error<E> {
    /// A non-2xx answer that is one of the contract's declared errors: a status of
    /// [`ErrorAnswer::STATUSES`] and a body of type `E`. `None` otherwise (the answer is
    /// then read as before: an HTTP status error with pactum's [`ErrorBody`]). A declared
    /// error with typed headers ([`WithHeaders`](pactum::contract::WithHeaders)) needs them
    /// too, present and within their rules.
    pub(crate) fn of_declared(
        status: StatusCode,
        headers: &HeaderMap,
        body: &ReceivedBody,
    ) -> Option<Self> {
        let ReceivedBody::Whole(body) = body else {
            return None;
        };
        if status.is_success() || !E::STATUSES.contains(&status) {
            return None;
        }
        let declared = E::read_error(body, headers)?;
        // Its `error` and `code` when it has pactum's shape, else its message.
        let error_body = serde_json::from_slice(body).unwrap_or_else(|_| ErrorBody {
            error: declared.to_string(),
            details: Vec::new(),
            code: None,
        });
        let mut error = Error::status_error(status, error_body).typed::<E>();
        error.inner.declared = Some(declared);
        Some(error)
    }
}
