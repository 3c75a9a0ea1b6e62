//! A 2xx answer of a [`Download`](pactum::contract::Download) contract: its body as it is
//! read, with its content type, length and disposition.

use bytes::Bytes;
use http::header::{CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue};
use pactum::contract::StreamedAnswer;

use crate::transport::ReceivedBody;

/// The parts a `Download` is made of: the body's chunks as they are read (one chunk when the
/// answer came whole, in-process), the `Content-Type` (`application/octet-stream` when the
/// answer has none), the `Content-Length` when the answer gives one (reqwest holds the body to
/// it: a body cut short is an error, never a clean end) and the `Content-Disposition`.
pub(crate) fn streamed_answer(headers: &HeaderMap, body: ReceivedBody) -> StreamedAnswer {
    let chunks = match body {
        ReceivedBody::Streamed(stream) => stream,
        ReceivedBody::Whole(bytes) => Box::pin(futures_util::stream::iter(
            (!bytes.is_empty()).then_some(Ok::<Bytes, _>(bytes)),
        )),
    };
    let length = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok());
    StreamedAnswer {
        chunks,
        content_type: headers
            .get(CONTENT_TYPE)
            .cloned()
            .unwrap_or_else(|| HeaderValue::from_static("application/octet-stream")),
        length,
        disposition: headers.get(CONTENT_DISPOSITION).cloned(),
    }
}
