//! Uploads: request bodies that are not JSON. [`Multipart`] reads a `multipart/form-data`
//! body into a typed form with [`FilePart`] files; [`ByteStream`] hands any body to the
//! handler as it arrives. Both are picked by the body type (`Slot::BODY`), so a JSON body
//! keeps its own path.

mod file;
#[cfg(feature = "pipeline")]
mod form_de;
mod form_ser;
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

#[cfg(feature = "pipeline")]
use {
    crate::body::Body,
    crate::error::{BoxError, Error, Rejection},
    bytes::Bytes,
    futures_core::Stream,
    http_body::Body as _,
    std::pin::Pin,
    std::task::{Context, Poll},
};

/// 413 `Payload too large`.
#[cfg(feature = "pipeline")]
fn content_too_large() -> Error {
    Rejection::PayloadTooLarge.error().into()
}

/// A `Content-Type`'s type and subtype, without its parameters.
#[cfg(feature = "pipeline")]
fn media_essence(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or_default().trim()
}

/// The data of a body as a stream of chunks (trailers skipped), for multer.
#[cfg(feature = "pipeline")]
fn data_stream(body: Body) -> DataStream {
    DataStream(body)
}

#[cfg(feature = "pipeline")]
struct DataStream(Body);

#[cfg(feature = "pipeline")]
impl Stream for DataStream {
    type Item = Result<Bytes, BoxError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            return match std::task::ready!(Pin::new(&mut self.0).poll_frame(cx)) {
                None => Poll::Ready(None),
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => Poll::Ready(Some(Ok(data))),
                    Err(_trailers) => continue,
                },
                Some(Err(e)) => Poll::Ready(Some(Err(e))),
            };
        }
    }
}

#[cfg(all(test, feature = "pipeline"))]
mod tests;
