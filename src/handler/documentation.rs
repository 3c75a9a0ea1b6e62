//! [`Documentation`]: what a handler in an adapter's list tells the OpenAPI document about
//! itself (feature `openapi`). The `openapi` module writes and reads it; this module only
//! carries it, so that handlers do not depend on the document.

use std::any::Any;
use std::sync::Arc;

/// What the OpenAPI document knows of an [`AnyHandler`](super::AnyHandler).
#[derive(Clone, Default)]
pub(crate) enum Documentation {
    /// Made with `.into()`: its types are gone, so the document cannot describe it, and
    /// building a document from a list that holds it fails (it would be served undocumented).
    #[default]
    Unknown,
    /// Left out of the document on purpose: the document's own routes, or a handler made
    /// with `undocumented()`.
    Omitted,
    /// How to describe it: made by the `openapi` module while its types were known.
    Described(Arc<dyn Any + Send + Sync>),
}
