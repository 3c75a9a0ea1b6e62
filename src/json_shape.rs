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
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use std::fmt;

/// A deserializer with the rules above.
pub(crate) struct Json<D>(pub(crate) D);

macro_rules! forward {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}
macro_rules! integers {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(WholeFloat(Wrap(visitor)))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Json<D> {
    type Error = D::Error;
    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );
    integers!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64
    );
    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_i128(Wide(Wrap(v), true))
    }
    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_u128(Wide(Wrap(v), false))
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_f32(SingleFloat(Wrap(v)))
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(v))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(v))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(v))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(v))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, ObjectOnly(Wrap(v)))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Wrap(v))
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
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Json(d))
    }
}
impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;
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
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }
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
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
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
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Json(d))
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
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
/// The visits a narrowing visitor below passes on untouched (to its [`Wrap`], so nested
/// values still go through [`Json`]); each writes its own `visit_f64` (and `visit_seq` and
/// `visit_map`, or takes them from `pass_on!(collections)`).
macro_rules! pass_on {
    (collections) => {
        fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
            self.0.visit_seq(a)
        }
        fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
            self.0.visit_map(a)
        }
    };
    () => {
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

/// 2^53: every whole `f64` up to it in magnitude is the integer it was written as.
const EXACT: f64 = 9_007_199_254_740_992.0;
/// 2^63 and 2^64: serde_json reads an integer literal from −2^63 to 2^64 − 1 as an `i64` or
/// a `u64`; one beyond reaches `deserialize_any` (and so the error path's tree, and the
/// 64-bit types) as an `f64` of at least 2^64, or at most −2^63.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;
const TWO_64: f64 = 18_446_744_073_709_551_616.0;
/// 2^127 and 2^128: the magnitudes beyond `i128` and `u128`.
const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
const TWO_128: f64 = 340_282_366_920_938_463_463_374_607_431_768_211_456.0;

/// An integer up to 64 bits written `4.0` is the integer 4.
///
/// Exactly representable whole numbers only (|v| ≤ 2^53); a larger one is refused as a
/// float, unless it is beyond every 64-bit type, where it stands for the integer literal it
/// most likely was (refused as out of range, with the type named: the float has lost the
/// literal's last digits, and −2^63 − 1 would round to `i64::MIN`).
struct WholeFloat<V>(Wrap<V>);
impl<'de, V: Visitor<'de>> Visitor<'de> for WholeFloat<V> {
    type Value = V::Value;
    pass_on!();
    pass_on!(collections);
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        if v.fract() != 0.0 {
            self.0.visit_f64(v)
        } else if v.abs() <= EXACT {
            if v < 0.0 {
                self.0.visit_i64(v as i64)
            } else {
                self.0.visit_u64(v as u64)
            }
        } else if v >= TWO_64 {
            // Saturates at u128::MAX: still beyond the 64-bit types.
            self.0.visit_u128(v as u128)
        } else if v <= -TWO_63 {
            self.0.visit_i128((v as i128).min(i128::from(i64::MIN) - 1))
        } else {
            self.0.visit_f64(v)
        }
    }
}

/// An `i128` (`signed`) or a `u128`: an integer literal, read exactly over the whole range.
///
/// serde_json reads these types from the literal's digits (`deserialize_i128`), so a float
/// such as `4.0` never reaches a visitor there: the document fails to parse after the `4`.
/// The error path's tree, which holds every literal beyond the 64-bit types as an `f64`, is
/// read to match: a whole float of at least 2^63 in magnitude and strictly inside the type's
/// range was such a literal and stands for its (rounded) integer, so that the tree finds no
/// error where the document had none; one that rounded to a bound (±2^127, 2^128) is taken
/// as beyond it, and any other float is refused as a float.
struct Wide<V>(Wrap<V>, bool);
impl<'de, V: Visitor<'de>> Visitor<'de> for Wide<V> {
    type Value = V::Value;
    pass_on!();
    pass_on!(collections);
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        let signed = self.1;
        if v.fract() == 0.0 && v.abs() >= TWO_63 {
            if signed && v <= -TWO_127 {
                // No `i128` below the bound to hand the visitor.
                return Err(E::custom("number too small for i128"));
            }
            if signed && v < TWO_127 {
                return self.0.visit_i128(v as i128);
            }
            if !signed && (0.0..TWO_128).contains(&v) {
                return self.0.visit_u128(v as u128);
            }
        }
        self.0.visit_f64(v)
    }
}

/// An `f32`: a number beyond its range is refused (serde would make it infinite, and the
/// value would be written back as `null`).
struct SingleFloat<V>(Wrap<V>);
impl<'de, V: Visitor<'de>> Visitor<'de> for SingleFloat<V> {
    type Value = V::Value;
    pass_on!();
    pass_on!(collections);
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        if v.is_finite() && (v as f32).is_infinite() {
            let bound = if v > 0.0 { "large" } else { "small" };
            return Err(E::custom(format_args!("number too {bound} for f32")));
        }
        self.0.visit_f64(v)
    }
}
/// A struct is a JSON object, not an array of its fields.
struct ObjectOnly<V>(Wrap<V>);
impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectOnly<V> {
    type Value = V::Value;
    pass_on!();
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(a)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(de::Error::invalid_type(de::Unexpected::Seq, &self))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Item {
        qty: u32,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Order {
        items: Vec<Item>,
        age: Option<u16>,
        ratio: f64,
    }

    fn parse(json: &str) -> Result<Order, String> {
        let mut de = serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(Json(&mut de))
            .map_err(|e| format!("{} at {}", e.inner(), e.path()))
    }

    #[test]
    fn whole_floats_are_integers_at_any_depth() {
        let order = parse(r#"{"items":[{"qty":4.0}],"age":7.0,"ratio":2}"#).unwrap();
        assert_eq!(
            order,
            Order {
                items: vec![Item { qty: 4 }],
                age: Some(7),
                ratio: 2.0
            }
        );
    }

    #[test]
    fn fractions_and_ranges_still_fail_with_their_path() {
        let err = parse(r#"{"items":[{"qty":4.5}],"age":7,"ratio":1}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: floating point `4.5`")
                && err.ends_with("at items[0].qty"),
            "{err}"
        );
        let err = parse(r#"{"items":[],"age":70000.0,"ratio":1}"#).unwrap_err();
        assert!(err.contains("70000") && err.ends_with("at age"), "{err}");
        let err = parse(r#"{"items":[],"age":-1.0,"ratio":1}"#).unwrap_err();
        assert!(err.ends_with("at age"), "{err}");
    }

    #[test]
    fn structs_are_objects_only() {
        let err = parse(r#"[[], null, 1.5]"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: sequence, expected struct Order"),
            "{err}"
        );
        let err = parse(r#"{"items":[[4]],"age":null,"ratio":1}"#).unwrap_err();
        assert!(
            err.contains("sequence") && err.ends_with("at items[0]"),
            "{err}"
        );
    }

    // -------------------------------------------------------------------------------------
    // Through the body reader (`decode::json`): the happy path on serde_json, the error path
    // on the tree, as the pipeline reads a body.
    // -------------------------------------------------------------------------------------

    use crate::contract::Slot;
    use crate::error::PathSegment;
    use serde::{Deserialize, Serialize};
    use validator::{Validate, ValidationErrors};

    /// The value, or the 400's details as `$.path: message`.
    fn body<T: Slot>(json: &str) -> Result<T, Vec<String>> {
        crate::decode::json::<T>(json.as_bytes()).map_err(|error| {
            let http = error.as_http().expect("an HTTP error");
            assert_eq!(http.status(), 400, "{json}: {}", http.message());
            http.details()
                .iter()
                .map(|detail| {
                    let mut path = String::from("$");
                    for segment in &detail.path {
                        match segment {
                            PathSegment::Key(key) => path += &format!(".{key}"),
                            PathSegment::Index(index) => path += &format!("[{index}]"),
                        }
                    }
                    format!("{path}: {}", detail.message)
                })
                .collect()
        })
    }

    /// The body read and written back (compact), or the details.
    fn echo<T: Slot>(json: &str) -> Result<String, Vec<String>> {
        body::<T>(json).map(|value| serde_json::to_string(&value).expect("serialises"))
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct One<T> {
        v: T,
    }
    impl<T> Validate for One<T> {
        fn validate(&self) -> Result<(), ValidationErrors> {
            Ok(())
        }
    }

    const U128_PAST_MAX: &str = "340282366920938463463374607431768211456";

    /// Every check of one integer type: its bounds, one past them, whole and fractional
    /// floats, a string.
    fn integer_width<T>(name: &str, min: i128, max: u128)
    where
        T: Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    {
        let wide = name.ends_with("128");
        let v = |text: &str| format!(r#"{{"v":{text}}}"#);
        let one = |text: &str| echo::<One<T>>(&v(text));
        let refused = |message: String| Err(vec![format!("$.v: {message}")]);

        assert_eq!(one(&min.to_string()), Ok(v(&min.to_string())), "{name} min");
        assert_eq!(one(&max.to_string()), Ok(v(&max.to_string())), "{name} max");
        assert_eq!(one("0"), Ok(v("0")), "{name}");
        assert_eq!(one("7"), Ok(v("7")), "{name}");
        assert_eq!(
            one(&max
                .checked_add(1)
                .map_or(U128_PAST_MAX.to_owned(), |n| n.to_string())),
            refused(format!("number too large for {name}")),
            "{name} max + 1"
        );
        if min < 0 {
            assert_eq!(
                one(&format!("-{}", min.unsigned_abs() + 1)),
                refused(format!("number too small for {name}")),
                "{name} min - 1"
            );
            assert_eq!(one("-7"), Ok(v("-7")), "{name}");
        } else {
            assert_eq!(
                one("-1"),
                refused(format!(
                    "expected a non-negative integer ({name}), found -1"
                )),
                "{name} -1"
            );
        }
        if wide {
            // serde_json reads 128-bit integers from their digits: no float reaches them.
            assert_eq!(
                one("4.0"),
                refused(format!(
                    "invalid type: floating point `4.0`, expected {name}"
                ))
            );
            assert_eq!(
                one("1e2"),
                refused(format!(
                    "invalid type: floating point `100.0`, expected {name}"
                ))
            );
        } else {
            assert_eq!(one("4.0"), Ok(v("4")), "{name} 4.0");
            assert_eq!(one("1e2"), Ok(v("100")), "{name} 1e2");
            if min < 0 {
                assert_eq!(one("-4.0"), Ok(v("-4")), "{name} -4.0");
            }
        }
        assert_eq!(
            one("4.5"),
            refused(format!(
                "invalid type: floating point `4.5`, expected {name}"
            ))
        );
        assert_eq!(
            one(r#""four""#),
            refused(format!(r#"invalid type: string "four", expected {name}"#))
        );
        assert_eq!(
            one("null"),
            // (serde's name for `null` on the error path)
            refused(format!("invalid type: unit value, expected {name}"))
        );
    }

    macro_rules! integer_widths {
        ($($ty:ident),*) => {$(
            #[test]
            fn $ty() {
                integer_width::<$ty>(stringify!($ty), $ty::MIN as i128, $ty::MAX as u128);
            }
        )*};
    }
    mod width {
        use super::integer_width;
        integer_widths!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Wide {
        a: i128,
        b: u128,
        list: Vec<i128>,
        maybe: Option<u128>,
    }

    #[test]
    fn wide_integers_at_any_depth_and_beside_other_errors() {
        let json = r#"{"a":-170141183460469231731687303715884105728,"b":340282366920938463463374607431768211455,"list":[18446744073709551616,-9223372036854775809],"maybe":null}"#;
        assert_eq!(echo::<Wide>(json).as_deref(), Ok(json));
        let some = r#"{"a":1,"b":2,"list":[],"maybe":36893488147419103232}"#;
        assert_eq!(echo::<Wide>(some).as_deref(), Ok(some));
        // Beside another error, big values well inside the range are not reported (the
        // error path's tree holds them as floats).
        assert_eq!(
            body::<Wide>(
                r#"{"a":-1267650600228229401496703205376,"b":1267650600228229401496703205376,"list":[4.5,1180591620717411303424],"maybe":"x"}"#
            ),
            Err(vec![
                "$.list[0]: invalid type: floating point `4.5`, expected i128".to_owned(),
                r#"$.maybe: invalid type: string "x", expected u128"#.to_owned(),
            ])
        );
        assert_eq!(
            body::<Wide>(r#"{"a":0,"b":-5,"list":[1e40]}"#),
            Err(vec![
                "$.b: expected a non-negative integer (u128), found -5".to_owned(),
                "$.list[0]: number too large for i128".to_owned(),
            ])
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Floats {
        single: f32,
        double: f64,
    }

    #[test]
    fn floats_take_integers_and_refuse_what_they_cannot_hold() {
        assert_eq!(
            echo::<Floats>(r#"{"single":1,"double":-2}"#).as_deref(),
            Ok(r#"{"single":1.0,"double":-2.0}"#)
        );
        assert_eq!(
            echo::<Floats>(r#"{"single":1.5,"double":1e308}"#).as_deref(),
            Ok(r#"{"single":1.5,"double":1e+308}"#)
        );
        assert_eq!(
            echo::<Floats>(r#"{"single":3.4028235e38,"double":18446744073709551616}"#).as_deref(),
            Ok(r#"{"single":3.4028235e+38,"double":1.8446744073709552e+19}"#)
        );
        assert_eq!(
            body::<Floats>(r#"{"single":3.5e38,"double":1}"#),
            Err(vec!["$.single: number too large for f32".to_owned()])
        );
        assert_eq!(
            body::<Floats>(r#"{"single":-1e39,"double":"1"}"#),
            Err(vec![
                "$.single: number too small for f32".to_owned(),
                r#"$.double: invalid type: string "1", expected f64"#.to_owned(),
            ])
        );
        // Beyond f64, the document is not JSON serde_json can read.
        let error = crate::decode::json::<Floats>(br#"{"single":1,"double":1e400}"#).unwrap_err();
        assert_eq!(error.as_http().unwrap().message(), "Invalid JSON");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Inner {
        x: u32,
        f: f64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Flat {
        id: u8,
        #[serde(flatten)]
        inner: Inner,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct FlatWide {
        #[serde(flatten)]
        one: One<i128>,
    }

    #[test]
    fn flatten_reads_through_serde_s_buffer() {
        let json = r#"{"id":1,"x":2,"f":1.5}"#;
        assert_eq!(echo::<Flat>(json).as_deref(), Ok(json));
        assert_eq!(
            body::<Flat>(r#"{"id":300,"x":2,"f":1}"#),
            Err(vec!["$.id: number too large for u8".to_owned()])
        );
        assert_eq!(
            body::<Flat>(r#"{"id":1,"f":1}"#),
            Err(vec!["$: missing field `x`".to_owned()])
        );
        // Beyond the wrapper: the buffered fields refuse a whole float, without their key.
        assert_eq!(
            body::<Flat>(r#"{"id":1,"x":2.0,"f":1}"#),
            Err(vec![
                "$: invalid type: floating point `2.0`, expected u32".to_owned()
            ])
        );
        // serde cannot buffer a 128-bit integer.
        assert_eq!(
            body::<FlatWide>(r#"{"v":1}"#),
            Err(vec!["$: i128 is not supported".to_owned()])
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Count { n: u32 },
        Name { s: String },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type")]
    enum Internal {
        Count { n: u32 },
        Name { s: String },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        Count { n: u32 },
        Small(u8),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
    struct Enums {
        untagged: Untagged,
        internal: Internal,
        adjacent: Adjacent,
    }

    #[test]
    fn tagged_and_untagged_enums() {
        let json = r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":{"n":3}}}"#;
        assert_eq!(echo::<Enums>(json).as_deref(), Ok(json));
        let other = r#"{"untagged":{"s":"a"},"internal":{"type":"Name","s":"b"},"adjacent":{"t":"Small","c":4}}"#;
        assert_eq!(echo::<Enums>(other).as_deref(), Ok(other));
        // The adjacent tag may come after its content.
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"s":"a"},"internal":{"type":"Name","s":"b"},"adjacent":{"c":4,"t":"Small"}}"#
            )
            .map(|e| e.adjacent),
            Ok(Adjacent::Small(4))
        );
        // Content read after its tag goes through the wrapper: whole floats, paths, ranges.
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":{"n":3.0}}}"#
            )
            .map(|e| e.adjacent),
            Ok(Adjacent::Count { n: 3 })
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Small","c":300}}"#
            ),
            Err(vec!["$.adjacent.c: number too large for u8".to_owned()])
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":[3]}}"#
            ),
            Err(vec![
                "$.adjacent.c: invalid type: sequence, expected struct variant Adjacent::Count"
                    .to_owned()
            ])
        );
        // Unknown tags and shapes that fit no variant are named at the enum.
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"m":1},"internal":{"type":"Other"},"adjacent":{"t":"Nope","c":1}}"#
            ),
            Err(vec![
                "$.untagged: data did not match any variant of untagged enum Untagged".to_owned()
            ])
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Other"},"adjacent":{"t":"Small","c":1}}"#
            ),
            Err(vec![
                "$.internal.type: unknown variant `Other`, expected `Count` or `Name`".to_owned()
            ])
        );
        // Buffered content (untagged, internally tagged, content before its tag) is beyond
        // the wrapper: an internally tagged enum reads from an array too, and serde refuses
        // whole floats there.
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":["Count",2],"adjacent":{"t":"Small","c":1}}"#
            )
            .map(|e| e.internal),
            Ok(Internal::Count { n: 2 })
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1.0},"internal":{"type":"Count","n":2},"adjacent":{"t":"Small","c":1}}"#
            ),
            Err(vec![
                "$.untagged: data did not match any variant of untagged enum Untagged".to_owned()
            ])
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2.0},"adjacent":{"t":"Small","c":1}}"#
            ),
            Err(vec![
                "$.internal: invalid type: floating point `2.0`, expected u32".to_owned()
            ])
        );
        assert_eq!(
            body::<Enums>(
                r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"c":{"n":3.0},"t":"Count"}}"#
            ),
            Err(vec![
                "$.adjacent: invalid type: floating point `3.0`, expected u32".to_owned()
            ])
        );
    }
}
