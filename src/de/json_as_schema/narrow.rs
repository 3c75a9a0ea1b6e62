//! The narrowing visitors: what [`Json`](super::Json) reads differently from serde's defaults
//! (whole floats as integers, 128-bit integers, `f32` bounds, structs as objects only).

use serde::de::{self, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};
use std::fmt;

use super::Wrap;

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
pub(super) struct WholeFloat<V>(pub(super) Wrap<V>);
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
pub(super) struct Wide<V>(pub(super) Wrap<V>, pub(super) bool);
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
pub(super) struct SingleFloat<V>(pub(super) Wrap<V>);
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
pub(super) struct ObjectOnly<V>(pub(super) Wrap<V>);
impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectOnly<V> {
    type Value = V::Value;
    pass_on!();
    #[inline]
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
