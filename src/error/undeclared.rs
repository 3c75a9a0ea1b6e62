//! Typed errors a handler's contract does not declare: how the pipeline knows a boxed error
//! is a typed answer ([`AnswerTypes`]), and how it answers one without its text.

use std::any::TypeId;
use std::sync::{PoisonError, RwLock};

use super::{BoxError, Error, ErrorAnswer, HttpError, Inner};

impl Error {
    /// The name of this error's type when it is a typed error answer ([`ErrorAnswer`]) other
    /// than `declared`, the type the handler's contract declares: an error that must not
    /// reach the wire with its text. Known for errors made with `?`, `into()` or
    /// [`Error::declared`], of a type some contract of the program declares.
    pub(crate) fn undeclared_answer(&self, declared: Option<TypeId>) -> Option<&'static str> {
        let origin = match &*self.inner {
            Inner::Declared(answer) => answer.origin,
            Inner::Other(_, Some(origin)) if AnswerTypes::holds(origin.id) => *origin,
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

/// Every [`ErrorAnswer`] type a contract of this program declares: how a boxed error is known
/// to be a typed answer (the pipeline's error path reads it; contracts write it once each
/// when built).
pub(crate) struct AnswerTypes;

static ANSWER_TYPES: RwLock<Vec<TypeId>> = RwLock::new(Vec::new());

impl AnswerTypes {
    /// Notes `E` as a typed error answer.
    pub(crate) fn note<E: ErrorAnswer>() {
        let id = TypeId::of::<E>();
        if !Self::holds(id) {
            ANSWER_TYPES
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .push(id);
        }
    }

    /// Whether `id` is a typed error answer's type.
    fn holds(id: TypeId) -> bool {
        ANSWER_TYPES
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&id)
    }
}
