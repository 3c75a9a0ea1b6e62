//! [`Collect`]: the wrapping deserializer of [`collect`](super::collect), and [`read`], which
//! reads one value through it, recovering from a refused value with a placeholder.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use super::placeholder::Placeholder;
use super::proxy::Proxy;
use super::{message, Path, State};

/// Wraps the deserializer of the value at `path`.
pub(super) struct Collect<'p, D> {
    pub(super) inner: D,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
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
pub(super) enum Kind {
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
pub(super) fn read<'de, 'p, V, E>(
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
    ($($method:ident $(($($arg:ident: $ty:ty),*))? => $kind:expr;)*) => {$(
        fn $method<V: Visitor<'de>>(
            self,
            $($($arg: $ty,)*)?
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let Collect { inner, path, state } = self;
            read(
                path,
                state,
                $kind,
                visitor,
                |v| inner.$method($($($arg,)*)? v),
                |p, v| p.$method($($($arg,)*)? v),
            )
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

    checked! {
        deserialize_unit_struct(name: &'static str) => Kind::Other;
        deserialize_newtype_struct(name: &'static str) => Kind::Other;
        deserialize_tuple(len: usize) => Kind::Other;
        deserialize_tuple_struct(name: &'static str, len: usize) => Kind::Other;
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) => Kind::Struct(fields);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]) => Kind::Other;
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}
