//! A handler's error as its contract answers it: its declared error recognised
//! ([`EndpointSpec::recognise`]), a typed error it does not declare hidden, and the warning,
//! once per route and status, for an [`HttpError`](crate::HttpError) status it does not
//! declare ([`UndeclaredStatuses`]).

use std::sync::{Mutex, PoisonError};

use http::StatusCode;

use crate::contract::EndpointSpec;
use crate::error::Error;

/// The undeclared statuses a handler has already been warned about.
#[derive(Debug, Default)]
pub(super) struct UndeclaredStatuses(Mutex<Vec<StatusCode>>);

impl UndeclaredStatuses {
    /// Warns, the first time, when `error` (a handler's, as its contract answers it) is an
    /// `HttpError` whose status the contract does not declare (error path only).
    pub(super) fn check(&self, spec: &EndpointSpec, error: &Error) {
        let Some(http) = error.as_http() else { return };
        let status = http.status();
        if http.rejection().is_some() || spec.declares_http_error(status) {
            return;
        }
        let mut warned = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if warned.contains(&status) {
            return;
        }
        warned.push(status);
        tracing::warn!(
            method = %spec.method,
            route = %spec.route,
            status = status.as_u16(),
            "the handler answered an `HttpError` status its contract does not declare: \
             clients and the OpenAPI document do not know it (declare it with \
             `.http_error(status, description)`)"
        );
    }
}

impl EndpointSpec {
    /// A handler's error, as the contract answers it (only ever called on the error path):
    /// its declared error when it is one; a typed error answer the contract does not declare
    /// is logged and answered 500 `Internal server error`, without its text.
    pub(super) fn recognise(&self, error: Error) -> Error {
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
