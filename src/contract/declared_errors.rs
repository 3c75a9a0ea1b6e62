//! [`DeclaredErrors`]: what a built contract keeps of its declared errors, without their type.

use std::any::{type_name, TypeId};

use http::StatusCode;

#[cfg(feature = "pipeline")]
use crate::error::{AnswerTypes, Error};
use crate::error::{ConfigError, ErrorAnswer, NoErrors};

/// A built contract's declared errors, without their type: what the pipeline answers them
/// with, and what the OpenAPI document lists.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeclaredErrors {
    pub(crate) statuses: &'static [StatusCode],
    /// Turns a handler's error into the declared answer when it is one.
    #[cfg(feature = "pipeline")]
    pub(crate) recognise: fn(Error) -> Error,
    /// The declared type.
    #[cfg(feature = "pipeline")]
    pub(crate) type_id: TypeId,
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
