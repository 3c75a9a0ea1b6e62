//! Reads the field names of a `Deserialize` struct, to check them against a route's params.

use serde::de::{self, Deserialize, Visitor};

/// The field names `T` declares, or `None` when `T` is not a plain struct (a map, a
/// `#[serde(flatten)]` struct, a tuple...), in which case the names cannot be checked.
pub(crate) fn struct_fields<'de, T: Deserialize<'de>>() -> Option<&'static [&'static str]> {
    let mut fields = None;
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

struct FieldNames<'a>(&'a mut Option<&'static [&'static str]>);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names read")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = Some(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[allow(dead_code)]
    #[derive(serde::Deserialize)]
    struct RepoPath {
        org: String,
        #[serde(rename = "repo")]
        name: String,
    }

    #[test]
    fn reads_renamed_fields() {
        assert_eq!(struct_fields::<RepoPath>(), Some(&["org", "repo"][..]));
        assert_eq!(struct_fields::<HashMap<String, String>>(), None);
    }
}
