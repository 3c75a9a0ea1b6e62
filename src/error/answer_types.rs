//! Every [`ErrorAnswer`] type a contract of this program declares, noted once each when a
//! contract is built: how the pipeline's error path (`undeclared`) knows a boxed error is a
//! typed answer that must not reach the wire with its text.

use std::any::TypeId;
use std::sync::{PoisonError, RwLock};

use super::ErrorAnswer;

/// The declared answer types; read by the pipeline's error path only.
pub(super) static DECLARED_ANSWER_TYPES: RwLock<Vec<TypeId>> = RwLock::new(Vec::new());

/// Notes `E` as a typed error answer some contract declares.
pub(crate) fn note_declared<E: ErrorAnswer>() {
    let id = TypeId::of::<E>();
    let mut types = DECLARED_ANSWER_TYPES
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    if !types.contains(&id) {
        types.push(id);
    }
}
