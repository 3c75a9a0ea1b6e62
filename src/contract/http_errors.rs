//! The [`HttpError`](crate::HttpError) answers a contract declares
//! ([`EndpointBuilder::http_error`], [`EndpointBuilder::default_http_error`]): documented once,
//! in the contract, for the OpenAPI document and for the server's check of what a handler
//! returns.

use std::borrow::Cow;

use http::StatusCode;

use super::builder::EndpointBuilder;
use super::settings::{HttpErrorAnswer, Settings};
use super::Endpoint;
use crate::error::ConfigError;

impl<M, K, P, Q, B, R, E, H, C> EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
    /// Declares an answer the handler (or middleware) gives with an
    /// [`HttpError`](crate::HttpError) of `status`, with the built-in
    /// [`ErrorBody`](crate::error::ErrorBody): the OpenAPI document lists it with
    /// `description`, and the server does not warn when a handler returns it. Once per status
    /// (a second call replaces the description); `status` is in `400..=599`, checked by
    /// [`build`](Self::build).
    ///
    /// A handler's `HttpError` whose status its contract does not declare (here, in
    /// [`errors`](Self::errors), or by the pipeline itself: 500 always, 401 where the
    /// contract requires credentials) is still answered as it is, and logged once per route
    /// and status as a warning: clients and the document do not know it.
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::{route, Endpoint, Params};
    /// # use serde::{Deserialize, Serialize}; use validator::Validate;
    /// # #[derive(Serialize, Deserialize, Validate, Params)]
    /// # struct UserPath { id: u64 }
    ///
    /// let delete_user = Endpoint::delete(route!("/users/:id"))
    ///     .params::<UserPath>()
    ///     .http_error(StatusCode::NOT_FOUND, "`User not found`: no user has this id")
    ///     .http_error(StatusCode::CONFLICT, "`User has orders`: delete them first")
    ///     .build()?;
    /// let statuses: Vec<_> = delete_user.http_errors().map(|(status, _)| status).collect();
    /// assert_eq!(statuses, [Some(StatusCode::NOT_FOUND), Some(StatusCode::CONFLICT)]);
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn http_error(
        mut self,
        status: StatusCode,
        description: impl Into<Cow<'static, str>>,
    ) -> Self {
        self.settings
            .declare_http_error(Some(status), description.into());
        self
    }

    /// Declares that the handler may answer an [`HttpError`](crate::HttpError) of a status
    /// not listed one by one (an operation that relays another service's status, say): the
    /// document's `default` answer, and no warning for any status.
    pub fn default_http_error(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.settings.declare_http_error(None, description.into());
        self
    }
}

impl Settings {
    fn declare_http_error(&mut self, status: Option<StatusCode>, description: Cow<'static, str>) {
        self.http_errors.retain(|answer| answer.status != status);
        self.http_errors.push(HttpErrorAnswer {
            status,
            description,
        });
    }

    /// Refuses a declared status that is not an error status.
    pub(super) fn check_http_errors(&self, route: &str) -> Result<(), ConfigError> {
        let not_an_error = |s: &StatusCode| !s.is_client_error() && !s.is_server_error();
        match self
            .http_errors
            .iter()
            .find_map(|a| a.status.filter(not_an_error))
        {
            Some(status) => Err(ConfigError::ErrorStatus {
                route: route.to_owned(),
                error_type: "HttpError",
                status: Some(status),
            }),
            None => Ok(()),
        }
    }
}

impl<P, Q, B, R, E, H, C> Endpoint<P, Q, B, R, E, H, C> {
    /// The [`HttpError`](crate::HttpError) answers the contract declares, in the order
    /// declared: each status (`None` for [`default_http_error`](EndpointBuilder::default_http_error))
    /// and its description.
    pub fn http_errors(&self) -> impl ExactSizeIterator<Item = (Option<StatusCode>, &str)> + '_ {
        self.spec
            .settings
            .http_errors
            .iter()
            .map(|answer| (answer.status, &*answer.description))
    }
}
