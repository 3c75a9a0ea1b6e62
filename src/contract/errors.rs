//! A contract's declared errors: [`EndpointBuilder::errors`] and
//! [`Endpoint::error_statuses`]. What a built contract keeps of them is in `declared_errors`.

use http::StatusCode;

use super::builder::EndpointBuilder;
use super::Endpoint;
use crate::error::{ErrorAnswer, NoErrors};

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

impl<M, K, P, Q, B, R, E, H, C> EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
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
    pub fn errors<T: ErrorAnswer>(self) -> EndpointBuilder<M, K, P, Q, B, R, T, H, C>
    where
        E: ErrorsUnset,
    {
        self.retype()
    }
}

impl<P, Q, B, R, E, H, C> Endpoint<P, Q, B, R, E, H, C> {
    /// The statuses of the contract's declared errors ([`ErrorAnswer::STATUSES`]); empty
    /// when it declares none.
    pub fn error_statuses(&self) -> &'static [StatusCode] {
        self.spec.errors.map_or(&[], |errors| errors.statuses)
    }
}
