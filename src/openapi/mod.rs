#![doc = include_str!("../docs/openapi.md")]

mod collector;
pub mod compat;
mod declared_errors;
#[cfg(feature = "docs-page")]
mod docs_page;
mod document;
mod entry;
mod operation;
mod paths;
mod pipeline_errors;
mod refs;
mod schema;
mod served;
mod version;

use schemars::{JsonSchema, Schema, SchemaGenerator};

pub use collector::OpenApi;
#[cfg(feature = "docs-page")]
#[cfg_attr(docsrs, doc(cfg(feature = "docs-page")))]
pub use docs_page::DocsPage;
pub use document::Document;
pub use operation::Operation;
pub use version::OpenApiVersion;

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
