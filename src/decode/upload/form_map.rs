//! A multipart form read as a serde map: each field name once, with its parts; text parts
//! coerce like the query (numbers and bools parse from the text), a [`FilePart`] field takes
//! its part whole, a list field takes every part of its name.
//!
//! [`FilePart`]: crate::upload::FilePart

use std::collections::HashMap;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;

use crate::upload::file::FILE_PART;
use crate::upload::Part;
use crate::de::from_text::TextValue;

/// The form as a map from field name to its parts, names in the order they first came.
pub(crate) struct FormMap<'a, E> {
    groups: std::vec::IntoIter<(&'a str, Vec<&'a Part>)>,
    value: Option<Vec<&'a Part>>,
    error: PhantomData<E>,
}

impl<'a, E> FormMap<'a, E> {
    pub(crate) fn new(parts: &'a [Part]) -> Self {
        // An index by name: a form of many parts is grouped in linear time.
        let mut index: HashMap<&'a str, usize> = HashMap::with_capacity(parts.len());
        let mut groups: Vec<(&'a str, Vec<&'a Part>)> = Vec::new();
        for part in parts {
            match index.get(part.name.as_str()) {
                Some(&at) => groups[at].1.push(part),
                None => {
                    index.insert(&part.name, groups.len());
                    groups.push((&part.name, vec![part]));
                }
            }
        }
        Self {
            groups: groups.into_iter(),
            value: None,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> Deserializer<'de> for FormMap<'de, E> {
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

impl<'de, E: de::Error> MapAccess<'de> for FormMap<'de, E> {
    type Error = E;

    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, E> {
        let Some((name, parts)) = self.groups.next() else {
            return Ok(None);
        };
        self.value = Some(parts);
        seed.deserialize(de::value::BorrowedStrDeserializer::new(name))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, E> {
        match self.value.take() {
            Some(parts) => seed.deserialize(Parts::<E>(parts, PhantomData)),
            None => Err(de::Error::custom("value requested before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.groups.len())
    }
}

/// The parts of one field name: a list for a list, else the one part.
struct Parts<'a, E>(Vec<&'a Part>, PhantomData<E>);

impl<'a, E: de::Error> Parts<'a, E> {
    fn one(self) -> Result<One<'a, E>, E> {
        match self.0.as_slice() {
            [part] => Ok(One(part, PhantomData)),
            _ => Err(de::Error::custom("is given more than once")),
        }
    }

    fn list(self) -> de::value::SeqDeserializer<std::vec::IntoIter<One<'a, E>>, E> {
        let items: Vec<One<'a, E>> = self.0.into_iter().map(|p| One(p, PhantomData)).collect();
        de::value::SeqDeserializer::new(items.into_iter())
    }
}

macro_rules! to_one {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            self.one()?.$method(visitor)
        }
    )*};
}

impl<'de, E: de::Error> Deserializer<'de> for Parts<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        if self.0.len() == 1 {
            self.one()?.deserialize_any(visitor)
        } else {
            visitor.visit_seq(self.list())
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(self.list())
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(self.list())
    }

    /// A field that came is present: never `None`.
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

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.one()?.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.one()?.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_seq(self.list())
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.one()?.deserialize_unit_struct(name, visitor)
    }

    to_one! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_map deserialize_identifier deserialize_ignored_any
    }
}

/// One part: a [`FilePart`](crate::upload::FilePart) when one is asked for, else its text.
struct One<'a, E>(&'a Part, PhantomData<E>);

impl<'de, E: de::Error> IntoDeserializer<'de, E> for One<'de, E> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'a, E: de::Error> One<'a, E> {
    fn text(&self) -> Result<TextValue<'a, E>, E> {
        std::str::from_utf8(&self.0.data)
            .map(TextValue::new)
            .map_err(|_| de::Error::custom("is not UTF-8 text"))
    }
}

macro_rules! to_text {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            self.text()?.$method(visitor)
        }
    )*};
}

impl<'de, E: de::Error> Deserializer<'de> for One<'de, E> {
    type Error = E;

    to_text! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_borrowed_bytes(&self.0.data)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_borrowed_bytes(&self.0.data)
    }

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

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        if name == FILE_PART {
            return visitor.visit_map(FileMap::<E> {
                part: self.0,
                next: 0,
                error: PhantomData,
            });
        }
        self.text()?.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.text()?.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.text()?.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, E> {
        self.text()?.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.text()?.deserialize_tuple_struct(name, len, visitor)
    }
}

/// A part as the map a [`FilePart`](crate::upload::FilePart) reads: its file name, content type and
/// bytes.
struct FileMap<'a, E> {
    part: &'a Part,
    next: usize,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> MapAccess<'de> for FileMap<'de, E> {
    type Error = E;

    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, E> {
        let key = match self.next {
            0 => "filename",
            1 => "content_type",
            2 => "bytes",
            _ => return Ok(None),
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, E> {
        let field = self.next;
        self.next += 1;
        let text = match field {
            0 => &self.part.filename,
            1 => &self.part.content_type,
            _ => {
                return seed.deserialize(de::value::BorrowedBytesDeserializer::new(&self.part.data))
            }
        };
        seed.deserialize(OptionalText::<E>(text.as_deref(), PhantomData))
    }
}

/// A file name or content type: `Option<String>`.
struct OptionalText<'a, E>(Option<&'a str>, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for OptionalText<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.0 {
            Some(text) => visitor.visit_some(de::value::BorrowedStrDeserializer::new(text)),
            None => visitor.visit_none(),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
