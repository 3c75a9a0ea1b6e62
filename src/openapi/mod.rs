#![doc = include_str!("../docs/openapi.md")]

mod collector;
mod declared_errors;
mod document;
mod entry;
mod operation;
mod paths;
mod pipeline_errors;
mod schema;

use schemars::{JsonSchema, Schema, SchemaGenerator};

pub use collector::OpenApi;
pub use document::Document;
pub use operation::Operation;

/// Makes a schema with a generator: `subschema_for::<T>` or `T::json_schema`, kept as a plain
/// function so that [`OpenApi`] holds no generics.
type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

fn reference<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

fn inline<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    T::json_schema(generator)
}

#[cfg(test)]
mod tests;
