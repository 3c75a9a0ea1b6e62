//! [`Multipart`]: a `multipart/form-data` body, read field by field with multer, within its
//! limits, then deserialised like a query and validated.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use validator::ValidationErrors;

use crate::contract::{
    BodyKind, BodyReader, Declared, EncodedBody, Endpoint, EndpointBuilder, Slot,
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

    fn read_body<Rd: BodyReader>(reader: Rd) -> Rd::Read<Self> {
        reader.form::<T, Self>(Self)
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
