//! pactum's own types: the empty slot markers, and the error body with its details.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::contract::{
    Binary, Download, NoBody, NoContent, NoCookies, NoHeaders, NoParams, NoQuery, Redirect, Text,
    WithHeaders,
};
use crate::error::{Detail, ErrorBody, PathSegment};
use crate::sse::Events;

macro_rules! marker_schema {
    ($($name:ident),*) => {$(
        /// An empty slot: `null` when written, anything (ignored) when read.
        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
            fn schema_id() -> Cow<'static, str> {
                Cow::Borrowed(concat!("pactum::", stringify!($name)))
            }
            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                if generator.contract().is_deserialize() {
                    Schema::from(true)
                } else {
                    json_schema!({ "type": "null" })
                }
            }
        }
    )*};
}

marker_schema!(NoParams, NoQuery, NoBody, NoContent, NoHeaders, NoCookies);

macro_rules! answer_schema {
    ($($name:ident => $schema:tt;)*) => {$(
        /// An answer that is not JSON: the schema of its body (or, for a redirect, of its
        /// `Location`), under the media type the document gives it.
        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
            fn schema_id() -> Cow<'static, str> {
                Cow::Borrowed(concat!("pactum::", stringify!($name)))
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    )*};
}

answer_schema! {
    Text => { "type": "string" };
    Binary => { "type": "string", "contentMediaType": "application/octet-stream" };
    Download => { "type": "string", "contentMediaType": "application/octet-stream" };
    Redirect => { "type": "string", "format": "uri-reference" };
}

/// The key under which a [`WithHeaders`] schema carries its headers' schema, until the
/// operation moves it to the answer's `headers` (`entry.rs`).
pub(crate) const ANSWER_HEADERS_KEY: &str = "x-pactum-answer-headers";

/// A body with typed headers: the body's schema, carrying the headers' (an object schema)
/// under `ANSWER_HEADERS_KEY` for the operation to list.
impl<T: JsonSchema, H: JsonSchema> JsonSchema for WithHeaders<T, H> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("WithHeaders_{}_{}", T::schema_name(), H::schema_name()).into()
    }
    fn schema_id() -> Cow<'static, str> {
        format!(
            "pactum::WithHeaders<{}, {}>",
            T::schema_id(),
            H::schema_id()
        )
        .into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut body = generator.subschema_for::<T>();
        let headers = H::json_schema(generator);
        body.insert(ANSWER_HEADERS_KEY.to_owned(), headers.to_value());
        body
    }
}

/// A stream of events: the schema of each event's data, which the document gives beside
/// `text/event-stream`.
impl<T: JsonSchema> JsonSchema for Events<T> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("Events_{}", T::schema_name()).into()
    }
    fn schema_id() -> Cow<'static, str> {
        format!("pactum::sse::Events<{}>", T::schema_id()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<T>()
    }
}

impl JsonSchema for PathSegment {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("PathSegment")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::error::PathSegment")
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One step of a detail's path: a list index or a field name.",
            "anyOf": [
                { "type": "integer", "minimum": 0 },
                { "type": "string" }
            ]
        })
    }
}

impl JsonSchema for Detail {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Detail")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::error::Detail")
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let segment = generator.subschema_for::<PathSegment>();
        json_schema!({
            "description": "One failing field: where it is and what is wrong with it.",
            "type": "object",
            "properties": {
                "path": {
                    "description": "From the root of the value to the field, e.g. `[\"items\", 1, \"qty\"]`.",
                    "type": "array",
                    "items": segment
                },
                "message": {
                    "description": "A readable message, e.g. `length must be between 1 and 50`.",
                    "type": "string"
                }
            },
            "required": ["path", "message"]
        })
    }
}

impl JsonSchema for ErrorBody {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ErrorBody")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::error::ErrorBody")
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let detail = generator.subschema_for::<Detail>();
        json_schema!({
            "description": "The body of every error answer.",
            "type": "object",
            "properties": {
                "error": { "description": "The readable message.", "type": "string" },
                "details": {
                    "description": "One entry per failing field, where the error has them.",
                    "type": "array",
                    "items": detail
                },
                "code": { "description": "A machine-readable code, where the error carries one.", "type": "string" }
            },
            "required": ["error"]
        })
    }
}
