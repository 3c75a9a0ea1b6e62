//! Reading a request body whole, within its limit: what the JSON body and
//! [`Request::body_bytes`](super::Request::body_bytes) share.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::{Bytes, BytesMut};
use http::header::CONTENT_LENGTH;
use http::HeaderMap;
use http_body::Body as _;

use crate::body::Body;
use crate::error::{Error, Rejection};

/// Starts reading a body, within `limit`: 413 at once for a `Content-Length` over it.
pub(crate) fn start_bytes(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<BodyRead, Error> {
    // The length the body declares: hyper's bodies (both adapters) carry their
    // `Content-Length` as their exact size; another body's header is read.
    let declared = body.size_hint().exact().or_else(|| {
        headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
    });
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large());
    }
    Ok(BodyRead {
        body,
        limit,
        read: Read::Nothing,
    })
}

/// A body being read, within its limit: a future of its bytes. 413 past the limit, 400 when
/// the body cannot be read; trailers are ignored.
///
/// A body that comes in one chunk (a small request's, most often) is handed over as it came:
/// a refcount, no copy, no allocation. More chunks are gathered into one buffer.
#[derive(Debug)]
pub(crate) struct BodyRead {
    body: Body,
    limit: usize,
    read: Read,
}

#[derive(Debug)]
enum Read {
    Nothing,
    One(Bytes),
    More(BytesMut),
}

impl Future for BodyRead {
    type Output = Result<Bytes, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        loop {
            let frame = match ready!(Pin::new(&mut this.body).poll_frame(cx)) {
                Some(Ok(frame)) => frame,
                Some(Err(e)) => {
                    return Poll::Ready(Err(Rejection::BodyUnreadable
                        .error()
                        .with_source(e)
                        .into()))
                }
                None => {
                    return Poll::Ready(Ok(
                        match std::mem::replace(&mut this.read, Read::Nothing) {
                            Read::Nothing => Bytes::new(),
                            Read::One(bytes) => bytes,
                            Read::More(buffer) => buffer.freeze(),
                        },
                    ))
                }
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let read = match &this.read {
                Read::Nothing => 0,
                Read::One(bytes) => bytes.len(),
                Read::More(buffer) => buffer.len(),
            };
            if data.len() > this.limit - read {
                return Poll::Ready(Err(too_large()));
            }
            this.read = match std::mem::replace(&mut this.read, Read::Nothing) {
                Read::Nothing => Read::One(data),
                Read::One(first) => {
                    let mut buffer = BytesMut::with_capacity(first.len() + data.len());
                    buffer.extend_from_slice(&first);
                    buffer.extend_from_slice(&data);
                    Read::More(buffer)
                }
                Read::More(mut buffer) => {
                    buffer.extend_from_slice(&data);
                    Read::More(buffer)
                }
            };
        }
    }
}

fn too_large() -> Error {
    Rejection::PayloadTooLarge.error().into()
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use http::HeaderMap;
    use http_body_util::StreamBody;

    use super::start_bytes;
    use crate::body::Body;

    fn chunked(chunks: &[&'static str]) -> Body {
        let frames = chunks
            .iter()
            .map(|c| Ok::<_, std::convert::Infallible>(http_body::Frame::data(Bytes::from(*c))));
        Body::new(StreamBody::new(futures_util::stream::iter(
            frames.collect::<Vec<_>>(),
        )))
    }

    #[tokio::test]
    async fn one_chunk_is_handed_over_and_more_are_gathered() {
        let headers = HeaderMap::new();
        let one = Bytes::from_static(b"{\"a\":1}");
        let read = start_bytes(&headers, Body::from(one.clone()), 100)
            .unwrap()
            .await
            .unwrap();
        assert_eq!(read.as_ptr(), one.as_ptr(), "one chunk: no copy");
        let read = start_bytes(&headers, chunked(&["ab", "", "cd", "e"]), 5)
            .unwrap()
            .await;
        assert_eq!(read.unwrap(), "abcde");
        let read = start_bytes(&headers, chunked(&[]), 5).unwrap().await;
        assert_eq!(read.unwrap(), "");
    }

    #[tokio::test]
    async fn the_limit_counts_every_chunk() {
        let headers = HeaderMap::new();
        let err = start_bytes(&headers, chunked(&["abc", "def"]), 5)
            .unwrap()
            .await
            .unwrap_err();
        assert_eq!(err.status(), 413);
        let err = start_bytes(&headers, chunked(&["abcdef"]), 5)
            .unwrap()
            .await
            .unwrap_err();
        assert_eq!(err.status(), 413);
        let ok = start_bytes(&headers, chunked(&["abc", "de"]), 5)
            .unwrap()
            .await;
        assert_eq!(ok.unwrap(), "abcde");
    }
}
