//! JSON Schemas: the generators, the schemas of pactum's own types, and the clean-ups that make
//! schemars' output describe exactly what the pipeline accepts.
//!
//! Here the generators; in the modules below, the schemas of pactum's own types
//! (`own_types`), reading schemas (`read`), the clean-ups (`transform`), the merging of the
//! two generators' definitions into one set (`definitions`), and the rewrite of a schema in
//! OpenAPI 3.0's dialect (`openapi3`).

mod definitions;
mod openapi3;
mod own_types;
mod read;
mod transform;

use schemars::generate::SchemaSettings;
use schemars::SchemaGenerator;

pub(crate) use definitions::{merge_definitions, rewrite_refs};
pub(crate) use openapi3::to_openapi3;
pub(crate) use own_types::ANSWER_HEADERS_KEY;
pub(crate) use read::{allows_null, object_parts, type_of};
pub(crate) use transform::{describe_optional_defaults, strip_null, tighten};

/// Where the request (deserialize) schemas live: the document's shared schemas.
pub(crate) const SCHEMAS: &str = "#/components/schemas/";
/// Where the response (serialize) generator puts its references while the document is built;
/// rewritten to [`SCHEMAS`] by [`merge_definitions`].
const RESPONSE_SCHEMAS: &str = "#/components/x-pactum-response-schemas/";

/// A generator for what the server reads (params, query, body): serde's deserialize view
/// (`#[serde(default)]` fields are optional).
pub(crate) fn request_generator() -> SchemaGenerator {
    settings("/components/schemas")
        .for_deserialize()
        .into_generator()
}

/// A generator for what the server writes (responses): serde's serialize view
/// (`skip_serializing_if` fields are optional, defaulted ones are always there).
pub(crate) fn response_generator() -> SchemaGenerator {
    settings("/components/x-pactum-response-schemas")
        .for_serialize()
        .into_generator()
}

fn settings(definitions_path: &'static str) -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| {
        s.definitions_path = definitions_path.into();
        s.meta_schema = None;
    })
}
