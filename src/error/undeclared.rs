//! Typed errors and the contract that answers them: a boxed error recognised as the declared
//! answer it is ([`Error::recognise`]), how the pipeline knows a boxed error is a typed answer
//! some contract declares, and how it answers one its handler's contract does not declare
//! without its text.

use std::any::TypeId;
use std::sync::PoisonError;

use super::answer_types::DECLARED_ANSWER_TYPES;
use super::{BoxError, Error, ErrorAnswer, HttpError, Inner, Origin};

impl Error {
    /// The same error, answered as `E` when it is one (what a handler of a contract that
    /// declares `E` returned with `?`).
    pub(crate) fn recognise<E: ErrorAnswer>(self) -> Self {
        match self.into_other() {
            Ok((other, origin)) => match other.downcast::<E>() {
                Ok(declared) => Self::declared(*declared),
                Err(other) => Self {
                    inner: Box::new(Inner::Other(other, origin)),
                    request: None,
                },
            },
            Err(this) => this,
        }
    }

    /// The boxed error of a plain (not HTTP, not declared) error and its type, or the error
    /// back.
    fn into_other(self) -> Result<(BoxError, Option<Origin>), Self> {
        match *self.inner {
            Inner::Other(other, origin) => Ok((other, origin)),
            inner => Err(Self {
                inner: Box::new(inner),
                request: self.request,
            }),
        }
    }

    /// The name of this error's type when it is a typed error answer ([`ErrorAnswer`]) other
    /// than `declared`, the type the handler's contract declares: an error that must not
    /// reach the wire with its text. Known for errors made with `?`, `into()` or
    /// [`Error::declared`], of a type some contract of the program declares.
    pub(crate) fn undeclared_answer(&self, declared: Option<TypeId>) -> Option<&'static str> {
        let origin = match &*self.inner {
            Inner::Declared(answer) => answer.origin,
            Inner::Other(_, Some(origin)) if is_answer_type(origin.id) => *origin,
            Inner::Other(..) | Inner::Http(_) => return None,
        };
        (Some(origin.id) != declared).then_some(origin.name)
    }

    /// This error, answered as the built-in 500 `Internal server error`: its text is kept
    /// for the logs, never sent.
    pub(crate) fn into_internal(mut self) -> Self {
        let request = self.request.take();
        let mut hidden = Self::from(
            HttpError::internal("Internal server error").with_source(BoxError::from(self)),
        );
        hidden.request = request;
        hidden
    }
}

/// Whether `id` is the type of a typed error answer some contract declares.
fn is_answer_type(id: TypeId) -> bool {
    DECLARED_ANSWER_TYPES
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(&id)
}
