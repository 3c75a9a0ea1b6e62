//! Uploads: request bodies that are not JSON. [`Multipart`] reads a `multipart/form-data`
//! body into a typed form with [`FilePart`] files; [`ByteStream`] hands any body to the
//! handler as it arrives. Both are picked by the body type (`Slot::BODY`), so a JSON body
//! keeps its own path.
//!
//! This module is the contract's half (the types, and how the typed client writes them); the
//! pipeline reads them in `decode::upload`, through the `BodyReader` a body type's hidden
//! `Slot::read_body` hook is handed. Adding a body kind:
//!
//! 1. a `BodyKind` variant (`contract/body_kind.rs`) and the type's `Slot` impl here, with
//!    `BODY`, `read_body` (one `BodyReader` method) and `encode_body` (the typed client);
//! 2. if no `BodyReader` method fits, a new one (`contract/slot.rs`) and its reading in
//!    `decode/upload.rs`, with its 4xx answers;
//! 3. its request body in the OpenAPI document (`upload/schema.rs`, `openapi`);
//! 4. a round trip through both adapters and the typed client (`tests/integration/uploads.rs`).

pub(crate) mod file;
pub(crate) mod form_ser;
mod multipart;
#[cfg(feature = "openapi")]
mod schema;
mod stream;

pub use file::FilePart;
pub use multipart::Multipart;
pub use stream::ByteStream;

/// One part of a form, read whole (by the pipeline) or written (by the typed client).
#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) name: String,
    pub(crate) filename: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) data: bytes::Bytes,
}
