//! A value written as text (a path param, a JSON object key), read with the query's coercion
//! rules: a number or bool is parsed from the text, anything else sees the string itself.

use std::marker::PhantomData;

use serde::de::{self, Deserializer, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

/// Deserialises one text value; numbers and bools parse from it, as `serde_qs` does.
pub(crate) struct TextValue<'a, E> {
    text: &'a str,
    error: PhantomData<E>,
}

impl<'a, E> TextValue<'a, E> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self {
            text,
            error: PhantomData,
        }
    }
}

macro_rules! parsed {
    ($($method:ident => $ty:ty, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            match self.text.parse::<$ty>() {
                Ok(value) => visitor.$visit(value),
                // The visitor says what it expected of the string.
                Err(_) => visitor.visit_borrowed_str(self.text),
            }
        }
    )*};
}

impl<'de, E: de::Error> Deserializer<'de> for TextValue<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_borrowed_str(self.text)
    }

    parsed! {
        deserialize_bool => bool, visit_bool;
        deserialize_i8 => i8, visit_i8;
        deserialize_i16 => i16, visit_i16;
        deserialize_i32 => i32, visit_i32;
        deserialize_i64 => i64, visit_i64;
        deserialize_i128 => i128, visit_i128;
        deserialize_u8 => u8, visit_u8;
        deserialize_u16 => u16, visit_u16;
        deserialize_u32 => u32, visit_u32;
        deserialize_u64 => u64, visit_u64;
        deserialize_u128 => u128, visit_u128;
        deserialize_f32 => f32, visit_f32;
        deserialize_f64 => f64, visit_f64;
    }

    /// A text value is present: never `None`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant named by the text.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_enum(IntoDeserializer::<E>::into_deserializer(self.text))
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// Names and values as a map from name to [`TextValue`], in their order: path params, or a
/// flat query's pairs.
// Read by the pipeline only (path params, a flat query).
#[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
pub(crate) struct TextMap<'a, E, N = String, T = String> {
    pairs: std::slice::Iter<'a, (N, T)>,
    value: Option<&'a str>,
    error: PhantomData<E>,
}

#[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
impl<'a, E, N, T> TextMap<'a, E, N, T> {
    pub(crate) fn new(pairs: &'a [(N, T)]) -> Self {
        Self {
            pairs: pairs.iter(),
            value: None,
            error: PhantomData,
        }
    }
}

impl<'de, E, N, T> Deserializer<'de> for TextMap<'de, E, N, T>
where
    E: de::Error,
    N: AsRef<str>,
    T: AsRef<str>,
{
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de, E, N, T> de::MapAccess<'de> for TextMap<'de, E, N, T>
where
    E: de::Error,
    N: AsRef<str>,
    T: AsRef<str>,
{
    type Error = E;

    fn next_key_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, E> {
        let Some((name, value)) = self.pairs.next() else {
            return Ok(None);
        };
        self.value = Some(value.as_ref());
        seed.deserialize(de::value::BorrowedStrDeserializer::new(name.as_ref()))
            .map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, E> {
        match self.value.take() {
            Some(value) => seed.deserialize(TextValue::new(value)),
            None => Err(de::Error::custom("value requested before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.pairs.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Open,
        Closed,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Params {
        id: u64,
        name: String,
        flag: bool,
        kind: Kind,
        ratio: Option<f64>,
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn text_values_coerce_like_the_query() {
        let raw = pairs(&[
            ("id", "7"),
            ("name", "42"),
            ("flag", "true"),
            ("kind", "open"),
            ("ratio", "0.5"),
        ]);
        let parsed = Params::deserialize(TextMap::<de::value::Error>::new(&raw)).unwrap();
        assert_eq!(
            parsed,
            Params {
                id: 7,
                name: "42".into(),
                flag: true,
                kind: Kind::Open,
                ratio: Some(0.5)
            }
        );
        let raw = pairs(&[("id", "x"), ("name", ""), ("flag", "1"), ("kind", "open")]);
        let err = Params::deserialize(TextMap::<de::value::Error>::new(&raw)).unwrap_err();
        assert_eq!(err.to_string(), "invalid type: string \"x\", expected u64");
    }
}
