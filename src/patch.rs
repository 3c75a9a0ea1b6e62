//! Partial updates: the fields of a JSON Merge Patch body ([RFC 7396]).
//!
//! In a merge patch a field has three states, and each means something different:
//!
//! | in the body | means | a [`Nullable<T>`] field | an `Option<T>` field read with [`non_null`] |
//! |---|---|---|---|
//! | absent | leave the field as it is | [`Absent`](Nullable::Absent) | `None` |
//! | `null` | clear the field | [`Null`](Nullable::Null) | refused (400): it cannot be cleared |
//! | a value | set the field | [`Value(value)`](Nullable::Value) | `Some(value)` |
//!
//! `Option<T>` holds only two of them: serde reads both an absent field and `null` as `None`,
//! so a `null` sent to clear a field is accepted and ignored. Two tools here tell them apart:
//!
//! - [`Nullable<T>`] for a field that can be cleared (the stored value is an `Option`): absent,
//!   `null` and a value are three variants. Its schema is `T`'s with `null` allowed
//!   (`nullable: true` in an OpenAPI 3.0 document).
//! - [`non_null`] for a field that cannot be cleared (the stored value is not an `Option`): an
//!   `Option<T>` where absent is `None` and `null` is refused (a 400 naming the field, like any
//!   other value of the wrong type).
//!
//! ```
//! use pactum::patch::{non_null, Nullable};
//! use pactum::schemars::{self, JsonSchema}; // feature `openapi`
//! use serde::{Deserialize, Serialize};
//! use validator::Validate;
//!
//! #[derive(Debug, Default, Serialize, Deserialize, Validate, JsonSchema)]
//! struct UserPatch {
//!     // Can be cleared: absent, `null` or a value.
//!     #[serde(default, skip_serializing_if = "Nullable::is_absent")]
//!     #[validate(range(min = 0, max = 150))]
//!     age: Nullable<u16>,
//!     // Cannot be cleared: absent or a value; `null` is refused.
//!     #[serde(default, deserialize_with = "non_null", skip_serializing_if = "Option::is_none")]
//!     #[schemars(with = "String")] // the document: a string, not nullable
//!     #[validate(length(min = 1, max = 50))]
//!     name: Option<String>,
//! }
//!
//! let clear: UserPatch = serde_json::from_str(r#"{"age": null}"#)?;
//! assert_eq!((clear.age, clear.name), (Nullable::Null, None));
//! assert!(serde_json::from_str::<UserPatch>(r#"{"name": null}"#).is_err());
//!
//! let mut age = Some(36);
//! clear.age.apply(&mut age);
//! assert_eq!(age, None);
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! Why `Nullable` (and not `Option<Option<T>>` or a name of our own): it is what the field
//! becomes in the document, an optional property that is `nullable`; juniper names its
//! tri-state input type the same. `Option<Option<T>>` with serde_with's `double_option` works
//! with serde but reads poorly (`Some(None)` for "clear") and its schema is `T`'s, not
//! nullable; async-graphql's `MaybeUndefined` is the same idea under a GraphQL name. The name
//! `Patch` was left to the PATCH method ([`contract::method::Patch`](crate::contract::method::Patch)).
//!
//! [RFC 7396]: https://www.rfc-editor.org/rfc/rfc7396

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use validator::{
    AsRegex, Validate, ValidateEmail, ValidateLength, ValidateRange, ValidateRegex, ValidateUrl,
    ValidationErrors,
};

/// A field of a partial update that can be absent, `null` or a value ([module docs](self)).
///
/// Put two attributes on the field; they are what makes absent a state of its own:
///
/// - `#[serde(default)]`: an absent field is [`Absent`](Nullable::Absent) (the [`Default`]).
///   Without it an absent field is a "missing field" error.
/// - `#[serde(skip_serializing_if = "Nullable::is_absent")]`: an absent field stays absent when
///   the value is written (by the typed client, for one). Without it
///   [`Absent`](Nullable::Absent) is written as `null`, which clears the field.
///
/// `null` reads as [`Null`](Nullable::Null) and any other value as [`Value`](Nullable::Value).
///
/// # Validation
///
/// The field's `validator` rules apply to the value only: absent and `null` pass every rule.
/// `length`, `range`, `email`, `url`, `regex` and `nested` work on a `Nullable<T>` as on a `T`
/// (the rule's trait is implemented here); a `custom` function is given the `&Nullable<T>`.
///
/// # Schema
///
/// With the `openapi` feature, `Nullable<T>` has `Option<T>`'s JSON Schema: `T`'s with `null`
/// allowed (`"type": ["integer", "null"]` in OpenAPI 3.1, `nullable: true` in 3.0), and the
/// field is not required (`#[serde(default)]`).
///
/// # Example
///
/// ```
/// use pactum::patch::Nullable;
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Debug, Default, PartialEq, Serialize, Deserialize, Validate)]
/// struct Patch {
///     #[serde(default, skip_serializing_if = "Nullable::is_absent")]
///     #[validate(range(max = 150))]
///     age: Nullable<u16>,
/// }
///
/// // Read: three states.
/// let read = |json| serde_json::from_str::<Patch>(json).unwrap().age;
/// assert_eq!(read("{}"), Nullable::Absent);
/// assert_eq!(read(r#"{"age": null}"#), Nullable::Null);
/// assert_eq!(read(r#"{"age": 37}"#), Nullable::Value(37));
///
/// // Written back the same way.
/// let write = |age| serde_json::to_string(&Patch { age }).unwrap();
/// assert_eq!(write(Nullable::Absent), "{}");
/// assert_eq!(write(Nullable::Null), r#"{"age":null}"#);
/// assert_eq!(write(Nullable::Value(37)), r#"{"age":37}"#);
///
/// // The rules apply to a value only.
/// assert!(Patch { age: Nullable::Null }.validate().is_ok());
/// assert!(Patch { age: Nullable::Value(151) }.validate().is_err());
///
/// // Merge it into the stored field: absent keeps, `null` clears, a value sets.
/// let mut stored = Some(36);
/// Nullable::Absent.apply(&mut stored);
/// assert_eq!(stored, Some(36));
/// Nullable::Value(37).apply(&mut stored);
/// assert_eq!(stored, Some(37));
/// Nullable::Null.apply(&mut stored);
/// assert_eq!(stored, None);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nullable<T> {
    /// The field was not in the body: leave it as it is.
    #[default]
    Absent,
    /// The field was `null`: clear it.
    Null,
    /// The field had a value: set it.
    Value(T),
}

impl<T> Nullable<T> {
    /// Whether the field was absent (for `#[serde(skip_serializing_if = "Nullable::is_absent")]`).
    #[must_use]
    pub const fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }

    /// Whether the field was `null`.
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// Whether the field had a value.
    #[must_use]
    pub const fn is_value(&self) -> bool {
        matches!(self, Self::Value(_))
    }

    /// The value, if the field had one.
    #[must_use]
    pub const fn value(&self) -> Option<&T> {
        match self {
            Self::Value(value) => Some(value),
            Self::Absent | Self::Null => None,
        }
    }

    /// The value, if the field had one.
    #[must_use]
    pub fn into_value(self) -> Option<T> {
        match self {
            Self::Value(value) => Some(value),
            Self::Absent | Self::Null => None,
        }
    }

    /// The merge: `None` when absent (no change), `Some(None)` when `null` (clear),
    /// `Some(Some(value))` for a value (set).
    #[must_use]
    pub fn into_change(self) -> Option<Option<T>> {
        match self {
            Self::Absent => None,
            Self::Null => Some(None),
            Self::Value(value) => Some(Some(value)),
        }
    }

    /// Merges the field into `target` as RFC 7396 does: absent leaves it, `null` clears it
    /// (`None`), a value replaces it.
    pub fn apply(self, target: &mut Option<T>) {
        if let Some(change) = self.into_change() {
            *target = change;
        }
    }
}

/// `None` is `null`, `Some(value)` a value (as serde reads an `Option`).
impl<T> From<Option<T>> for Nullable<T> {
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::Null, Self::Value)
    }
}

/// `null` is [`Null`](Nullable::Null), anything else a [`Value`](Nullable::Value); an absent
/// field is [`Absent`](Nullable::Absent) through `#[serde(default)]`.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Self::from)
    }
}

/// A value as itself, [`Null`](Nullable::Null) as `null`. [`Absent`](Nullable::Absent) is
/// written as `null` too: skip it with `#[serde(skip_serializing_if = "Nullable::is_absent")]`.
impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Value(value) => serializer.serialize_some(value),
            Self::Absent | Self::Null => serializer.serialize_none(),
        }
    }
}

/// Reads an `Option<T>` field that may be absent but not `null`:
/// `#[serde(default, deserialize_with = "pactum::patch::non_null")]`.
///
/// serde reads `null` as `None` for any `Option`; with this, `null` is refused with `T`'s own
/// type error (`invalid type: null, expected a string`), which the pipeline answers with a 400
/// naming the field. For the document to agree (the field is not nullable), give schemars
/// `T`'s schema: `#[schemars(with = "T")]`. And for the typed client to leave `None` out:
/// `#[serde(skip_serializing_if = "Option::is_none")]`.
///
/// ```
/// use pactum::patch::non_null;
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize)]
/// struct Patch {
///     #[serde(default, deserialize_with = "non_null")]
///     name: Option<String>,
/// }
///
/// assert_eq!(serde_json::from_str::<Patch>("{}")?.name, None);
/// assert_eq!(serde_json::from_str::<Patch>(r#"{"name": "Ann"}"#)?.name.as_deref(), Some("Ann"));
/// let null = serde_json::from_str::<Patch>(r#"{"name": null}"#).unwrap_err();
/// assert!(null.to_string().starts_with("invalid type: null, expected a string"));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
///
/// `T`'s error for `null` or any other value that is not a `T`.
pub fn non_null<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

// `validator`'s rules: each checks a value and passes absent and `null`, as the derive does for
// an `Option` field (it unwraps `Option`s itself, but sees `Nullable` as any other type).

impl<T: Validate> Validate for Nullable<T> {
    fn validate(&self) -> Result<(), ValidationErrors> {
        self.value().map_or(Ok(()), Validate::validate)
    }
}

impl<T: ValidateLength<u64>> ValidateLength<u64> for Nullable<T> {
    fn length(&self) -> Option<u64> {
        self.value().and_then(ValidateLength::length)
    }
}

impl<T, V: ValidateRange<T>> ValidateRange<T> for Nullable<V> {
    fn greater_than(&self, max: T) -> Option<bool> {
        self.value().and_then(|v| v.greater_than(max))
    }

    fn less_than(&self, min: T) -> Option<bool> {
        self.value().and_then(|v| v.less_than(min))
    }
}

impl<T: ValidateEmail> ValidateEmail for Nullable<T> {
    fn as_email_string(&self) -> Option<Cow<'_, str>> {
        self.value().and_then(ValidateEmail::as_email_string)
    }
}

impl<T: ValidateUrl> ValidateUrl for Nullable<T> {
    fn as_url_string(&self) -> Option<Cow<'_, str>> {
        self.value().and_then(ValidateUrl::as_url_string)
    }
}

impl<T: ValidateRegex> ValidateRegex for Nullable<T> {
    fn validate_regex(&self, regex: impl AsRegex) -> bool {
        self.value().is_none_or(|v| v.validate_regex(regex))
    }
}

/// `Option<T>`'s schema: `T`'s with `null` allowed, inlined.
#[cfg(feature = "openapi")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Nullable<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        <Option<T>>::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("pactum::patch::Nullable<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Option<T>>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests;
