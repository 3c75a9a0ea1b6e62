//! The answer of a handler's value: its rules checked, then written once — JSON straight to
//! bytes, a raw answer ([`Text`](crate::contract::Text), [`Binary`](crate::contract::Binary),
//! [`Redirect`](crate::contract::Redirect)) as it is, an event stream as it comes — with the
//! status and headers the handler set.

use bytes::Bytes;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use http::StatusCode;

use crate::contract::{EndpointSpec, Format, Presence, Slot};
use crate::error::{Error, Rejection};
use crate::response::{Response, ResponseBody};
use crate::validation::details_from_rules;

use super::answer_size::AnswerSize;
use super::events_body::EventsWriter;
use super::pipeline_parts::PipelineParts;

/// Checks the response value's rules and serialises it, once, straight to bytes.
// `inline`: called from `HandlerCall::poll` in another module (codegen unit), where it was
// inlined when both lived in one file.
#[inline]
pub(super) fn respond<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    parts: &mut PipelineParts,
    size: &AnswerSize,
) -> Result<Response, Error> {
    // A constant per response type: the JSON path keeps no branch.
    if !matches!(R::FORMAT, Format::Json) {
        return respond_raw(spec, value, parts);
    }
    if let Err(errors) = value.check() {
        let details = details_from_rules(&errors);
        tracing::error!(route = %spec.route, ?details, "response failed its rules");
        return Err(Rejection::ResponseValidationFailed.error().into());
    }
    let parts = parts.take();
    let status = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    let has_body = <R::Presence as Presence>::DECLARED
        && status != StatusCode::NO_CONTENT
        && status != StatusCode::NOT_MODIFIED;
    let body = if has_body {
        let mut json = size.buffer();
        serde_json::to_writer(&mut json, value).map_err(|e| {
            Rejection::ResponseSerializationFailed
                .error()
                .with_source(e)
        })?;
        size.record(json.len());
        Bytes::from(json)
    } else {
        Bytes::new()
    };
    let mut response = http::Response::new(ResponseBody::from(body));
    *response.status_mut() = status;
    if has_body {
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        response.headers_mut().extend(parts.headers);
    }
    // A constant per response type: the typed headers of a `WithHeaders`.
    if R::ANSWER_HEADERS {
        set_answer_headers(spec, value, &mut response)?;
    }
    Ok(response)
}

/// Sets the typed headers of a [`WithHeaders`](crate::contract::WithHeaders) answer, in place
/// of any the handler set under the same name; one that cannot be written is a 500.
#[cold]
fn set_answer_headers<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    response: &mut Response,
) -> Result<(), Error> {
    match value.answer_headers() {
        Ok(headers) => {
            for (name, value) in headers {
                response.headers_mut().insert(name, value);
            }
            Ok(())
        }
        Err(problem) => {
            tracing::error!(route = %spec.route, problem, "response headers cannot be written");
            Err(Rejection::ResponseValidationFailed.error().into())
        }
    }
}

/// The answer of a streamed response type ([`Events`](crate::sse::Events)): its body, sent as the
/// stream makes it, ended early if the server shuts down; headers the handler set win. A
/// stream with nothing more ([`Events::finished`](crate::sse::Events::finished)) is a 204 with
/// no body.
pub(super) fn respond_streamed<R: Slot>(spec: &EndpointSpec, value: R, parts: &mut PipelineParts) -> Response {
    let parts = parts.take();
    let Some((body, ends)) = value.write_stream(EventsWriter) else {
        let mut response = http::Response::new(ResponseBody::empty());
        *response.status_mut() = StatusCode::NO_CONTENT;
        if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
            response.headers_mut().extend(parts.headers);
        }
        return response;
    };
    let mut response = http::Response::new(body);
    *response.status_mut() = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    response.extensions_mut().insert(ends);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        headers.extend(parts.headers);
    }
    response
}

/// [`respond`] for a response type that is not JSON ([`Text`](crate::contract::Text),
/// [`Binary`](crate::contract::Binary), [`Redirect`](crate::contract::Redirect)): its own body, content type and
/// `Location`; headers the handler set win.
fn respond_raw<R: Slot>(
    spec: &EndpointSpec,
    value: &R,
    parts: &mut PipelineParts,
) -> Result<Response, Error> {
    let parts = parts.take();
    let status = parts
        .as_ref()
        .and_then(|parts| parts.status)
        .unwrap_or_else(|| spec.success_status());
    let raw = value.to_raw();
    let has_body = status != StatusCode::NO_CONTENT && status != StatusCode::NOT_MODIFIED;
    let mut response = http::Response::new(if has_body {
        ResponseBody::from(raw.body)
    } else {
        ResponseBody::empty()
    });
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let (true, Some(content_type)) = (has_body, raw.content_type) {
        headers.insert(CONTENT_TYPE, content_type);
    }
    if let Some(location) = raw.location {
        headers.insert(LOCATION, location);
    }
    if let Some(parts) = parts.filter(|parts| !parts.headers.is_empty()) {
        headers.extend(parts.headers);
    }
    Ok(response)
}
