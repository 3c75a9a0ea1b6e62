//! [`Collect`]: the wrapping deserializer of [`collect`](super::collect), and the visitor,
//! seed and accesses that carry it to every depth.

use std::cell::RefCell;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

use super::key::CaptureKey;
use super::placeholder::Placeholder;
use super::{message, Path, State};

/// Wraps the deserializer of the value at `path`.
pub(super) struct Collect<'p, D> {
    inner: D,
    path: &'p Path<'p>,
    state: &'p State,
}

impl<'p, D> Collect<'p, D> {
    pub(super) fn new(inner: D, path: &'p Path<'p>, state: &'p State) -> Self {
        Self { inner, path, state }
    }
}

/// What the visitor asked for: the primitives are checked before the visitor sees a value
/// (what a primitive visitor would refuse is refused here, and the visitor kept for a
/// placeholder); anything else goes to the visitor as it is.
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    Integer {
        name: &'static str,
        min: i128,
        max: u128,
    },
    Float,
    Char,
    Str,
    Struct(&'static [&'static str]),
    Other,
}

macro_rules! integer {
    ($ty:ty) => {
        Kind::Integer {
            name: stringify!($ty),
            min: <$ty>::MIN as i128,
            max: <$ty>::MAX as u128,
        }
    };
}

/// Reads one value through `call`, which hands the inner deserializer a [`Proxy`] of
/// `visitor`. When the value is refused before the visitor ran, the refusal is recorded and
/// the visitor gets a placeholder instead; when the visitor itself fails, its error is
/// recorded (a missing field as such) and passed up.
fn read<'de, 'p, V, E>(
    path: &'p Path<'p>,
    state: &'p State,
    kind: Kind,
    visitor: V,
    call: impl FnOnce(Proxy<'_, 'p, V>) -> Result<V::Value, E>,
    placeholder: impl FnOnce(Placeholder<E>, V) -> Result<V::Value, E>,
) -> Result<V::Value, E>
where
    V: Visitor<'de>,
    E: de::Error,
{
    let slot = RefCell::new(Some(visitor));
    let error = match call(Proxy {
        slot: &slot,
        kind,
        path,
        state,
    }) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    if state.handled.get() {
        return Err(error);
    }
    match slot.into_inner() {
        Some(visitor) => {
            let refusal = state.refusal.take().unwrap_or_else(|| message(&error));
            state.record(path, refusal);
            placeholder(Placeholder::new(), visitor).inspect_err(|_| state.handled.set(true))
        }
        None => {
            match missing_field(&error, kind) {
                Some(field) => state.missing_field(path, field),
                None => state.record(path, message(&error)),
            }
            state.handled.set(true);
            Err(error)
        }
    }
}

/// The field a struct's visitor reported missing, if that is what `error` says.
fn missing_field(error: &impl fmt::Display, kind: Kind) -> Option<&'static str> {
    let Kind::Struct(fields) = kind else {
        return None;
    };
    let text = error.to_string();
    let name = text.strip_prefix("missing field `")?.split('`').next()?;
    fields.iter().copied().find(|field| *field == name)
}

macro_rules! checked {
    ($($method:ident => $kind:expr;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            let Collect { inner, path, state } = self;
            read(path, state, $kind, visitor, |v| inner.$method(v), |p, v| p.$method(v))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Collect<'_, D> {
    type Error = D::Error;

    checked! {
        deserialize_any => Kind::Other;
        deserialize_bool => Kind::Bool;
        deserialize_i8 => integer!(i8);
        deserialize_i16 => integer!(i16);
        deserialize_i32 => integer!(i32);
        deserialize_i64 => integer!(i64);
        deserialize_i128 => integer!(i128);
        deserialize_u8 => integer!(u8);
        deserialize_u16 => integer!(u16);
        deserialize_u32 => integer!(u32);
        deserialize_u64 => integer!(u64);
        deserialize_u128 => integer!(u128);
        deserialize_f32 => Kind::Float;
        deserialize_f64 => Kind::Float;
        deserialize_char => Kind::Char;
        deserialize_str => Kind::Str;
        deserialize_string => Kind::Str;
        deserialize_bytes => Kind::Other;
        deserialize_byte_buf => Kind::Other;
        deserialize_option => Kind::Other;
        deserialize_unit => Kind::Other;
        deserialize_seq => Kind::Other;
        deserialize_map => Kind::Other;
        deserialize_identifier => Kind::Other;
        deserialize_ignored_any => Kind::Other;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.deserialize_unit_struct(name, v),
            |p, v| p.deserialize_unit_struct(name, v),
        )
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.deserialize_newtype_struct(name, v),
            |p, v| p.deserialize_newtype_struct(name, v),
        )
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.deserialize_tuple(len, v),
            |p, v| p.deserialize_tuple(len, v),
        )
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.deserialize_tuple_struct(name, len, v),
            |p, v| p.deserialize_tuple_struct(name, len, v),
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Struct(fields),
            visitor,
            |v| inner.deserialize_struct(name, fields, v),
            |p, v| p.deserialize_struct(name, fields, v),
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let Collect { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.deserialize_enum(name, variants, v),
            |p, v| p.deserialize_enum(name, variants, v),
        )
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The visitor the inner deserializer sees: checks a primitive against what was asked
/// (refusing it with the visitor still in its slot), then hands it on; wraps what a compound
/// value is read through so the reading below is collected too.
struct Proxy<'s, 'p, V> {
    slot: &'s RefCell<Option<V>>,
    kind: Kind,
    path: &'p Path<'p>,
    state: &'p State,
}

/// A value as the proxy saw it, to check against the [`Kind`] asked for.
enum Seen<'a> {
    Bool(bool),
    Signed(i128),
    Unsigned(u128),
    Float(f64),
    Char,
    Str(&'a str),
    Other(Unexpected<'a>),
}

impl<'de, V: Visitor<'de>> Proxy<'_, '_, V> {
    /// Refuses what the asked primitive cannot be, with the message a primitive visitor
    /// gives (or a clearer one for numbers out of range).
    fn check<E: de::Error>(&self, seen: Seen<'_>) -> Result<V, E> {
        let refusal = match (self.kind, seen) {
            (Kind::Other | Kind::Struct(_), _) => None,
            (Kind::Bool, Seen::Bool(_)) => None,
            (Kind::Integer { name, min, max }, seen) => match seen {
                Seen::Signed(n) if n < min => Some(too_small(name, min, &n.to_string())),
                Seen::Signed(n) if n >= 0 && n as u128 > max => Some(too_large(name)),
                Seen::Signed(_) => None,
                Seen::Unsigned(n) if n > max => Some(too_large(name)),
                Seen::Unsigned(_) => None,
                Seen::Float(f) if f.fract() == 0.0 && f < min as f64 => {
                    Some(too_small(name, min, &f.to_string()))
                }
                // `max as f64` rounds up to a power of two for the 64-bit types.
                Seen::Float(f) if f.fract() == 0.0 && f >= max as f64 + 1.0 => {
                    Some(too_large(name))
                }
                Seen::Str(text) if is_integer(text) => match text.strip_prefix('-') {
                    Some(_) => Some(too_small(name, min, text)),
                    None => Some(too_large(name)),
                },
                other => Some(self.invalid_type(other)),
            },
            (Kind::Float, Seen::Float(_) | Seen::Signed(_) | Seen::Unsigned(_)) => None,
            (Kind::Char, Seen::Char) => None,
            (Kind::Char, Seen::Str(s)) if s.chars().count() == 1 => None,
            (Kind::Str, Seen::Str(_) | Seen::Char) => None,
            (_, other) => Some(self.invalid_type(other)),
        };
        if let Some(refusal) = refusal {
            *self.state.refusal.borrow_mut() = Some(refusal);
            return Err(E::custom("refused before the visitor ran"));
        }
        self.slot
            .borrow_mut()
            .take()
            .ok_or_else(|| E::custom("visitor used twice"))
    }

    fn invalid_type(&self, seen: Seen<'_>) -> String {
        let unexpected = match seen {
            Seen::Bool(b) => Unexpected::Bool(b),
            Seen::Signed(n) => match i64::try_from(n) {
                Ok(n) => Unexpected::Signed(n),
                Err(_) => Unexpected::Other("a 128-bit integer"),
            },
            Seen::Unsigned(n) => match u64::try_from(n) {
                Ok(n) => Unexpected::Unsigned(n),
                Err(_) => Unexpected::Other("a 128-bit integer"),
            },
            Seen::Float(f) => Unexpected::Float(f),
            Seen::Char => Unexpected::Other("a character"),
            Seen::Str(s) => Unexpected::Str(s),
            Seen::Other(unexpected) => unexpected,
        };
        de::value::Error::invalid_type(unexpected, self).to_string()
    }
}

fn too_large(name: &str) -> String {
    format!("number too large for {name}")
}

fn too_small(name: &str, min: i128, found: &str) -> String {
    if min == 0 {
        format!("expected a non-negative integer ({name}), found {found}")
    } else {
        format!("number too small for {name}")
    }
}

/// `text` is an integer, however large: an optional `-` and digits.
fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

macro_rules! visit_primitive {
    ($($method:ident($ty:ty) => $seen:expr;)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            let seen: fn($ty) -> Seen<'static> = $seen;
            self.check(seen(v))?.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Proxy<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.slot.borrow() {
            Some(visitor) => visitor.expecting(f),
            None => f.write_str("a value"),
        }
    }

    visit_primitive! {
        visit_bool(bool) => Seen::Bool;
        visit_i8(i8) => |n| Seen::Signed(n.into());
        visit_i16(i16) => |n| Seen::Signed(n.into());
        visit_i32(i32) => |n| Seen::Signed(n.into());
        visit_i64(i64) => |n| Seen::Signed(n.into());
        visit_i128(i128) => Seen::Signed;
        visit_u8(u8) => |n| Seen::Unsigned(n.into());
        visit_u16(u16) => |n| Seen::Unsigned(n.into());
        visit_u32(u32) => |n| Seen::Unsigned(n.into());
        visit_u64(u64) => |n| Seen::Unsigned(n.into());
        visit_u128(u128) => Seen::Unsigned;
        visit_f32(f32) => |n| Seen::Float(n.into());
        visit_f64(f64) => Seen::Float;
        visit_char(char) => |_| Seen::Char;
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(Seen::Str(v))?.visit_str(v)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(Seen::Str(v))?.visit_borrowed_str(v)
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check(Seen::Str(&v))?.visit_string(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.check(Seen::Other(Unexpected::Bytes(v)))?
            .visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.check(Seen::Other(Unexpected::Bytes(v)))?
            .visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.check(Seen::Other(Unexpected::Bytes(&v)))?
            .visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Seen::Other(Unexpected::Option))?.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Seen::Other(Unexpected::Unit))?.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let (path, state) = (self.path, self.state);
        self.check(Seen::Other(Unexpected::Option))?
            .visit_some(Collect::new(d, path, state))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let (path, state) = (self.path, self.state);
        self.check(Seen::Other(Unexpected::NewtypeStruct))?
            .visit_newtype_struct(Collect::new(d, path, state))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let (path, state) = (self.path, self.state);
        self.check(Seen::Other(Unexpected::Seq))?.visit_seq(Items {
            inner: seq,
            index: 0,
            path,
            state,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let (path, state) = (self.path, self.state);
        let missing = match self.kind {
            // Popped from the end: reversed, they come in the order they were found.
            Kind::Struct(_) => state.missing_at(path).into_iter().rev().collect(),
            _ => Vec::new(),
        };
        self.check(Seen::Other(Unexpected::Map))?
            .visit_map(Entries {
                inner: map,
                key: None,
                seen: Vec::new(),
                missing,
                placeholder_for: None,
                path,
                state,
            })
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let (path, state) = (self.path, self.state);
        self.check(Seen::Other(Unexpected::Enum))?
            .visit_enum(Variants {
                inner: data,
                path,
                state,
            })
    }
}

/// A seed read through [`Collect`] at `path`; an error the seed raises after the reading
/// (serde's buffered `untagged` and `flatten` do) is recorded here.
struct Seed<'p, S> {
    seed: S,
    path: &'p Path<'p>,
    state: &'p State,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let (path, state) = (self.path, self.state);
        self.seed
            .deserialize(Collect::new(d, path, state))
            .inspect_err(|error| {
                if !state.handled.replace(true) {
                    state.record(path, message(error));
                }
            })
    }
}

struct Items<'p, A> {
    inner: A,
    index: usize,
    path: &'p Path<'p>,
    state: &'p State,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        self.inner.next_element_seed(Seed {
            seed,
            path: &path,
            state: self.state,
        })
    }
    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct Entries<'p, A> {
    inner: A,
    /// The key of the value to read next, as text.
    key: Option<String>,
    /// The keys read so far (a missing field's placeholder is only fed once).
    seen: Vec<String>,
    /// Fields of this struct that earlier readings found missing.
    missing: Vec<&'static str>,
    /// The missing field whose placeholder is the next value.
    placeholder_for: Option<&'static str>,
    path: &'p Path<'p>,
    state: &'p State,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let mut key = None;
        let seed = RefCell::new(Some(seed));
        let capture = CaptureKey {
            seed: &seed,
            key: &mut key,
        };
        let next = match self.inner.next_key_seed(capture) {
            Ok(next) => next,
            Err(error) => {
                if !self.state.handled.replace(true) {
                    let key = key.unwrap_or_default();
                    self.state
                        .record(&Path::Key(self.path, &key), message(&error));
                }
                return Err(error);
            }
        };
        if let Some(found) = next {
            if !self.missing.is_empty() {
                self.seen.push(key.clone().unwrap_or_default());
            }
            self.key = key;
            return Ok(Some(found));
        }
        // The document's own entries are read: then the fields earlier readings missed.
        let Some(seed) = seed.into_inner() else {
            return Ok(None);
        };
        while let Some(field) = self.missing.pop() {
            if !self.seen.iter().any(|k| k == field) {
                self.placeholder_for = Some(field);
                let key = de::value::BorrowedStrDeserializer::new(field);
                return seed.deserialize(key).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        if let Some(field) = self.placeholder_for.take() {
            self.state.missing_field(self.path, field);
            return seed
                .deserialize(Placeholder::new())
                .inspect_err(|_| self.state.handled.set(true));
        }
        let key = self.key.take().unwrap_or_default();
        let path = Path::Key(self.path, &key);
        self.inner.next_value_seed(Seed {
            seed,
            path: &path,
            state: self.state,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct Variants<'p, A> {
    inner: A,
    path: &'p Path<'p>,
    state: &'p State,
}

impl<'de, 'p, A: EnumAccess<'de>> EnumAccess<'de> for Variants<'p, A> {
    type Error = A::Error;
    type Variant = Variants<'p, A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (path, state) = (self.path, self.state);
        let (value, variant) = self.inner.variant_seed(seed)?;
        Ok((
            value,
            Variants {
                inner: variant,
                path,
                state,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Variants<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.inner.newtype_variant_seed(Seed {
            seed,
            path: self.path,
            state: self.state,
        })
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let Variants { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.tuple_variant(len, v),
            |p, v| p.deserialize_tuple(len, v),
        )
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let Variants { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Struct(fields),
            visitor,
            |v| inner.struct_variant(fields, v),
            |p, v| p.deserialize_struct("", fields, v),
        )
    }
}
