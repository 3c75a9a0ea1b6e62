//! The generated document, by topic: the parts of an operation, the schemas of the two
//! directions, and the document served beside the handlers it describes.

mod answers;
mod declared_errors;
#[cfg(feature = "docs-page")]
mod docs_page;
mod openapi3;
mod operations;
mod security;
mod serving;
mod uploads;
mod views;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use super::OpenApi;

fn doc(api: OpenApi) -> Value {
    api.build().as_value().clone()
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct FilePath {
    path: String,
}
