//! Reading a request body whole, within its limit: what the JSON body and
//! [`Request::body_bytes`](super::Request::body_bytes) share.

use bytes::Bytes;
use http::header::CONTENT_LENGTH;
use http::HeaderMap;
use http_body_util::combinators::Collect;
use http_body_util::{BodyExt, Collected, LengthLimitError, Limited};

use crate::body::Body;
use crate::error::{BoxError, Error, Rejection};

/// A body being read, within its limit: a future of the whole body.
pub(crate) type BodyRead = Collect<Limited<Body>>;

/// Starts reading a body, within `limit`: 413 at once for a `Content-Length` over it.
/// [`bytes_read`] finishes.
pub(crate) fn start_bytes(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<BodyRead, Error> {
    // The length the body declares: hyper's bodies (both adapters) carry their
    // `Content-Length` as their exact size; another body's header is read.
    let declared = http_body::Body::size_hint(&body).exact().or_else(|| {
        headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
    });
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large());
    }
    Ok(Limited::new(body, limit).collect())
}

/// The bytes [`start_bytes`] read: 413 past the limit, 400 when the body cannot be read.
/// One chunk is handed over as it came (a refcount, no copy).
pub(crate) fn bytes_read(read: Result<Collected<Bytes>, BoxError>) -> Result<Bytes, Error> {
    match read {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<LengthLimitError>() => Err(too_large()),
        Err(e) => Err(Rejection::BodyUnreadable.error().with_source(e).into()),
    }
}

fn too_large() -> Error {
    Rejection::PayloadTooLarge.error().into()
}
