//! [`DeclaredErrors`]: what a built contract keeps of its declared errors, without their type.

use std::any::{type_name, TypeId};

use http::StatusCode;

use crate::error::{ConfigError, ErrorAnswer, NoErrors};

/// A built contract's declared errors, without their type: what the OpenAPI document lists
/// and the pipeline answers them with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeclaredErrors {
    pub(crate) statuses: &'static [StatusCode],
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
        E::note_declared();
        Ok(Some(Self {
            statuses: E::STATUSES,
        }))
    }
}
