//! Uploads: request bodies that are not JSON. [`Multipart`] reads a `multipart/form-data`
//! body into a typed form with [`FilePart`] files; [`ByteStream`] hands any body to the
//! handler as it arrives. Both are picked by the body type (`Slot::BODY`), so a JSON body
//! keeps its own path.

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
