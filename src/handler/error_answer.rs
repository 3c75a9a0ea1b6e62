//! A handler's error as its contract answers it: its declared error recognised
//! ([`DeclaredType`], `EndpointSpec::recognise`), a typed error it does not declare hidden, and the warning,
//! once per route and status, for an [`HttpError`](crate::HttpError) status it does not
//! declare ([`UndeclaredStatuses`]).

use std::any::TypeId;
use std::sync::{Mutex, PoisonError};

use http::StatusCode;

use crate::contract::EndpointSpec;
use crate::error::{Error, ErrorAnswer};

/// A contract's declared error type, as its handler's error path needs it: its type, and
/// how a boxed error of it becomes its declared answer.
#[derive(Clone, Copy)]
pub(super) struct DeclaredType {
    id: TypeId,
    recognise: fn(Error) -> Error,
}

impl DeclaredType {
    /// `E`'s, when `spec` (its contract) declares errors; `None` for
    /// [`NoErrors`](crate::error::NoErrors), which the contract keeps no errors for.
    pub(super) fn of<E: ErrorAnswer>(spec: &EndpointSpec) -> Option<Self> {
        spec.errors.map(|_| Self {
            id: TypeId::of::<E>(),
            recognise: Error::recognise::<E>,
        })
    }
}

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
    pub(super) fn recognise(&self, error: Error, declared: Option<DeclaredType>) -> Error {
        let error = match declared {
            Some(declared) => (declared.recognise)(error),
            None => error,
        };
        match error.undeclared_answer(declared.map(|declared| declared.id)) {
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

    /// Whether clients and the document know an [`HttpError`](crate::HttpError) of `status`
    /// from this contract's handler: declared with
    /// [`http_error`](crate::contract::EndpointBuilder::http_error) or
    /// [`default_http_error`](crate::contract::EndpointBuilder::default_http_error), among the
    /// declared errors' statuses, or one the pipeline documents by itself (500; 401 where
    /// credentials are required).
    fn declares_http_error(&self, status: StatusCode) -> bool {
        let settings = &self.settings;
        status == StatusCode::INTERNAL_SERVER_ERROR
            || (status == StatusCode::UNAUTHORIZED && !settings.security.is_empty())
            || self
                .errors
                .is_some_and(|errors| errors.statuses.contains(&status))
            || settings
                .http_errors
                .iter()
                .any(|answer| answer.status.is_none_or(|declared| declared == status))
    }
}
