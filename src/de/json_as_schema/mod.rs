//! Reads a JSON body the way its JSON Schema describes it, where serde's defaults differ:
//!
//! - an integer of up to 64 bits may be written as a whole float (`4.0`), as JSON Schema's
//!   `integer` allows (serde_json refuses `4.0` for a Rust integer); exactly representable
//!   ones only (|v| ≤ 2^53);
//! - an `i128` or `u128` is read from the literal's digits, exactly over its whole range
//!   (serde_json's 128-bit reading): it must be written as an integer, `4.0` is refused as a
//!   float;
//! - an `f32` beyond its range is refused ("number too large for f32"; serde would make it
//!   infinite, written back as `null`);
//! - a struct must be a JSON object (serde's derive also reads one from an array of its
//!   field values, which no published schema allows).
//!
//! [`Json`] wraps a deserializer and every visitor, sequence, map and enum access below it, so
//! the rules apply at every depth; range errors still name the value ("integer `70000`,
//! expected u16").
//!
//! Except where serde buffers a value before its type reads it: `#[serde(flatten)]`,
//! `#[serde(untagged)]`, an internally tagged enum (`#[serde(tag = "type")]`) and an adjacently
//! tagged one whose content comes before its tag are read from serde's private buffer, by
//! serde's own deserializer, which no wrapper reaches. There a whole float is refused for an
//! integer (`invalid type: floating point`), an internally tagged enum also reads from an
//! array, and `i128`/`u128` are not supported at all (serde: "i128 is not supported").

/// The visits a visitor of this module passes on untouched to the one it wraps (`self.0`):
/// `pass_on!(values)` the values that hold no other (and `expecting`), which [`Wrap`] and the
/// narrowing visitors share; `pass_on!()` those and the visits handed a deserializer or an
/// enum (the narrowing visitors pass them to their [`Wrap`], so nested values still go
/// through [`Json`]); `pass_on!(collections)` sequences and maps. Each visitor writes its own
/// `visit_f64`.
macro_rules! pass_on {
    (collections) => {
        fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
            self.0.visit_seq(a)
        }
        fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
            self.0.visit_map(a)
        }
    };
    (values) => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
            self.0.visit_bool(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
            self.0.visit_i64(v)
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Value, E> {
            self.0.visit_i128(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
            self.0.visit_u64(v)
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Value, E> {
            self.0.visit_u128(v)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
            self.0.visit_str(v)
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
            self.0.visit_borrowed_str(v)
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
            self.0.visit_string(v)
        }
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
            self.0.visit_bytes(v)
        }
        fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
            self.0.visit_unit()
        }
        fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
            self.0.visit_none()
        }
    };
    () => {
        pass_on!(values);
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
            self.0.visit_some(d)
        }
        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
            self.0.visit_newtype_struct(d)
        }
        fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
            self.0.visit_enum(a)
        }
    };
}

mod narrow;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use std::fmt;

use narrow::{ObjectOnly, SingleFloat, WholeFloat, Wide};

/// A deserializer with the rules above.
pub(crate) struct Json<D>(pub(crate) D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Json<D> {
    type Error = D::Error;

    forward_deserializer! { |self, v| self.0 => Wrap(v);
        deserialize_any;
        deserialize_bool;
        deserialize_i8 => WholeFloat(Wrap(v));
        deserialize_i16 => WholeFloat(Wrap(v));
        deserialize_i32 => WholeFloat(Wrap(v));
        deserialize_i64 => WholeFloat(Wrap(v));
        deserialize_i128 => Wide(Wrap(v), true);
        deserialize_u8 => WholeFloat(Wrap(v));
        deserialize_u16 => WholeFloat(Wrap(v));
        deserialize_u32 => WholeFloat(Wrap(v));
        deserialize_u64 => WholeFloat(Wrap(v));
        deserialize_u128 => Wide(Wrap(v), false);
        deserialize_f32 => SingleFloat(Wrap(v));
        deserialize_f64;
        deserialize_char;
        deserialize_str;
        deserialize_string;
        deserialize_bytes;
        deserialize_byte_buf;
        deserialize_option;
        deserialize_unit;
        deserialize_seq;
        deserialize_map;
        deserialize_identifier;
        deserialize_ignored_any;
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
            => ObjectOnly(Wrap(v));
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Wraps what a visitor is handed (sequences, maps, enums) so nested values go through `Json` too.
struct Wrap<V>(V);
struct Seed<S>(S);
impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Json(d))
    }
}
impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}
impl<'de, A: MapAccess<'de>> MapAccess<'de> for Wrap<A> {
    type Error = A::Error;
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }
    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}
impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Wrap<A> {
    type Error = A::Error;
    type Variant = Wrap<A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Wrap<A::Variant>), A::Error> {
        self.0.variant_seed(Seed(seed)).map(|(v, a)| (v, Wrap(a)))
    }
}
impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(v))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(v))
    }
}
impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;
    pass_on!(values);
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Json(d))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Json(d))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrap(a))
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(a))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Wrap(a))
    }
}

#[cfg(test)]
mod tests;
