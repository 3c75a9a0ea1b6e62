//! The answer of a [`Download`](crate::contract::Download): its chunks sent as the stream
//! yields them, with its content type, length and disposition; exactly the declared length or
//! an error that breaks the connection off.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_TYPE};
use http::HeaderValue;
use http_body::{Frame, SizeHint};

use crate::contract::{ByteChunks, EndpointSpec, Slot, StreamedAnswer};
use crate::error::BoxError;
use crate::response::{Response, ResponseBody};

use super::pipeline_parts::PipelineParts;

/// The answer of a streamed byte response type: the value's headers (headers the handler set
/// win), its body streamed. Not ended on a graceful shutdown, unlike a stream of events: a
/// download cut short without a length would look complete, so it runs on within the
/// shutdown deadline, after which its connection is closed (truncated, never a clean end).
pub(super) fn respond_download<R: Slot>(
    spec: &EndpointSpec,
    value: R,
    parts: &mut PipelineParts,
) -> Response {
    let parts = parts.take();
    let StreamedAnswer {
        chunks,
        content_type,
        length,
        disposition,
    } = value.into_streamed().unwrap_or_else(|| StreamedAnswer {
        chunks: Box::pin(Nothing),
        content_type: HeaderValue::from_static("application/octet-stream"),
        length: Some(0),
        disposition: None,
    });
    let mut response = http::Response::new(ResponseBody::streamed(DownloadBody {
        chunks,
        remaining: length,
        ended: false,
    }));
    *response.status_mut() = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, content_type);
    if let Some(length) = length {
        // Both adapters' hyper sends this length (its encoder counts it) for a body whose own
        // size is unknown; the body checks it too, whatever carries it.
        headers.insert(CONTENT_LENGTH, HeaderValue::from(length));
    }
    if let Some(disposition) = disposition {
        headers.insert(CONTENT_DISPOSITION, disposition);
    }
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        headers.extend(parts.headers);
    }
    response
}

/// A stream with nothing in it (a value that had already been read).
struct Nothing;

impl futures_core::Stream for Nothing {
    type Item = Result<Bytes, BoxError>;

    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(None)
    }
}

/// A download's chunks as frames, held to the declared length (`remaining`).
struct DownloadBody {
    chunks: ByteChunks,
    remaining: Option<u64>,
    ended: bool,
}

impl DownloadBody {
    /// Ends the body with `error`, logged: the answer's head is sent, so all that is left is
    /// to break it off.
    fn broken(&mut self, error: BoxError) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        tracing::error!(error = %error, "download ended by an error");
        self.ended = true;
        Poll::Ready(Some(Err(error)))
    }
}

impl http_body::Body for DownloadBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        loop {
            return match this.chunks.as_mut().poll_next(cx) {
                // An empty chunk would be an empty frame: the next one is asked for at once.
                Poll::Ready(Some(Ok(chunk))) if chunk.is_empty() => continue,
                Poll::Ready(Some(Ok(chunk))) => match &mut this.remaining {
                    Some(remaining) if chunk.len() as u64 > *remaining => {
                        let over = format!(
                            "the download yields more bytes than its declared length ({} over)",
                            chunk.len() as u64 - *remaining
                        );
                        this.broken(over.into())
                    }
                    Some(remaining) => {
                        *remaining -= chunk.len() as u64;
                        Poll::Ready(Some(Ok(Frame::data(chunk))))
                    }
                    None => Poll::Ready(Some(Ok(Frame::data(chunk)))),
                },
                Poll::Ready(Some(Err(error))) => this.broken(error),
                Poll::Ready(None) => match this.remaining {
                    Some(short) if short > 0 => {
                        let short =
                            format!("the download ended {short} bytes short of its declared length");
                        this.broken(short.into())
                    }
                    _ => {
                        this.ended = true;
                        Poll::Ready(None)
                    }
                },
                Poll::Pending => Poll::Pending,
            };
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended
    }

    fn size_hint(&self) -> SizeHint {
        match self.remaining {
            Some(remaining) => SizeHint::with_exact(remaining),
            None => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use http_body::Body as _;
    use http_body_util::BodyExt;

    use super::*;

    fn body(parts: Vec<Result<&'static str, &'static str>>, length: Option<u64>) -> DownloadBody {
        let items = parts.into_iter().map(|part| {
            part.map(|s| Bytes::from_static(s.as_bytes()))
                .map_err(BoxError::from)
        });
        DownloadBody {
            chunks: Box::pin(futures_util::stream::iter(items.collect::<Vec<_>>())),
            remaining: length,
            ended: false,
        }
    }

    /// The frames of `body` until it ends or breaks: the bytes, and the error if any.
    async fn drain(mut body: DownloadBody) -> (Vec<u8>, Option<String>) {
        let mut bytes = Vec::new();
        while let Some(frame) = body.frame().await {
            match frame {
                Ok(frame) => bytes.extend_from_slice(&frame.into_data().unwrap()),
                Err(error) => return (bytes, Some(error.to_string())),
            }
        }
        (bytes, None)
    }

    #[tokio::test]
    async fn the_declared_length_is_sent_exactly() {
        let exact = body(vec![Ok("ab"), Ok(""), Ok("cd")], Some(4));
        assert_eq!(exact.size_hint().exact(), Some(4));
        assert_eq!(drain(exact).await, (b"abcd".to_vec(), None));
        assert_eq!(drain(body(vec![Ok("ab")], None)).await, (b"ab".to_vec(), None));

        let (bytes, error) = drain(body(vec![Ok("ab"), Ok("cde")], Some(4))).await;
        assert_eq!(bytes, b"ab");
        assert!(error.unwrap().contains("more bytes than its declared length (1 over)"));
        let (bytes, error) = drain(body(vec![Ok("ab")], Some(4))).await;
        assert_eq!(bytes, b"ab");
        assert!(error.unwrap().contains("2 bytes short"));
    }

    #[tokio::test]
    async fn an_error_breaks_the_body_off() {
        let (bytes, error) = drain(body(vec![Ok("ab"), Err("disk gone"), Ok("cd")], None)).await;
        assert_eq!(bytes, b"ab");
        assert_eq!(error.as_deref(), Some("disk gone"));
    }
}
