//! Turning an answer into the contract's response value, or the error it stands for.

use bytes::Bytes;
use http::header::{CONTENT_TYPE, LOCATION};
use http::{HeaderMap, StatusCode};
use pactum::{
    contract::state::Presence, contract::Format, contract::RawAnswer, contract::Slot,
    error::Detail, error::ErrorBody,
};

use crate::error::{Error, Part};
use crate::resume::{raw_events, Resume};
use crate::transport::{ByteStream, Received, ReceivedBody};

/// A decoded answer with its status and headers. Returned by [`Call::send_full`](crate::Call::send_full).
#[derive(Debug, Clone)]
pub struct Response<R> {
    status: StatusCode,
    headers: HeaderMap,
    value: R,
}

impl<R> Response<R> {
    /// The status (a `2xx`; a `3xx` for a [`Redirect`](pactum::contract::Redirect) contract).
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The decoded, validated value.
    pub fn value(&self) -> &R {
        &self.value
    }

    /// The decoded, validated value.
    pub fn into_value(self) -> R {
        self.value
    }

    /// The status, the headers and the value.
    pub fn into_parts(self) -> (StatusCode, HeaderMap, R) {
        (self.status, self.headers, self.value)
    }
}

/// Turns an answer into the response value or the error it stands for. `resume`: how an
/// event stream is sent again after its connection breaks (an [`Events`](pactum::sse::Events)
/// contract's call).
pub(crate) fn decode<R: Slot>(
    received: Received,
    resume: Option<Resume>,
) -> Result<Response<R>, Error> {
    let Received {
        status,
        headers,
        body,
    } = received;
    if matches!(R::FORMAT, Format::Download) && status.is_success() {
        let answer = crate::download::streamed_answer(&headers, body);
        return answered(status, headers, R::from_streamed(answer));
    }
    let body = match body {
        ReceivedBody::Whole(bytes) => bytes,
        ReceivedBody::Streamed(stream) => return decode_events(status, headers, stream, resume),
    };
    if !matches!(R::FORMAT, Format::Json) {
        if matches!(R::FORMAT, Format::EventStream) && status == StatusCode::NO_CONTENT {
            // Nothing more (the server's `Events::finished`): a stream that yields nothing.
            let none = futures_util::stream::empty();
            return answered(status, headers, R::from_event_source(Box::pin(none)));
        }
        return decode_raw(status, headers, body);
    }
    if !status.is_success() {
        return Err(Error::status_error(status, error_body(status, &body)));
    }
    // No content declared: whatever came is ignored. An empty body decodes as JSON `null`
    // (a type that accepts `null` reads a 204 as such; others fail to decode).
    let bytes: &[u8] = if !<R::Presence as Presence>::DECLARED || body.is_empty() {
        b"null"
    } else {
        &body
    };
    // Where it does not fit, every shape error with its path, as the server reports a body's.
    // A value with typed headers (`WithHeaders`) is read from the body and the headers.
    let value: R = match R::read_json_answer(bytes, &headers) {
        Some(read) => read.map_err(|details| {
            Error::decode(
                status,
                details,
                "the answer does not fit the contract's type",
            )
        })?,
        None => serde_json::from_slice(bytes).map_err(|e| {
            let mut details = Detail::from_json::<R>(bytes);
            if details.is_empty() {
                details.push(Detail::new(Vec::new(), e.to_string()));
            }
            Error::decode(status, details, e)
        })?,
    };
    value.check().map_err(|errors| {
        Error::validation(Part::Response, Detail::from_validation(&errors)).with_status(status)
    })?;
    Ok(Response {
        status,
        headers,
        value,
    })
}

/// A [`Text`](pactum::contract::Text), [`Binary`](pactum::contract::Binary) or [`Redirect`](pactum::contract::Redirect)
/// answer: a 2xx (a 3xx for a redirect) read as it is; any other status is an error with its
/// (JSON) error body.
fn decode_raw<R: Slot>(
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response<R>, Error> {
    let expected = match R::FORMAT {
        Format::Redirect => status.is_redirection(),
        _ => status.is_success(),
    };
    if !expected {
        return Err(Error::status_error(status, error_body(status, &body)));
    }
    let raw = RawAnswer {
        body,
        content_type: headers.get(CONTENT_TYPE).cloned(),
        location: headers.get(LOCATION).cloned(),
    };
    answered(status, headers, R::from_raw(raw))
}

/// A 2xx `text/event-stream` answer: the contract's [`Events`](pactum::sse::Events), yielding
/// each event as it is read, parsed by `eventsource-stream`, its data decoded and checked;
/// resumed after a broken connection when `resume` is given ([`Reconnect`](crate::Reconnect)).
fn decode_events<R: Slot>(
    status: StatusCode,
    headers: HeaderMap,
    stream: ByteStream,
    resume: Option<Resume>,
) -> Result<Response<R>, Error> {
    answered(
        status,
        headers,
        R::from_event_source(raw_events(stream, resume)),
    )
}

/// The answer of a value read by its own type (not JSON), or a decode error with its message.
fn answered<R>(
    status: StatusCode,
    headers: HeaderMap,
    value: Result<R, String>,
) -> Result<Response<R>, Error> {
    let value = value.map_err(|message| {
        Error::decode(
            status,
            vec![Detail::new(Vec::new(), message.clone())],
            message,
        )
    })?;
    Ok(Response {
        status,
        headers,
        value,
    })
}

/// The pactum error body of a non-2xx answer, or one made from its raw text.
fn error_body(status: StatusCode, body: &Bytes) -> ErrorBody {
    if let Ok(decoded) = serde_json::from_slice::<ErrorBody>(body) {
        return decoded;
    }
    let text = String::from_utf8_lossy(body).trim().to_owned();
    let error = if text.is_empty() {
        status.canonical_reason().unwrap_or("").to_owned()
    } else {
        text
    };
    ErrorBody {
        error,
        details: Vec::new(),
        code: None,
    }
}
