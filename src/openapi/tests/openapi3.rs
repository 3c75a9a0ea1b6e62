//! OpenAPI 3.0.3 documents: each rewrite of a 3.1 schema, and a whole document.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use validator::Validate;

use super::doc;
use crate::openapi::schema::to_openapi3;
use crate::openapi::{OpenApi, OpenApiVersion};
use crate::{route, sse::Events, Endpoint};

fn converted(mut schema: Value) -> Value {
    to_openapi3(&mut schema);
    schema
}

#[test]
fn null_types_and_variants_become_nullable() {
    assert_eq!(
        converted(json!({ "type": ["string", "null"], "maxLength": 3 })),
        json!({ "type": "string", "nullable": true, "maxLength": 3 })
    );
    // A `$ref` cannot carry `nullable` in 3.0: it goes in an `allOf`.
    assert_eq!(
        converted(json!({
            "description": "x",
            "anyOf": [{ "$ref": "#/components/schemas/A" }, { "type": "null" }]
        })),
        json!({
            "description": "x",
            "allOf": [{ "$ref": "#/components/schemas/A" }],
            "nullable": true
        })
    );
    assert_eq!(
        converted(
            json!({ "oneOf": [{ "type": "integer" }, { "type": "string" }, { "type": "null" }] })
        ),
        json!({ "oneOf": [{ "type": "integer" }, { "type": "string" }], "nullable": true })
    );
}

#[test]
fn two_types_become_an_any_of() {
    assert_eq!(
        converted(json!({ "type": ["integer", "string"] })),
        json!({ "anyOf": [{ "type": "integer" }, { "type": "string" }] })
    );
}

#[test]
fn const_examples_and_ref_siblings_as_30_writes_them() {
    assert_eq!(
        converted(json!({ "const": "user_not_found", "type": "string" })),
        json!({ "enum": ["user_not_found"], "type": "string" })
    );
    assert_eq!(
        converted(json!({ "type": "integer", "examples": [7, 8] })),
        json!({ "type": "integer", "example": 7 })
    );
    assert_eq!(
        converted(json!({ "$ref": "#/components/schemas/A", "description": "d" })),
        json!({ "description": "d", "allOf": [{ "$ref": "#/components/schemas/A" }] })
    );
    // A boolean schema is an object schema in 3.0; `additionalProperties: false` stays.
    assert_eq!(
        converted(
            json!({ "type": "object", "properties": { "any": true }, "additionalProperties": false })
        ),
        json!({ "type": "object", "properties": { "any": {} }, "additionalProperties": false })
    );
}

#[test]
fn exclusive_bounds_become_booleans() {
    assert_eq!(
        converted(json!({ "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5 })),
        json!({
            "type": "number",
            "minimum": 0, "exclusiveMinimum": true,
            "maximum": 1.5, "exclusiveMaximum": true
        })
    );
}

#[test]
fn content_keywords_become_extensions_and_unknown_ones_go() {
    assert_eq!(
        converted(json!({
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": { "type": ["integer", "null"] },
            "$comment": "dropped",
            "x-kept": 1
        })),
        json!({
            "type": "string",
            "x-contentMediaType": "application/json",
            "x-contentSchema": { "type": "integer", "nullable": true },
            "x-kept": 1
        })
    );
    // A tuple: `items` is one schema in 3.0.
    assert_eq!(
        converted(
            json!({ "type": "array", "prefixItems": [{ "type": "integer" }, { "type": "string" }], "minItems": 2, "maxItems": 2 })
        ),
        json!({
            "type": "array",
            "items": { "anyOf": [{ "type": "integer" }, { "type": "string" }] },
            "minItems": 2, "maxItems": 2
        })
    );
    // Property names are not keywords.
    assert_eq!(
        converted(json!({ "properties": { "const": { "type": "string" } } })),
        json!({ "properties": { "const": { "type": "string" } } })
    );
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Profile {
    nickname: Option<String>,
    #[validate(length(min = 1))]
    friends: Vec<Friend>,
    best: Option<Friend>,
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Friend {
    id: u32,
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Search {
    q: Option<String>,
}

#[test]
fn a_whole_document_in_30() {
    let put = Endpoint::put(route::static_path("/profile"))
        .query::<Search>()
        .body::<Profile>()
        .response::<Profile>()
        .build()
        .unwrap();
    let stream = Endpoint::get(route::static_path("/events"))
        .response::<Events<Friend>>()
        .build()
        .unwrap();
    let api = || OpenApi::new("t", "1").endpoint(&put).endpoint(&stream);
    let v31 = doc(api());
    let v30 = doc(api().openapi_version(OpenApiVersion::V3_0_3));
    assert_eq!(v31["openapi"], "3.1.0");
    assert_eq!(v30["openapi"], "3.0.3");
    assert_eq!(v30["paths"].as_object().unwrap().len(), 2);

    let profile = &v30["components"]["schemas"]["Profile"]["properties"];
    assert_eq!(
        profile["nickname"],
        json!({ "type": "string", "nullable": true })
    );
    assert_eq!(
        profile["best"],
        json!({ "allOf": [{ "$ref": "#/components/schemas/Friend" }], "nullable": true })
    );
    assert_eq!(
        profile["friends"]["items"]["$ref"],
        "#/components/schemas/Friend"
    );
    let op = &v30["paths"]["/profile"]["put"];
    assert_eq!(op["parameters"][0]["schema"], json!({ "type": "string" }));
    let events =
        &v30["paths"]["/events"]["get"]["responses"]["200"]["content"]["text/event-stream"];
    assert_eq!(events["schema"]["type"], "string");
    let event = &events["x-itemSchema"]["properties"]["data"];
    // Inlined: 3.0 allows no `$ref` in an extension. `Friend` stays: `Profile` uses it.
    assert_eq!(event["x-contentSchema"]["type"], "object");
    assert!(!events.to_string().contains("$ref"), "{events}");
    assert!(v30["components"]["schemas"]["Friend"].is_object());
    assert!(event.get("contentSchema").is_none());
    assert_eq!(
        v30["components"]["responses"],
        v31["components"]["responses"]
    );
    // Nothing 3.1-only is left anywhere.
    let text = v30.to_string();
    for word in [
        "\"const\"",
        "\"examples\"",
        "\"contentSchema\"",
        "\"null\"",
        "\"$defs\"",
    ] {
        assert!(!text.contains(word), "{word} in {text}");
    }
}
