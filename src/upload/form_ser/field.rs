//! [`Field`]: one field of a form, written as its parts.

use bytes::Bytes;
use serde::ser::{self, Impossible, Serialize};

use super::{refused, FormError};
use crate::upload::file::FILE_PART;
use crate::upload::Part;

/// A field named `name`: a text part per scalar, one per item of a list, none for `None`, a
/// file part for a [`FilePart`](crate::upload::FilePart).
pub(super) struct Field<'a> {
    name: &'a str,
    parts: &'a mut Vec<Part>,
}

impl<'a> Field<'a> {
    pub(super) fn new(name: &'a str, parts: &'a mut Vec<Part>) -> Self {
        Self { name, parts }
    }

    fn text(self, text: String) -> Result<(), FormError> {
        self.parts.push(Part {
            name: self.name.to_owned(),
            filename: None,
            content_type: None,
            data: Bytes::from(text),
        });
        Ok(())
    }
}

macro_rules! as_text {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method(self, value: $ty) -> Result<(), FormError> {
            self.text(value.to_string())
        }
    )*};
}

impl<'a> ser::Serializer for Field<'a> {
    type Ok = ();
    type Error = FormError;
    type SerializeSeq = List<'a>;
    type SerializeTuple = List<'a>;
    type SerializeTupleStruct = List<'a>;
    type SerializeTupleVariant = Impossible<(), FormError>;
    type SerializeMap = Impossible<(), FormError>;
    type SerializeStruct = File<'a>;
    type SerializeStructVariant = Impossible<(), FormError>;

    as_text! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_i128(i128); serialize_u8(u8); serialize_u16(u16);
        serialize_u32(u32); serialize_u64(u64); serialize_u128(u128); serialize_f32(f32);
        serialize_f64(f64); serialize_char(char); serialize_str(&str);
    }

    /// Bytes: a file part without a name.
    fn serialize_bytes(self, value: &[u8]) -> Result<(), FormError> {
        self.parts.push(Part {
            name: self.name.to_owned(),
            filename: None,
            content_type: None,
            data: Bytes::copy_from_slice(value),
        });
        Ok(())
    }

    fn serialize_none(self) -> Result<(), FormError> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), FormError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), FormError> {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), FormError> {
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), FormError> {
        self.text(variant.to_owned())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), FormError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), FormError> {
        Err(refused("an enum with data"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<List<'a>, FormError> {
        Ok(List(self))
    }

    fn serialize_tuple(self, _: usize) -> Result<List<'a>, FormError> {
        Ok(List(self))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<List<'a>, FormError> {
        Ok(List(self))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, FormError> {
        Err(refused("an enum with data"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, FormError> {
        Err(refused("a nested map"))
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<File<'a>, FormError> {
        if name != FILE_PART {
            return Err(refused("a nested struct"));
        }
        Ok(File {
            field: self,
            file: Part {
                name: String::new(),
                filename: None,
                content_type: None,
                data: Bytes::new(),
            },
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, FormError> {
        Err(refused("an enum with data"))
    }
}

/// A list: one part per item, each under the field's name.
pub(super) struct List<'a>(Field<'a>);

impl List<'_> {
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), FormError> {
        value.serialize(Field::new(self.0.name, self.0.parts))
    }
}

impl ser::SerializeSeq for List<'_> {
    type Ok = ();
    type Error = FormError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), FormError> {
        self.item(value)
    }
    fn end(self) -> Result<(), FormError> {
        Ok(())
    }
}

impl ser::SerializeTuple for List<'_> {
    type Ok = ();
    type Error = FormError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), FormError> {
        self.item(value)
    }
    fn end(self) -> Result<(), FormError> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for List<'_> {
    type Ok = ();
    type Error = FormError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), FormError> {
        self.item(value)
    }
    fn end(self) -> Result<(), FormError> {
        Ok(())
    }
}

/// A [`FilePart`](crate::upload::FilePart): its name, content type and bytes, gathered into one part.
pub(super) struct File<'a> {
    field: Field<'a>,
    file: Part,
}

impl ser::SerializeStruct for File<'_> {
    type Ok = ();
    type Error = FormError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), FormError> {
        let mut written = Vec::new();
        value.serialize(Field::new(key, &mut written))?;
        let Some(part) = written.pop() else {
            return Ok(());
        };
        match key {
            "filename" => self.file.filename = Some(text(part.data)),
            "content_type" => self.file.content_type = Some(text(part.data)),
            _ => self.file.data = part.data,
        }
        Ok(())
    }

    fn end(self) -> Result<(), FormError> {
        let mut file = self.file;
        file.name = self.field.name.to_owned();
        if file.content_type.is_none() {
            file.content_type = Some("application/octet-stream".to_owned());
        }
        self.field.parts.push(file);
        Ok(())
    }
}

fn text(bytes: Bytes) -> String {
    String::from_utf8_lossy(&bytes).into_owned()
}
