//! A struct written as a `multipart/form-data` body, for the typed client: scalar fields as
//! text parts, lists as one part per item, `None` left out, [`FilePart`]s as file parts.
//!
//! [`FilePart`]: crate::upload::FilePart

use std::hash::{BuildHasher, Hasher};

use bytes::{BufMut, BytesMut};
use http::HeaderValue;
use serde::ser::{self, Impossible, Serialize};

use super::Part;
use crate::contract::EncodedBody;

/// Why a value cannot be written as a form.
#[derive(Debug)]
struct FormError(String);

impl std::fmt::Display for FormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormError {}

impl ser::Error for FormError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

fn refused(what: &str) -> FormError {
    FormError(format!(
        "a multipart form holds text, lists of text and files, not {what}"
    ))
}

/// `value` as a `multipart/form-data` body with a boundary found in none of its parts.
///
/// # Errors
///
/// When `value` is not a struct (or map) of text, lists of text and files.
pub(crate) fn encode<T: Serialize>(value: &T) -> Result<EncodedBody, String> {
    let mut parts = Vec::new();
    value
        .serialize(Top(&mut parts))
        .map_err(|e| e.to_string())?;
    let boundary = boundary(&parts);
    let mut out = BytesMut::new();
    for part in &parts {
        out.put_slice(b"--");
        out.put_slice(boundary.as_bytes());
        out.put_slice(b"\r\nContent-Disposition: form-data; name=\"");
        out.put_slice(quoted(&part.name).as_bytes());
        out.put_slice(b"\"");
        if let Some(filename) = &part.filename {
            out.put_slice(b"; filename=\"");
            out.put_slice(quoted(filename).as_bytes());
            out.put_slice(b"\"");
        }
        out.put_slice(b"\r\n");
        if let Some(content_type) = &part.content_type {
            out.put_slice(b"Content-Type: ");
            out.put_slice(content_type.replace(['\r', '\n'], " ").as_bytes());
            out.put_slice(b"\r\n");
        }
        out.put_slice(b"\r\n");
        out.put_slice(&part.data);
        out.put_slice(b"\r\n");
    }
    out.put_slice(b"--");
    out.put_slice(boundary.as_bytes());
    out.put_slice(b"--\r\n");
    let content_type = HeaderValue::from_str(&format!("multipart/form-data; boundary={boundary}"))
        .map_err(|e| e.to_string())?;
    Ok(EncodedBody {
        content_type,
        bytes: out.freeze(),
    })
}

/// A name or file name in a quoted `Content-Disposition` parameter, as browsers write it
/// (the HTML standard): `"`, CR and LF percent-encoded.
fn quoted(text: &str) -> String {
    text.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A random boundary that occurs in no part.
fn boundary(parts: &[Part]) -> String {
    loop {
        let state = std::collections::hash_map::RandomState::new();
        let (a, b) = (state.build_hasher().finish(), state.hash_one(parts.len()));
        let boundary = format!("pactum-{a:016x}{b:016x}");
        let found = parts.iter().any(|part| {
            part.data
                .windows(boundary.len())
                .any(|w| w == boundary.as_bytes())
        });
        if !found {
            return boundary;
        }
    }
}

/// The form: a struct or a map of fields.
struct Top<'a>(&'a mut Vec<Part>);

macro_rules! refuse {
    ($what:literal: $($method:ident($($arg:ty),*);)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<Self::Ok, FormError> {
            Err(refused($what))
        }
    )*};
}

impl<'a> ser::Serializer for Top<'a> {
    type Ok = ();
    type Error = FormError;
    type SerializeSeq = Impossible<(), FormError>;
    type SerializeTuple = Impossible<(), FormError>;
    type SerializeTupleStruct = Impossible<(), FormError>;
    type SerializeTupleVariant = Impossible<(), FormError>;
    type SerializeMap = Fields<'a>;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Impossible<(), FormError>;

    refuse! { "a value that is not a struct":
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), FormError> {
        value.serialize(self)
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
        Err(refused("an enum"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, FormError> {
        Err(refused("a list at the top"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, FormError> {
        Err(refused("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, FormError> {
        Err(refused("a tuple"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, FormError> {
        Err(refused("an enum"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, FormError> {
        Ok(Fields {
            parts: self.0,
            key: None,
        })
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, FormError> {
        Ok(Fields {
            parts: self.0,
            key: None,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, FormError> {
        Err(refused("an enum"))
    }
}

/// The form's fields, each written by [`Field`].
struct Fields<'a> {
    parts: &'a mut Vec<Part>,
    key: Option<String>,
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = ();
    type Error = FormError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), FormError> {
        value.serialize(Field::new(key, self.parts))
    }

    fn end(self) -> Result<(), FormError> {
        Ok(())
    }
}

impl ser::SerializeMap for Fields<'_> {
    type Ok = ();
    type Error = FormError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), FormError> {
        let mut name = Vec::new();
        key.serialize(Field::new("", &mut name))?;
        match name.pop() {
            Some(part) if part.filename.is_none() => {
                self.key = Some(String::from_utf8_lossy(&part.data).into_owned());
                Ok(())
            }
            _ => Err(refused("a key that is not text")),
        }
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), FormError> {
        let key = self.key.take().unwrap_or_default();
        value.serialize(Field::new(&key, self.parts))
    }

    fn end(self) -> Result<(), FormError> {
        Ok(())
    }
}

mod field;
use field::Field;
