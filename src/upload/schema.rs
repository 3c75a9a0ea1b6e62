//! The JSON schemas of the upload types, for the OpenAPI document: a file is a string of
//! `contentMediaType: application/octet-stream` (OpenAPI 3.1's way to say "a file" in a
//! `multipart/form-data` schema; a 3.0.3 document writes it `format: binary`), a form is its
//! type's schema, a byte stream is such a string too.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use super::{ByteStream, FilePart, Multipart};

impl JsonSchema for FilePart {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("FilePart")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::upload::FilePart")
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "contentMediaType": "application/octet-stream" })
    }
}

impl JsonSchema for ByteStream {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ByteStream")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::upload::ByteStream")
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "contentMediaType": "application/octet-stream" })
    }
}

/// The form's own type: its schema, under the `multipart/form-data` media type.
impl<T: JsonSchema> JsonSchema for Multipart<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}
