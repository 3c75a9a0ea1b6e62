//! The two ways a call travels: over HTTP with reqwest, or in-process through a pipeline; and
//! what goes in and comes out of each ([`Prepared`], [`Received`]).

use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_LENGTH, HOST};
use http::{HeaderMap, Method, StatusCode};
use pactum::Pipeline;
use url::{Position, Url};

use crate::error::Error;

/// A request ready to go: everything validated and encoded.
pub(crate) struct Prepared {
    pub(crate) method: Method,
    pub(crate) url: Url,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Option<Vec<u8>>,
    /// `None`: the client's timeout; `Some(t)`: this call's.
    pub(crate) timeout: Option<Option<Duration>>,
}

/// An answer, read whole.
pub(crate) struct Received {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

pub(crate) async fn send_http(
    client: &reqwest::Client,
    method: Method,
    url: Url,
    headers: HeaderMap,
    body: Option<Vec<u8>>,
    timeout: Option<Duration>,
) -> Result<Received, Error> {
    let mut builder = client.request(method, url).headers(headers);
    if let Some(body) = body {
        builder = builder.body(body);
    }
    if let Some(timeout) = timeout {
        builder = builder.timeout(timeout);
    }
    let response = builder.send().await.map_err(Error::from_reqwest)?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await.map_err(Error::from_reqwest)?;
    Ok(Received {
        status,
        headers,
        body,
    })
}

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
            pactum::Body::from(bytes)
        }
        None => pactum::Body::empty(),
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
    Ok(Received {
        status: parts.status,
        headers: parts.headers,
        body,
    })
}
