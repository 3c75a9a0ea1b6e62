//! Reading a request body whole, within its limit: what the JSON body and
//! [`Request::body_bytes`](super::Request::body_bytes) share.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::{Bytes, BytesMut};
use http::header::CONTENT_LENGTH;
use http_body::Body as _;

use super::{detached_head, kept_buffer};
use crate::body::Body;
use crate::error::{Error, Rejection};

/// Starts reading a body, within `limit`: 413 at once for a `Content-Length` over it.
///
/// A body declared larger than [`LARGE`] has `head` detached from the connection's read
/// buffer first ([`detached_head`]), and is gathered in the thread's kept buffer
/// ([`kept_buffer`]) unless it comes whole in one chunk: with both, a large body read off a
/// connection costs no allocation of its size.
pub(crate) fn start_bytes(
    head: &mut http::request::Parts,
    body: Body,
    limit: usize,
) -> Result<BodyRead, Error> {
    let headers = &head.headers;
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
    let large = match declared {
        // Within the limit, a `usize`.
        Some(len) if len > LARGE => {
            detached_head::detach(head);
            len as usize
        }
        _ => 0,
    };
    Ok(BodyRead {
        body,
        limit,
        large,
        read: Read::Nothing,
    })
}

/// A body being read, within its limit: a future of its bytes. 413 past the limit, 400 when
/// the body cannot be read; trailers are ignored.
///
/// A body that comes in one chunk (a small request's, most often) is handed over as it came:
/// a refcount, no copy, no allocation. More chunks are gathered into one buffer, a large
/// body's into the thread's kept one.
#[derive(Debug)]
pub(crate) struct BodyRead {
    body: Body,
    limit: usize,
    /// The declared length of a large body (0: not large).
    large: usize,
    read: Read,
}

#[derive(Debug)]
enum Read {
    Nothing,
    One(Bytes),
    More(BytesMut),
    /// A large body's bytes so far, in the thread's kept buffer.
    Kept(BytesMut),
}

/// Past this declared length a body is large: more than hyper's first read buffer (8 KiB)
/// holds, so read in several chunks.
const LARGE: u64 = 8 * 1024;

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
                            Read::Kept(buffer) => kept_buffer::freeze(buffer),
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
                Read::More(buffer) | Read::Kept(buffer) => buffer.len(),
            };
            if data.len() > this.limit - read {
                return Poll::Ready(Err(too_large()));
            }
            this.read = match std::mem::replace(&mut this.read, Read::Nothing) {
                // The first chunk of a large body that has more to come: copied out at once,
                // so that the connection's buffer it is a slice of is free for the next read.
                Read::Nothing if data.len() < this.large => {
                    let mut buffer = kept_buffer::take(this.large);
                    buffer.extend_from_slice(&data);
                    Read::Kept(buffer)
                }
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
                Read::Kept(mut buffer) => {
                    buffer.extend_from_slice(&data);
                    Read::Kept(buffer)
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
    use http_body_util::StreamBody;

    use super::start_bytes;
    use crate::body::Body;

    fn head() -> http::request::Parts {
        http::Request::new(()).into_parts().0
    }

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
        let one = Bytes::from_static(b"{\"a\":1}");
        let read = start_bytes(&mut head(), Body::from(one.clone()), 100)
            .unwrap()
            .await
            .unwrap();
        assert_eq!(read.as_ptr(), one.as_ptr(), "one chunk: no copy");
        let read = start_bytes(&mut head(), chunked(&["ab", "", "cd", "e"]), 5)
            .unwrap()
            .await;
        assert_eq!(read.unwrap(), "abcde");
        let read = start_bytes(&mut head(), chunked(&[]), 5).unwrap().await;
        assert_eq!(read.unwrap(), "");
    }

    #[tokio::test]
    async fn the_limit_counts_every_chunk() {
        let err = start_bytes(&mut head(), chunked(&["abc", "def"]), 5)
            .unwrap()
            .await
            .unwrap_err();
        assert_eq!(err.status(), 413);
        let err = start_bytes(&mut head(), chunked(&["abcdef"]), 5)
            .unwrap()
            .await
            .unwrap_err();
        assert_eq!(err.status(), 413);
        let ok = start_bytes(&mut head(), chunked(&["abc", "de"]), 5)
            .unwrap()
            .await;
        assert_eq!(ok.unwrap(), "abcde");
    }

    /// A body of a known size, in `chunks`, as hyper's with a `Content-Length` is.
    struct Declared(std::collections::VecDeque<Bytes>);

    impl http_body::Body for Declared {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
            std::task::Poll::Ready(self.0.pop_front().map(|c| Ok(http_body::Frame::data(c))))
        }

        fn size_hint(&self) -> http_body::SizeHint {
            http_body::SizeHint::with_exact(self.0.iter().map(|c| c.len() as u64).sum())
        }
    }

    #[tokio::test]
    async fn a_large_body_is_gathered_and_its_head_detached() {
        let chunk = |byte: u8| Bytes::from(vec![byte; 6000]);
        let body = || Body::new(Declared([chunk(b'a'), chunk(b'b'), chunk(b'c')].into()));
        let buffer = Bytes::from_static(b"/batch?x=1");
        let mut head = head();
        head.uri = http::Uri::from_maybe_shared(buffer.clone()).unwrap();
        let read = start_bytes(&mut head, body(), 18_000).unwrap().await.unwrap();
        assert_eq!(read.len(), 18_000);
        assert!(read[..6000].iter().all(|b| *b == b'a') && read[12_000..].iter().all(|b| *b == b'c'));
        assert_eq!(head.uri, "/batch?x=1");
        assert!(!buffer.as_ptr_range().contains(&head.uri.path().as_ptr()), "detached");
        // Whole in one chunk (as `Request::body_bytes` puts it back): handed over, no copy.
        let again = start_bytes(&mut head, Body::from(read.clone()), 18_000)
            .unwrap()
            .await
            .unwrap();
        assert_eq!(again.as_ptr(), read.as_ptr());
        assert_eq!(again.len(), 18_000);
        // Declared over the limit: 413 before a byte is read.
        let err = start_bytes(&mut head, body(), 17_999).unwrap_err();
        assert_eq!(err.status(), 413);
    }
}
