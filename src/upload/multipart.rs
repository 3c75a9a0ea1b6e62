//! [`Multipart`]: a `multipart/form-data` body, read field by field with multer, within its
//! limits, then deserialised like a query and validated.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

#[cfg(feature = "pipeline")]
use bytes::{Bytes, BytesMut};
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use validator::ValidationErrors;

use crate::contract::{BodyKind, Declared, EncodedBody, Endpoint, EndpointBuilder, Slot};
#[cfg(feature = "pipeline")]
use {
    super::form_de::{FormMap, Part},
    super::{content_too_large, data_stream, media_essence},
    crate::contract::{BodyFuture, BodyInput},
    crate::decode::{shape_errors, validated},
    crate::error::{Detail, Error, HttpError, Rejection},
};

/// A `multipart/form-data` request body whose fields make a `T`: `.body::<Multipart<T>>()`.
///
/// Text fields are read as the query is (numbers and bools parse from the text; several
/// parts of one name fill a list), file fields are [`FilePart`](crate::upload::FilePart)s, and `T`'s
/// `validator` rules are checked: a missing or malformed field is a 400 `Validation failed`
/// naming it. The body is read as it arrives, with [multer](https://docs.rs/multer): a field
/// over its limit ([`field_limit`](EndpointBuilder::field_limit); the body limit otherwise)
/// or a body over the body limit is a 413 the moment it is seen, before the rest is read.
/// A body that is not `multipart/form-data` is a 415; one with no boundary or broken framing
/// a 400 `Invalid multipart body`.
///
/// The handler sees `T` through `Deref` (`ctx.body.title`), or takes it with
/// [`into_inner`](Multipart::into_inner). The typed client sends it as a form; the OpenAPI
/// document gives `multipart/form-data` with `T`'s schema, files as binary strings.
///
/// ```
/// use pactum::{route, Endpoint, upload::FilePart, upload::Multipart};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate)]
/// struct Upload {
///     #[validate(length(min = 1, max = 100))]
///     title: String,
///     file: FilePart,
/// }
///
/// let upload = Endpoint::post(route!("/uploads"))
///     .body::<Multipart<Upload>>()
///     .field_limit("file", 1 << 20)
///     .body_limit(2 << 20)
///     .build()?;
/// assert_eq!(upload.field_limits().collect::<Vec<_>>(), [("file", 1 << 20)]);
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Multipart<T>(pub T);

impl<T> Multipart<T> {
    /// The form's value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Multipart<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Multipart<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T> From<T> for Multipart<T> {
    fn from(value: T) -> Self {
        Self(value)
    }
}

impl<T: fmt::Debug> fmt::Debug for Multipart<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Multipart").field(&self.0).finish()
    }
}

/// As `T`.
impl<T: Serialize> Serialize for Multipart<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// As `T`.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Multipart<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Self)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Slot> Slot for Multipart<T> {
    type Presence = Declared;
    const BODY: BodyKind = BodyKind::Multipart;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        self.0.check()
    }

    #[cfg(feature = "pipeline")]
    fn read_body(input: BodyInput) -> BodyFuture<Self> {
        Box::pin(async move {
            let parts = read_parts(input).await?;
            parse::<T>(&parts).map(Self)
        })
    }

    fn encode_body(&self) -> Result<EncodedBody, String> {
        super::form_ser::encode(&self.0)
    }
}

impl<M, K, P, Q, T, R, E> EndpointBuilder<M, K, P, Q, Multipart<T>, R, E> {
    /// Limits the multipart field `name` to `bytes` (its content: the part's headers and
    /// the framing around it do not count). Offered once the body is a [`Multipart`]; a
    /// field without a limit of its own is limited by the body limit alone.
    ///
    /// A field over its limit is answered 413 `Payload too large`, with a detail naming the
    /// field, as soon as the excess arrives: the rest of the body is not read. The body limit
    /// ([`body_limit`](EndpointBuilder::body_limit), 1 MiB by default) still bounds the
    /// whole body, framing included: raise it above the largest field.
    pub fn field_limit(mut self, name: impl Into<Cow<'static, str>>, bytes: usize) -> Self {
        let name = name.into();
        self.settings.field_limits.retain(|(n, _)| *n != name);
        self.settings.field_limits.push((name, bytes));
        self
    }
}

impl<P, Q, T, R, E> Endpoint<P, Q, Multipart<T>, R, E> {
    /// The multipart fields' own limits, in bytes, as declared with
    /// [`field_limit`](EndpointBuilder::field_limit).
    pub fn field_limits(&self) -> impl ExactSizeIterator<Item = (&str, usize)> + '_ {
        let limits = &self.spec().settings.field_limits;
        limits.iter().map(|(name, bytes)| (&**name, *bytes))
    }
}

/// Reads every part of a `multipart/form-data` body, within the limits.
#[cfg(feature = "pipeline")]
pub(crate) async fn read_parts(input: BodyInput) -> Result<Vec<Part>, Error> {
    let content_type = input
        .content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !media_essence(content_type).eq_ignore_ascii_case("multipart/form-data") {
        return Err(Rejection::UnsupportedMediaType.error().into());
    }
    let boundary = multer::parse_boundary(content_type).map_err(malformed)?;
    if input
        .content_length
        .is_some_and(|len| len > input.limit as u64)
    {
        return Err(content_too_large());
    }
    let mut limits = multer::SizeLimit::new()
        .whole_stream(input.limit as u64)
        .per_field(input.limit as u64);
    for (name, bytes) in &input.field_limits {
        limits = limits.for_field(name.as_ref(), *bytes as u64);
    }
    let constraints = multer::Constraints::new().size_limit(limits);
    let stream = data_stream(input.body);
    let mut form = multer::Multipart::with_constraints(stream, boundary, constraints);
    let mut parts = Vec::new();
    while let Some(mut field) = form.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field.content_type().map(ToString::to_string);
        let mut data = Chunks::default();
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
#[cfg(feature = "pipeline")]
#[derive(Default)]
enum Chunks {
    #[default]
    None,
    One(Bytes),
    Many(BytesMut),
}

#[cfg(feature = "pipeline")]
impl Chunks {
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
#[cfg(feature = "pipeline")]
pub(crate) fn parse<T: Slot>(parts: &[Part]) -> Result<T, Error> {
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
#[cfg(feature = "pipeline")]
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
#[cfg(feature = "pipeline")]
fn invalid(detail: Detail) -> Error {
    let error: HttpError = Rejection::InvalidMultipart.error();
    error.with_details(vec![detail]).into()
}
