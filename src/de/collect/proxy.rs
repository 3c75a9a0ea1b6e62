//! [`Proxy`]: the visitor the inner deserializer sees — it checks a primitive against what was
//! asked before the real visitor sees it, and wraps what compound values are read through.

use std::cell::RefCell;
use std::fmt;

use serde::de::{
    self, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess, Unexpected, Visitor,
};

use super::access::{Entries, Items, Variants};
use super::wrap::{Collect, Kind};
use super::{Path, State};

/// The visitor the inner deserializer sees: checks a primitive against what was asked
/// (refusing it with the visitor still in its slot), then hands it on; wraps what a compound
/// value is read through so the reading below is collected too.
pub(super) struct Proxy<'s, 'p, V> {
    pub(super) slot: &'s RefCell<Option<V>>,
    pub(super) kind: Kind,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
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
                // Text that is an integer out of the type's range (a query or path value:
                // in range, it would have parsed); digits in range are a string (JSON).
                Seen::Str(text) if is_integer(text) && !fits(text, min, max) => {
                    match text.strip_prefix('-') {
                        Some(_) => Some(too_small(name, min, text)),
                        None => Some(too_large(name)),
                    }
                }
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
            // As serde_json says it.
            Seen::Other(Unexpected::Unit) => Unexpected::Other("null"),
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

/// The integer `text` is within `min..=max` (false when it is too long for 128 bits).
fn fits(text: &str, min: i128, max: u128) -> bool {
    match text.strip_prefix('-') {
        Some(_) => text.parse::<i128>().is_ok_and(|n| n >= min),
        None => text.parse::<u128>().is_ok_and(|n| n <= max),
    }
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
