//! A contract's declared errors: each status with the declared type's schema; where the
//! pipeline answers that status too, either body.

use std::fmt;

use http::StatusCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use super::doc;
use crate::openapi::OpenApi;
use crate::{error::ErrorAnswer, route, Endpoint};

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct ItemPath {
    id: u64,
}

/// The errors of an item.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "code", rename_all = "snake_case")]
enum ItemError {
    /// No item has this id.
    NotFound { id: u64 },
    /// The store failed.
    Unavailable,
}

impl ErrorAnswer for ItemError {
    const STATUSES: &'static [StatusCode] = &[StatusCode::GONE, StatusCode::INTERNAL_SERVER_ERROR];

    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound { .. } => StatusCode::GONE,
            Self::Unavailable => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl fmt::Display for ItemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ItemError {}

#[test]
fn each_declared_status_has_the_declared_schema() {
    let item = Endpoint::get(route::pattern("/items/:id"))
        .params::<ItemPath>()
        .errors::<ItemError>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&item));
    let answers = &doc["paths"]["/items/{id}"]["get"]["responses"];

    let gone = &answers["410"];
    assert_eq!(gone["description"], "Gone: an error the contract declares.");
    assert_eq!(
        gone["content"]["application/json"]["schema"],
        json!({ "$ref": "#/components/schemas/ItemError" })
    );
    // The pipeline answers 500 by itself too: either body, both causes.
    let internal = &answers["500"];
    assert_eq!(
        internal["content"]["application/json"]["schema"]["anyOf"],
        json!([
            { "$ref": "#/components/schemas/ItemError" },
            { "$ref": "#/components/schemas/ErrorBody" },
        ])
    );
    let description = internal["description"].as_str().unwrap();
    assert!(description
        .starts_with("Internal Server Error: an error the contract declares.\n\nFrom pactum: "));
    // The other statuses are the pipeline's, as before.
    assert_eq!(
        answers["400"]["$ref"],
        "#/components/responses/ValidationFailed"
    );
    assert_eq!(answers["404"]["$ref"], "#/components/responses/NotFound");

    let schema = &doc["components"]["schemas"]["ItemError"];
    assert_eq!(schema["description"], "The errors of an item.");
    let variants = schema["oneOf"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[0]["properties"]["code"]["const"], "not_found");
    assert_eq!(variants[0]["required"], json!(["code", "id"]));
}

#[test]
fn no_declared_errors_no_change() {
    let plain = Endpoint::get(route::pattern("/items/:id"))
        .params::<ItemPath>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&plain));
    let answers = doc["paths"]["/items/{id}"]["get"]["responses"]
        .as_object()
        .unwrap();
    let statuses: Vec<&str> = answers.keys().map(String::as_str).collect();
    assert_eq!(statuses, ["204", "400", "404", "405", "500"]);
    assert!(doc["components"]["schemas"].get("NoErrors").is_none());
}

#[test]
fn an_http_error_overrides_a_declared_status() {
    let item = Endpoint::get(route::pattern("/items/:id"))
        .params::<ItemPath>()
        .errors::<ItemError>()
        .http_error(StatusCode::GONE, "Described by hand")
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&item));
    let gone = &doc["paths"]["/items/{id}"]["get"]["responses"]["410"];
    assert_eq!(gone["description"], "Described by hand");
    assert_eq!(
        gone["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ErrorBody"
    );
}

/// Two variants with the same status: listed twice, documented once (still `anyOf` where the
/// pipeline answers that status too).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
enum Twice {
    Missing,
    Deleted,
}

crate::error::error_answer!(Twice {
    Self::Missing => NOT_FOUND,
    Self::Deleted => NOT_FOUND,
});

impl fmt::Display for Twice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Twice {}

#[test]
fn a_status_listed_twice_is_documented_once() {
    assert_eq!(Twice::STATUSES.len(), 2);
    let item = Endpoint::get(route::pattern("/items/:id"))
        .params::<ItemPath>()
        .errors::<Twice>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&item));
    let not_found = &doc["paths"]["/items/{id}"]["get"]["responses"]["404"];
    assert_eq!(
        not_found["content"]["application/json"]["schema"]["anyOf"][0]["$ref"],
        "#/components/schemas/Twice"
    );
}

/// When to try again.
#[derive(Debug, Serialize, Deserialize, Validate, JsonSchema)]
#[serde(rename_all = "kebab-case")]
struct Later {
    /// Seconds to wait.
    #[validate(range(max = 3600))]
    retry_after: u32,
    /// Where the item went, when it moved.
    location: Option<String>,
}

/// A declared error with typed headers lists them under each of its statuses, required as
/// declared; where the pipeline answers the status by itself too, none is required.
#[test]
fn the_headers_of_a_declared_error_are_listed_per_status() {
    let item = Endpoint::get(route::pattern("/items/:id"))
        .params::<ItemPath>()
        .errors::<crate::contract::WithHeaders<ItemError, Later>>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&item));
    let answers = &doc["paths"]["/items/{id}"]["get"]["responses"];
    let gone = &answers["410"];
    assert_eq!(
        gone["content"]["application/json"]["schema"],
        json!({ "$ref": "#/components/schemas/ItemError" }),
        "the body keeps its own schema"
    );
    assert_eq!(
        gone["headers"]["retry-after"],
        json!({
            "required": true,
            "description": "Seconds to wait.",
            "schema": {
                "description": "Seconds to wait.",
                "type": "integer",
                "format": "uint32",
                "minimum": 0,
                "maximum": 3600,
            },
        })
    );
    assert_eq!(gone["headers"]["location"]["required"], false);
    let internal = &answers["500"]["headers"];
    assert_eq!(internal["retry-after"]["required"], false, "{internal}");
    assert_eq!(internal["location"]["required"], false);
    assert!(answers["404"].get("headers").is_none());
    assert!(!doc.to_string().contains("x-pactum-answer-headers"));
}
