//! [`Placeholder`]: a value of whatever type is asked for, given to a visitor in place of a
//! value that failed (or a field that is missing), so the rest of the document is still read.
//! It is never seen by a user: a value holding one only has its rules checked.

use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// Deserialises as `false`, `0`, `""`, `None`, an empty list or map, a struct whose fields
/// are placeholders, or an enum's first variant.
pub(super) struct Placeholder<E>(PhantomData<E>);

impl<E> Placeholder<E> {
    pub(super) fn new() -> Self {
        Self(PhantomData)
    }
}

macro_rules! zero {
    ($($method:ident => $visit:ident($value:expr);)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            visitor.$visit($value)
        }
    )*};
}

impl<'de, E: de::Error> Deserializer<'de> for Placeholder<E> {
    type Error = E;

    zero! {
        deserialize_bool => visit_bool(false);
        deserialize_i8 => visit_i64(0);
        deserialize_i16 => visit_i64(0);
        deserialize_i32 => visit_i64(0);
        deserialize_i64 => visit_i64(0);
        deserialize_i128 => visit_i128(0);
        deserialize_u8 => visit_u64(0);
        deserialize_u16 => visit_u64(0);
        deserialize_u32 => visit_u64(0);
        deserialize_u64 => visit_u64(0);
        deserialize_u128 => visit_u128(0);
        deserialize_f32 => visit_f64(0.0);
        deserialize_f64 => visit_f64(0.0);
        deserialize_char => visit_char(' ');
        deserialize_str => visit_str("");
        deserialize_string => visit_str("");
        deserialize_identifier => visit_str("");
        deserialize_bytes => visit_bytes(&[]);
        deserialize_byte_buf => visit_bytes(&[]);
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(Many::<E>::new(0))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(Many::<E>::new(len))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_seq(Many::<E>::new(len))
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_map(Fields::<E>::new(&[]))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_map(Fields::<E>::new(fields))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match variants.first() {
            Some(first) => visitor.visit_enum(FirstVariant::<E>(first, PhantomData)),
            None => Err(de::Error::custom("an enum without variants")),
        }
    }
}

/// `len` placeholders in a row.
struct Many<E> {
    left: usize,
    error: PhantomData<E>,
}

impl<E> Many<E> {
    fn new(left: usize) -> Self {
        Self {
            left,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> SeqAccess<'de> for Many<E> {
    type Error = E;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(Placeholder::new()).map(Some)
    }
}

/// Every field of a struct, each with a placeholder.
struct Fields<E> {
    fields: std::slice::Iter<'static, &'static str>,
    error: PhantomData<E>,
}

impl<E> Fields<E> {
    fn new(fields: &'static [&'static str]) -> Self {
        Self {
            fields: fields.iter(),
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> MapAccess<'de> for Fields<E> {
    type Error = E;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.fields.next() {
            Some(field) => seed
                .deserialize(IntoDeserializer::<E>::into_deserializer(*field))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        seed.deserialize(Placeholder::new())
    }
}

/// An enum's first variant, with placeholder content.
struct FirstVariant<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> EnumAccess<'de> for FirstVariant<E> {
    type Error = E;
    type Variant = Placeholder<E>;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Placeholder<E>), E> {
        let variant = seed.deserialize(IntoDeserializer::<E>::into_deserializer(self.0))?;
        Ok((variant, Placeholder::new()))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for Placeholder<E> {
    type Error = E;
    fn unit_variant(self) -> Result<(), E> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, E> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(Many::<E>::new(len))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_map(Fields::<E>::new(fields))
    }
}
