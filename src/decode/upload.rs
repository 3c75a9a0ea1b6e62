//! Reading a request body that is not JSON: the pipeline's [`BodyReader`], which a body
//! type's `Slot::read_body` hands what it wants — a `multipart/form-data` form read whole with
//! multer, within its limits, then deserialised ([`form_map`]) and validated; or the body's
//! chunks as they arrive, within the body limit.
//!
//! Adding a body kind: a `BodyKind` variant and a `BodyReader` method in the contract, its
//! reading here, its OpenAPI schema in `upload/schema.rs`, and the typed client's encoding
//! in the type's `Slot::encode_body`.

mod form_map;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::future::{ready, Future};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue};
use http_body::Body as _;
use http_body_util::{LengthLimitError, Limited};

use crate::body::Body;
use crate::contract::{BodyReader, Chunks, Slot};
use super::{shape_errors, validated};
use crate::error::{Detail, Error, HttpError, Rejection};
use crate::upload::{ByteStream, Part};
use form_map::FormMap;

/// A body being read by a body type that is not JSON.
pub(crate) type BodyFuture<T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'static>>;

/// What a body type that is not JSON is read from: the body, its limit, the request's
/// `Content-Type` and `Content-Length`, and the contract's per-field limits.
#[derive(Debug)]
pub(crate) struct BodyInput {
    content_type: Option<HeaderValue>,
    content_length: Option<u64>,
    body: Body,
    limit: usize,
    field_limits: Vec<(Cow<'static, str>, usize)>,
}

impl BodyInput {
    pub(crate) fn new(
        headers: &HeaderMap,
        body: Body,
        limit: usize,
        field_limits: &[(Cow<'static, str>, usize)],
    ) -> Self {
        Self {
            content_type: headers.get(CONTENT_TYPE).cloned(),
            content_length: headers
                .get(CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok()),
            body,
            limit,
            field_limits: field_limits.to_vec(),
        }
    }

    /// Whether the declared `Content-Length` is over the limit.
    fn declared_too_large(&self) -> bool {
        self.content_length
            .is_some_and(|len| len > self.limit as u64)
    }
}

impl BodyReader for BodyInput {
    type Read<O: Send + 'static> = BodyFuture<O>;

    fn form<T: Slot, O: Send + 'static>(self, wrap: fn(T) -> O) -> BodyFuture<O> {
        Box::pin(async move {
            let parts = read_parts(self).await?;
            parse::<T>(&parts).map(wrap)
        })
    }

    fn chunks<O: Send + 'static>(self, wrap: fn(Chunks) -> O) -> BodyFuture<O> {
        let read = if self.declared_too_large() {
            Err(content_too_large())
        } else {
            Ok(wrap(Box::pin(RequestChunks::new(self.body, self.limit))))
        };
        Box::pin(ready(read))
    }

    fn refuse<O: Send + 'static>(self) -> BodyFuture<O> {
        let error = HttpError::internal("a JSON body is not read as a stream");
        Box::pin(ready(Err(error.into())))
    }
}

impl ByteStream {
    /// A stream of any body (no limit), e.g. for calling a handler directly. The typed client
    /// cannot send it: make the stream [`from`](ByteStream::from) bytes for that.
    #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
    pub fn new(body: Body) -> Self {
        Self::of_chunks(Box::pin(RequestChunks::new(body, usize::MAX)))
    }
}

/// 413 `Payload too large`.
fn content_too_large() -> Error {
    Rejection::PayloadTooLarge.error().into()
}

/// A request body's chunks within a limit, as a [`ByteStream`] and the multipart reader read
/// them: 413 past the limit, 400 `Failed to read request body` when the connection failed;
/// trailers and empty chunks skipped.
struct RequestChunks {
    body: Limited<Body>,
    done: bool,
}

impl RequestChunks {
    fn new(body: Body, limit: usize) -> Self {
        Self {
            body: Limited::new(body, limit),
            done: false,
        }
    }
}

impl Stream for RequestChunks {
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            match ready!(Pin::new(&mut this.body).poll_frame(cx)) {
                None => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => return Poll::Ready(Some(Ok(data))),
                    // Trailers, an empty chunk: nothing for the handler.
                    _ => continue,
                },
                Some(Err(e)) => {
                    this.done = true;
                    let error = if e.is::<LengthLimitError>() {
                        content_too_large()
                    } else {
                        Rejection::BodyUnreadable.error().with_source(e).into()
                    };
                    return Poll::Ready(Some(Err(error)));
                }
            }
        }
    }
}

/// Reads every part of a `multipart/form-data` body, within the limits.
async fn read_parts(input: BodyInput) -> Result<Vec<Part>, Error> {
    let content_type = input
        .content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !media_essence(content_type).eq_ignore_ascii_case("multipart/form-data") {
        return Err(Rejection::UnsupportedMediaType.error().into());
    }
    let boundary = multer::parse_boundary(content_type).map_err(malformed)?;
    if input.declared_too_large() {
        return Err(content_too_large());
    }
    let mut limits = multer::SizeLimit::new()
        .whole_stream(input.limit as u64)
        .per_field(input.limit as u64);
    for (name, bytes) in &input.field_limits {
        limits = limits.for_field(name.as_ref(), *bytes as u64);
    }
    let constraints = multer::Constraints::new().size_limit(limits);
    // multer keeps the limits: the chunks are read without one of their own.
    let stream = RequestChunks::new(input.body, usize::MAX);
    let mut form = multer::Multipart::with_constraints(stream, boundary, constraints);
    let mut parts = Vec::new();
    while let Some(mut field) = form.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        if filename.is_none() && has_unreadable_filename(field.headers()) {
            return Err(invalid(Detail::new(
                vec![name.as_str().into()],
                "the file name is not UTF-8",
            )));
        }
        let content_type = field.content_type().map(ToString::to_string);
        let mut data = FieldBytes::default();
        while let Some(chunk) = field.chunk().await.map_err(malformed)? {
            data.push(chunk);
        }
        parts.push(Part {
            name,
            filename,
            content_type,
            data: data.into_bytes(),
        });
    }
    Ok(parts)
}

/// A field's content: one chunk as it came, or several copied into one buffer.
#[derive(Default)]
enum FieldBytes {
    #[default]
    None,
    One(Bytes),
    Many(BytesMut),
}

impl FieldBytes {
    fn push(&mut self, chunk: Bytes) {
        *self = match std::mem::take(self) {
            Self::None => Self::One(chunk),
            Self::One(first) => {
                let mut buffer = BytesMut::with_capacity(first.len() + chunk.len());
                buffer.extend_from_slice(&first);
                buffer.extend_from_slice(&chunk);
                Self::Many(buffer)
            }
            Self::Many(mut buffer) => {
                buffer.extend_from_slice(&chunk);
                Self::Many(buffer)
            }
        };
    }

    fn into_bytes(self) -> Bytes {
        match self {
            Self::None => Bytes::new(),
            Self::One(bytes) => bytes,
            Self::Many(buffer) => buffer.freeze(),
        }
    }
}

/// The parts read as a `T`, validated: 400 `Validation failed` with a detail per field.
fn parse<T: Slot>(parts: &[Part]) -> Result<T, Error> {
    type E = serde::de::value::Error;
    if let Ok(value) = T::deserialize(FormMap::<E>::new(parts)) {
        return validated(value);
    }
    let size = parts.iter().map(|p| p.name.len() + p.data.len()).sum();
    Err(shape_errors::<T, _>(
        || Some(FormMap::<E>::new(parts)),
        size,
    ))
}

/// What multer's error means for the client: 413 for a field or body over its limit (the
/// field named), 400 `Failed to read request body` when the body stream failed, else 400
/// `Invalid multipart body` with multer's message.
fn malformed(error: multer::Error) -> Error {
    use multer::Error as M;
    let too_large = |field: Option<&str>, limit: u64| {
        let error = Rejection::PayloadTooLarge.error();
        match field {
            Some(name) => error.with_details(vec![Detail::new(
                vec![name.into()],
                format!("must be at most {limit} bytes"),
            )]),
            None => error,
        }
        .into()
    };
    match error {
        M::FieldSizeExceeded { limit, field_name } => too_large(field_name.as_deref(), limit),
        M::StreamSizeExceeded { .. } => too_large(None, 0),
        M::StreamReadFailed(source) => Rejection::BodyUnreadable.error().with_source(source).into(),
        other => {
            let field = match &other {
                M::IncompleteFieldData {
                    field_name: Some(name),
                }
                | M::UnknownField {
                    field_name: Some(name),
                } => vec![name.as_str().into()],
                _ => Vec::new(),
            };
            invalid(Detail::new(field, other.to_string()))
        }
    }
}

/// 400 `Invalid multipart body`, with one detail.
fn invalid(detail: Detail) -> Error {
    let error: HttpError = Rejection::InvalidMultipart.error();
    error.with_details(vec![detail]).into()
}

/// Whether a part's `Content-Disposition` gives a file name multer could not read as text:
/// the header is not UTF-8 and holds a `filename` parameter (multer then reports none, and
/// the file would reach the handler nameless).
fn has_unreadable_filename(headers: &HeaderMap) -> bool {
    let Some(disposition) = headers.get(http::header::CONTENT_DISPOSITION) else {
        return false;
    };
    let bytes = disposition.as_bytes();
    let named = bytes.windows(8).any(|w| w.eq_ignore_ascii_case(b"filename"));
    named && std::str::from_utf8(bytes).is_err()
}

/// A `Content-Type`'s type and subtype, without its parameters.
fn media_essence(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or_default().trim()
}
