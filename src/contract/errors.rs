//! A contract's declared errors: [`EndpointBuilder::errors`], and what a built contract keeps
//! of them without their type ([`DeclaredErrors`]).

use std::any::{type_name, TypeId};

use http::StatusCode;

use super::builder::EndpointBuilder;
use super::Endpoint;
use crate::error::{ConfigError, ErrorAnswer, NoErrors};
#[cfg(feature = "pipeline")]
use {
    super::EndpointSpec,
    crate::error::{AnswerTypes, Error},
};

/// The errors slot is still empty.
#[diagnostic::on_unimplemented(
    message = "the error type is already declared: remove the second `.errors::<E>()`",
    label = "a contract has one error type (an enum can hold several errors)"
)]
pub trait ErrorsUnset {}

mod sealed {
    pub trait EmptyErrors {}
    impl EmptyErrors for super::NoErrors {}
}

// As for the other slots: a failing bound reports the message above alone.
#[diagnostic::do_not_recommend]
impl<T: sealed::EmptyErrors> ErrorsUnset for T {}

impl<M, K, P, Q, B, R, E> EndpointBuilder<M, K, P, Q, B, R, E> {
    /// Declares the contract's error answers: `T`, usually an enum of the endpoint's errors,
    /// each answered with its own status and JSON body (see [`ErrorAnswer`]). Once per
    /// contract.
    ///
    /// The handler returns them with `?` or `Err(e.into())`; the typed client
    /// (`pactum-client`) hands them back typed; the OpenAPI document lists each of
    /// [`ErrorAnswer::STATUSES`] with `T`'s schema. Any other error keeps the built-in
    /// [`ErrorBody`](crate::error::ErrorBody).
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::{handler, route, pipeline::Body, Ctx, Endpoint, error::ErrorAnswer, Params, Pipeline};
    /// use serde::{Deserialize, Serialize};
    /// use validator::Validate;
    ///
    /// #[derive(Serialize, Deserialize, Validate, Params)]
    /// struct UserPath { id: u64 }
    /// #[derive(Serialize, Deserialize, Validate)]
    /// struct User { id: u64 }
    ///
    /// #[derive(Debug, Serialize, Deserialize)]
    /// #[serde(tag = "code", rename_all = "snake_case")]
    /// enum GetUserError {
    ///     UserNotFound { id: u64 },
    /// }
    /// impl ErrorAnswer for GetUserError {
    ///     const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND];
    ///     fn status(&self) -> StatusCode {
    ///         StatusCode::NOT_FOUND
    ///     }
    /// }
    /// impl std::fmt::Display for GetUserError {
    ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    ///         f.write_str("User not found")
    ///     }
    /// }
    /// impl std::error::Error for GetUserError {}
    ///
    /// let get_user = Endpoint::get(route!("/users/:id"))
    ///     .params::<UserPath>()
    ///     .response::<User>()
    ///     .errors::<GetUserError>()
    ///     .build()?;
    /// let find = |id: u64| (id == 1).then_some(User { id }).ok_or(GetUserError::UserNotFound { id });
    /// let pipeline = Pipeline::new(vec![
    ///     handler(get_user, move |ctx: Ctx<UserPath>| async move { Ok(find(ctx.params.id)?) }).into(),
    /// ])?;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let answer = pipeline.handle(http::Request::get("/users/9").body(Body::empty())?).await;
    /// assert_eq!(answer.status(), 404);
    /// assert_eq!(answer.headers()["content-type"], "application/json"); // {"code":"user_not_found","id":9}
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A second `.errors::<E>()` does not compile ("the error type is already declared").
    pub fn errors<T: ErrorAnswer>(self) -> EndpointBuilder<M, K, P, Q, B, R, T>
    where
        E: ErrorsUnset,
    {
        self.retype()
    }
}

impl<P, Q, B, R, E> Endpoint<P, Q, B, R, E> {
    /// The statuses of the contract's declared errors ([`ErrorAnswer::STATUSES`]); empty
    /// when it declares none.
    pub fn error_statuses(&self) -> &'static [StatusCode] {
        self.spec.errors.map_or(&[], |errors| errors.statuses)
    }
}

/// A built contract's declared errors, without their type: what the pipeline answers them
/// with, and what the OpenAPI document lists.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeclaredErrors {
    pub(crate) statuses: &'static [StatusCode],
    /// Turns a handler's error into the declared answer when it is one.
    #[cfg(feature = "pipeline")]
    recognise: fn(Error) -> Error,
    /// The declared type.
    #[cfg(feature = "pipeline")]
    type_id: TypeId,
}

impl DeclaredErrors {
    /// `E`'s, checked: `None` for [`NoErrors`].
    pub(super) fn of<E: ErrorAnswer>(route: &str) -> Result<Option<Self>, ConfigError> {
        if TypeId::of::<E>() == TypeId::of::<NoErrors>() {
            return Ok(None);
        }
        let refuse = |status| ConfigError::ErrorStatus {
            route: route.to_owned(),
            error_type: type_name::<E>(),
            status,
        };
        if E::STATUSES.is_empty() {
            return Err(refuse(None));
        }
        let not_an_error = |s: &&StatusCode| !s.is_client_error() && !s.is_server_error();
        if let Some(status) = E::STATUSES.iter().find(not_an_error) {
            return Err(refuse(Some(*status)));
        }
        #[cfg(feature = "pipeline")]
        AnswerTypes::note::<E>();
        Ok(Some(Self {
            statuses: E::STATUSES,
            #[cfg(feature = "pipeline")]
            recognise: Error::recognise::<E>,
            #[cfg(feature = "pipeline")]
            type_id: TypeId::of::<E>(),
        }))
    }
}

#[cfg(feature = "pipeline")]
impl EndpointSpec {
    /// A handler's error, as the contract answers it (only ever called on the error path):
    /// its declared error when it is one; a typed error answer the contract does not declare
    /// is logged and answered 500 `Internal server error`, without its text.
    pub(crate) fn recognise(&self, error: Error) -> Error {
        let error = match &self.errors {
            Some(errors) => (errors.recognise)(error),
            None => error,
        };
        let declared = self.errors.map(|errors| errors.type_id);
        match error.undeclared_answer(declared) {
            None => error,
            Some(error_type) => {
                tracing::error!(
                    route = %self.route,
                    method = %self.method,
                    error_type,
                    "the handler returned a typed error its contract does not declare: \
                     answered 500 without its text (declare it with `.errors::<T>()`)"
                );
                error.into_internal()
            }
        }
    }
}
