//! [`UndeclaredStatuses`]: the warning, once per route and status, for an
//! [`HttpError`](crate::HttpError) status a handler returns and its contract does not declare.

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
