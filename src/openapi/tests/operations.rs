//! One operation: rules in the schemas, parameters, request body, answers, metadata and ids.

use std::sync::LazyLock;

use http::StatusCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use super::{doc, FilePath};
use crate::openapi::OpenApi;
use crate::{route, Endpoint};

static SKU: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new("^[A-Z]{3}-[0-9]+$").unwrap());

/// Every `validator` rule schemars reads.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Rules {
    #[validate(length(min = 1, max = 50))]
    name: String,
    #[validate(email)]
    email: String,
    #[validate(url)]
    site: String,
    #[validate(range(min = 1, max = 99))]
    qty: u32,
    #[validate(regex(path = *SKU))]
    sku: String,
    #[validate(length(max = 5))]
    #[schemars(inner(length(min = 1, max = 20)))]
    tags: Vec<String>,
    #[validate(contains(pattern = "x"))]
    code: String,
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Path {
    /// The user's id.
    id: u64,
    slug: String,
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Query {
    #[serde(default)]
    limit: u32,
    active: Option<bool>,
    #[serde(default)]
    tag: Vec<String>,
    required: String,
}

/// Read with a default, written always: two views.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Item {
    #[serde(default)]
    qty: u32,
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Basket {
    items: Vec<Item>,
}

#[test]
fn validation_rules_appear_in_the_schemas() {
    let create = Endpoint::post(route::static_path("/rules"))
        .body::<Rules>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&create));
    let rules = &doc["components"]["schemas"]["Rules"]["properties"];
    assert_eq!(rules["name"]["minLength"], 1);
    assert_eq!(rules["name"]["maxLength"], 50);
    // `validator`'s email rule is no regular expression: `format: email`, no copied pattern.
    assert_eq!(
        rules["email"],
        json!({ "type": "string", "format": "email" })
    );
    assert_eq!(rules["site"]["format"], "uri");
    assert_eq!(rules["qty"]["minimum"], 1);
    assert_eq!(rules["qty"]["maximum"], 99);
    assert_eq!(rules["sku"]["pattern"], "^[A-Z]{3}-[0-9]+$");
    assert_eq!(rules["tags"]["maxItems"], 5);
    assert_eq!(rules["tags"]["items"]["minLength"], 1);
    assert_eq!(rules["tags"]["items"]["maxLength"], 20);
    assert_eq!(rules["code"]["pattern"], "x");
}

#[test]
fn params_query_body_and_response() {
    let update = Endpoint::put(route::pattern("/users/:id/:slug"))
        .params::<Path>()
        .query::<Query>()
        .body::<Basket>()
        .response::<Basket>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&update));
    let op = &doc["paths"]["/users/{id}/{slug}"]["put"];
    let params = op["parameters"].as_array().unwrap();
    let find = |name: &str| params.iter().find(|p| p["name"] == name).unwrap().clone();

    let id = find("id");
    assert_eq!(id["in"], "path");
    assert_eq!(id["required"], true);
    assert_eq!(id["description"], "The user's id.");
    assert_eq!(id["schema"]["maximum"], json!(u64::MAX));
    assert_eq!(find("slug")["schema"]["minLength"], 1);

    let limit = find("limit");
    assert_eq!(limit["in"], "query");
    assert_eq!(limit["required"], false);
    assert_eq!(limit["schema"]["maximum"], json!(u32::MAX));
    assert_eq!(find("active")["schema"], json!({ "type": "boolean" }));
    let tag = find("tag");
    assert_eq!(
        (tag["style"].clone(), tag["explode"].clone()),
        (json!("form"), json!(true))
    );
    assert_eq!(find("required")["required"], true);

    assert_eq!(op["requestBody"]["required"], true);
    assert_eq!(
        op["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Basket"
    );
    assert_eq!(
        op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/BasketResponse"
    );
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Item"].get("required"), None);
    assert_eq!(schemas["ItemResponse"]["required"], json!(["qty"]));
    assert_eq!(
        schemas["BasketResponse"]["properties"]["items"]["items"]["$ref"],
        "#/components/schemas/ItemResponse"
    );
    let statuses: Vec<&String> = op["responses"].as_object().unwrap().keys().collect();
    assert_eq!(statuses, ["200", "400", "404", "405", "413", "415", "500"]);
    // With a JSON body, the 400 names the body's errors too.
    assert_eq!(
        op["responses"]["400"]["$ref"],
        "#/components/responses/InvalidJsonBody"
    );
}

#[test]
fn success_statuses_and_library_errors() {
    let create = Endpoint::post(route::static_path("/items"))
        .body::<Item>()
        .response::<Item>()
        .build()
        .unwrap();
    let ping = Endpoint::get(route::static_path("/ping")).build().unwrap();
    let accept = Endpoint::post(route::static_path("/jobs"))
        .status(StatusCode::ACCEPTED)
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint(&create)
        .endpoint(&ping)
        .endpoint(&accept));
    let keys = |path: &str, method: &str| -> Vec<String> {
        doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(
        keys("/items", "post"),
        ["201", "400", "405", "413", "415", "500"]
    );
    assert_eq!(keys("/ping", "get"), ["204", "405", "500"]);
    assert_eq!(keys("/jobs", "post"), ["202", "405", "500"]);
    assert!(doc["paths"]["/ping"]["get"]["responses"]["204"]
        .get("content")
        .is_none());
    let responses = &doc["components"]["responses"];
    assert_eq!(
        responses["MethodNotAllowed"]["headers"]["Allow"]["schema"]["type"],
        "string"
    );
    // The other methods of a path are answered 405 with `Allow`: every operation says so, so
    // the component is used.
    for (path, method) in [("/items", "post"), ("/ping", "get"), ("/jobs", "post")] {
        assert_eq!(
            doc["paths"][path][method]["responses"]["405"]["$ref"],
            "#/components/responses/MethodNotAllowed"
        );
    }
    let error = &doc["components"]["schemas"]["ErrorBody"];
    assert_eq!(error["required"], json!(["error"]));
    assert_eq!(
        error["properties"]["details"]["items"]["$ref"],
        "#/components/schemas/Detail"
    );
}

#[test]
fn metadata_and_declared_answers() {
    let get = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .name("getFile")
        .summary("One file")
        .description("Reads a file.")
        .tag("files")
        .http_error(StatusCode::NOT_FOUND, "File not found")
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .bearer_auth("bearer")
        .tag("files", "Stored files")
        .endpoint_with(&get, |op| {
            op.tag("extra")
                .response_json::<Item>(StatusCode::PARTIAL_CONTENT, "A part")
                .security("bearer")
        }));
    let op = &doc["paths"]["/files/{path}"]["get"];
    assert_eq!(op["operationId"], "getFile");
    assert_eq!(op["summary"], "One file");
    assert_eq!(op["description"], "Reads a file.");
    assert_eq!(op["tags"], json!(["files", "extra"]));
    assert_eq!(op["security"], json!([{ "bearer": [] }]));
    assert!(op["parameters"][0]["description"]
        .as_str()
        .unwrap()
        .contains("may hold `/`"));
    let not_found = op["responses"]["404"]["description"].as_str().unwrap();
    assert!(not_found.starts_with("File not found\n\nFrom pactum: `Not found`"));
    assert_eq!(
        op["responses"]["206"]["content"]["application/json"]["schema"]["$ref"],
        // Only written here: one view, no suffix.
        "#/components/schemas/Item"
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    assert_eq!(doc["tags"][0]["name"], "files");
}

#[test]
fn operation_ids_are_made_and_unique() {
    let a = Endpoint::get(route::pattern("/users/:id"))
        .params::<FilePathId>()
        .build()
        .unwrap();
    let root = Endpoint::get(route::static_path("/")).build().unwrap();
    let named = Endpoint::delete(route::static_path("/x"))
        .name("get_users_id")
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint(&a)
        .endpoint(&root)
        .endpoint(&named));
    assert_eq!(
        doc["paths"]["/users/{id}"]["get"]["operationId"],
        "get_users_id"
    );
    assert_eq!(doc["paths"]["/"]["get"]["operationId"], "get_root");
    assert_eq!(
        doc["paths"]["/x"]["delete"]["operationId"],
        "get_users_id_2"
    );
}

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct FilePathId {
    id: String,
}
