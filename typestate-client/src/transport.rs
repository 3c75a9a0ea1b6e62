//! The two ways a call travels: over HTTP with reqwest, or in-process through a pipeline; and
//! what goes in and comes out of each ([`Prepared`], [`Received`]).

use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{Stream, TryStreamExt};
use http::header::{HeaderValue, CONTENT_TYPE};
#[cfg(feature = "in-process")]
use http::header::{CONTENT_LENGTH, HOST};
use http::{HeaderMap, Method, StatusCode};
#[cfg(feature = "in-process")]
use http_body_util::BodyDataStream;
use pactum::error::BoxError;
#[cfg(feature = "in-process")]
use pactum::Pipeline;
#[cfg(feature = "in-process")]
use url::Position;
use url::Url;

use crate::error::Error;

/// A request ready to go: everything validated and encoded. Cloned only to send it again
/// (an event stream resumed: [`Reconnect`](crate::Reconnect)).
#[derive(Clone)]
pub(crate) struct Prepared {
    pub(crate) method: Method,
    pub(crate) url: Url,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Option<Vec<u8>>,
    /// The body's `Content-Type` when it is not JSON (a multipart form, a byte stream).
    pub(crate) content_type: Option<HeaderValue>,
    /// This call's own timeout ([`Call::timeout`](crate::Call::timeout)); `None`: the
    /// client's (which may be none).
    pub(crate) timeout: Option<Duration>,
    /// A 2xx answer's body is handed over as it comes, whatever its content type (a
    /// [`Download`](pactum::contract::Download)).
    pub(crate) stream_body: bool,
}

/// An answer: read whole, or, for a stream of events or a download, as it comes.
pub(crate) struct Received {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: ReceivedBody,
}

/// An answer's body.
pub(crate) enum ReceivedBody {
    Whole(Bytes),
    /// A 2xx `text/event-stream` (or download) answer's bytes, as they come.
    Streamed(ByteStream),
}

/// The bytes of a streamed answer.
pub(crate) type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, BoxError>> + Send>>;

/// Whether an answer is a stream of events, read as it comes rather than whole.
fn is_event_stream(status: StatusCode, headers: &HeaderMap) -> bool {
    status.is_success()
        && headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|media| media.trim().eq_ignore_ascii_case("text/event-stream"))
            })
}

pub(crate) async fn send_http(
    client: &reqwest::Client,
    method: Method,
    url: Url,
    headers: HeaderMap,
    body: Option<Vec<u8>>,
    timeout: Option<Duration>,
    stream_body: bool,
) -> Result<Received, Error> {
    // The request made whole, its headers moved in: no `RequestBuilder` (a client handle
    // cloned per call) and no second header map to copy them into.
    let mut request = reqwest::Request::new(method, url);
    *request.headers_mut() = headers;
    *request.body_mut() = body.map(reqwest::Body::from);
    if timeout.is_some() {
        // Only then: the timeout is kept in the request's extensions, a map made on first use.
        *request.timeout_mut() = timeout;
    }
    let mut response = client.execute(request).await.map_err(Error::from_reqwest)?;
    let status = response.status();
    // Taken, not copied: reading the body needs no header.
    let headers = std::mem::take(response.headers_mut());
    let body = if (stream_body && status.is_success()) || is_event_stream(status, &headers) {
        ReceivedBody::Streamed(Box::pin(response.bytes_stream().map_err(BoxError::from)))
    } else {
        ReceivedBody::Whole(response.bytes().await.map_err(Error::from_reqwest)?)
    };
    Ok(Received {
        status,
        headers,
        body,
    })
}

#[cfg(feature = "in-process")]
pub(crate) async fn send_in_process(
    pipeline: &Pipeline,
    method: Method,
    url: &Url,
    mut headers: HeaderMap,
    body: Option<Vec<u8>>,
    timeout: Option<Duration>,
) -> Result<Received, Error> {
    // Origin-form target and a Host header, as a server receives them.
    let target = &url[Position::BeforePath..Position::AfterQuery];
    let host = &url[Position::BeforeHost..Position::AfterPort];
    let host = HeaderValue::from_str(host).map_err(Error::builder)?;
    headers.entry(HOST).or_insert(host);
    let body = match body {
        Some(bytes) => {
            headers.insert(CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            pactum::pipeline::Body::from(bytes)
        }
        None => pactum::pipeline::Body::empty(),
    };
    let mut request = http::Request::builder()
        .method(method)
        .uri(target)
        .body(body)
        .map_err(Error::builder)?;
    *request.headers_mut() = headers;
    if url.scheme() == "https" {
        request.extensions_mut().insert(http::uri::Scheme::HTTPS);
    }
    let answer = pipeline.handle(request);
    let response = match timeout {
        Some(timeout) => tokio::time::timeout(timeout, answer)
            .await
            .map_err(|_| Error::timeout())?,
        None => answer.await,
    };
    let (parts, body) = response.into_parts();
    let body = match body.into_bytes() {
        Ok(bytes) => ReceivedBody::Whole(bytes),
        Err(streamed) => ReceivedBody::Streamed(Box::pin(BodyDataStream::new(streamed))),
    };
    Ok(Received {
        status: parts.status,
        headers: parts.headers,
        body,
    })
}
