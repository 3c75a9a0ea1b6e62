//! Request schemas say what serde reads, response schemas what it writes: two views of a type
//! when they differ, never overwriting another schema.

use http::StatusCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use validator::Validate;

use super::doc;
use crate::openapi::OpenApi;
use crate::{route, Endpoint};

/// Read with defaults, written whole: every kind of field whose presence depends on the
/// direction, with rules on both sides.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Account {
    #[validate(length(min = 1, max = 20))]
    name: String,
    /// Optional when read, always written.
    #[serde(default)]
    #[validate(length(max = 3))]
    roles: Vec<String>,
    /// Optional when read, written as `null` when absent.
    #[validate(range(min = 18, max = 150))]
    age: Option<u16>,
    /// Optional both ways.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(max = 200))]
    note: Option<String>,
    /// Written only.
    #[serde(skip_deserializing)]
    created: u64,
}

/// The same both ways: one schema.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Same {
    #[validate(length(min = 1))]
    value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    extra: Option<u8>,
}

/// A type whose name is the one a response view of [`Account`] would take.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct AccountResponse {
    ok: bool,
}

/// Recursive, with a default: the response view refers to itself.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Tree {
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
}

/// Every `$ref` of `doc` points at a component that exists.
fn assert_refs_resolve(doc: &Value) {
    fn walk(value: &Value, doc: &Value, at: &str) {
        match value {
            Value::Object(object) => {
                if let Some(reference) = object.get("$ref") {
                    let pointer = reference
                        .as_str()
                        .and_then(|r| r.strip_prefix('#'))
                        .unwrap_or_else(|| panic!("{at}: $ref {reference} is not local"));
                    assert!(
                        pointer.starts_with("/components/schemas/")
                            || pointer.starts_with("/components/responses/"),
                        "{at}: $ref {reference}"
                    );
                    assert!(
                        doc.pointer(pointer).is_some(),
                        "{at}: $ref {reference} points at nothing"
                    );
                }
                for (key, v) in object {
                    walk(v, doc, &format!("{at}/{key}"));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, doc, &format!("{at}/{i}"));
                }
            }
            _ => {}
        }
    }
    walk(doc, doc, "");
}

fn body_ref(op: &Value) -> &Value {
    &op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
}

fn answer_ref<'a>(op: &'a Value, status: &str) -> &'a Value {
    &op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
}

#[test]
fn request_schemas_are_what_serde_reads_and_response_schemas_what_it_writes() {
    let create = Endpoint::post(route::static_path("/accounts"))
        .body::<Account>()
        .response::<Account>()
        .http_error(StatusCode::CONFLICT, "Taken")
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint_with(&create, |op| {
        op.response_json::<Account>(StatusCode::OK, "Already there")
    }));
    assert_refs_resolve(&doc);
    let op = &doc["paths"]["/accounts"]["post"];
    assert_eq!(body_ref(op), "#/components/schemas/Account");
    assert_eq!(
        answer_ref(op, "201"),
        "#/components/schemas/AccountResponse"
    );
    assert_eq!(
        answer_ref(op, "200"),
        "#/components/schemas/AccountResponse"
    );

    let schemas = &doc["components"]["schemas"];
    let read = &schemas["Account"];
    let written = &schemas["AccountResponse"];
    // A caller may leave out what has a default or is an `Option`; a written-only field is
    // not part of a request.
    assert_eq!(read["required"], json!(["name"]));
    assert!(read["properties"].get("created").is_none());
    // Its default is documented, not declared: generators read `default` as "always present".
    assert!(read["properties"]["roles"].get("default").is_none());
    assert!(read["properties"]["roles"]["description"]
        .as_str()
        .unwrap()
        .ends_with("Default: `[]`."));
    // A response always has what serde always writes, `null` included.
    assert_eq!(
        written["required"],
        json!(["name", "roles", "age", "created"])
    );
    assert_eq!(
        written["properties"]["age"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(written["properties"]["created"]["maximum"], json!(u64::MAX));
    // The rules are in both views.
    for view in [read, written] {
        let properties = &view["properties"];
        assert_eq!(properties["name"]["minLength"], 1);
        assert_eq!(properties["name"]["maxLength"], 20);
        assert_eq!(properties["roles"]["maxItems"], 3);
        assert_eq!(properties["age"]["minimum"], 18);
        assert_eq!(properties["age"]["maximum"], 150);
        assert_eq!(properties["note"]["maxLength"], 200);
    }
    // The error body is what the pipeline writes: `details` and `code` only when set.
    assert_eq!(schemas["ErrorBody"]["required"], json!(["error"]));
    assert_eq!(answer_ref(op, "409"), "#/components/schemas/ErrorBody");
}

#[test]
fn a_type_read_and_written_alike_is_one_schema() {
    let echo = Endpoint::post(route::static_path("/same"))
        .body::<Same>()
        .response::<Same>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&echo));
    assert_refs_resolve(&doc);
    let op = &doc["paths"]["/same"]["post"];
    assert_eq!(body_ref(op), "#/components/schemas/Same");
    assert_eq!(answer_ref(op, "201"), "#/components/schemas/Same");
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    assert!(!schemas.contains_key("SameResponse"));
    assert_eq!(schemas["Same"]["required"], json!(["value"]));
}

#[test]
fn two_views_never_overwrite_another_schema() {
    // `AccountResponse` is a type of its own, read here: the response view of `Account`
    // takes the next free name.
    let create = Endpoint::post(route::static_path("/accounts"))
        .body::<Account>()
        .response::<Account>()
        .build()
        .unwrap();
    let check = Endpoint::post(route::static_path("/checks"))
        .body::<AccountResponse>()
        .response::<AccountResponse>()
        .build()
        .unwrap();
    let trees = Endpoint::put(route::static_path("/tree"))
        .body::<Tree>()
        .response::<Tree>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint(&check)
        .endpoint(&create)
        .endpoint(&trees));
    assert_refs_resolve(&doc);
    let paths = &doc["paths"];
    let schemas = &doc["components"]["schemas"];

    let check = &paths["/checks"]["post"];
    assert_eq!(body_ref(check), "#/components/schemas/AccountResponse");
    assert_eq!(
        answer_ref(check, "201"),
        "#/components/schemas/AccountResponse"
    );
    assert_eq!(schemas["AccountResponse"]["required"], json!(["ok"]));
    let create = &paths["/accounts"]["post"];
    assert_eq!(body_ref(create), "#/components/schemas/Account");
    assert_eq!(
        answer_ref(create, "201"),
        "#/components/schemas/AccountResponse2"
    );
    assert_eq!(
        schemas["AccountResponse2"]["required"],
        json!(["name", "roles", "age", "created"])
    );

    // A recursive type: each view refers to itself.
    let tree = &paths["/tree"]["put"];
    assert_eq!(body_ref(tree), "#/components/schemas/Tree");
    assert_eq!(answer_ref(tree, "200"), "#/components/schemas/TreeResponse");
    assert_eq!(schemas["Tree"]["required"], json!(["name"]));
    assert_eq!(
        schemas["Tree"]["properties"]["children"]["items"]["$ref"],
        "#/components/schemas/Tree"
    );
    assert_eq!(
        schemas["TreeResponse"]["required"],
        json!(["name", "children"])
    );
    assert_eq!(
        schemas["TreeResponse"]["properties"]["children"]["items"]["$ref"],
        "#/components/schemas/TreeResponse"
    );
    assert_eq!(schemas.as_object().unwrap().len(), 8, "{schemas:#}");
}

#[test]
fn params_and_query_are_read_views() {
    #[derive(Serialize, Deserialize, Validate, JsonSchema)]
    struct Filter {
        #[serde(default = "twenty")]
        #[validate(range(min = 1, max = 100))]
        limit: u32,
        since: Option<u64>,
        #[serde(skip_deserializing)]
        ignored: bool,
        q: String,
    }
    fn twenty() -> u32 {
        20
    }
    #[derive(Serialize, Deserialize, Validate, JsonSchema)]
    struct Ids {
        id: u64,
        #[serde(default)]
        rest: String,
    }
    let list = Endpoint::get(route::dynamic("/things/:id/*rest"))
        .params::<Ids>()
        .query::<Filter>()
        .response::<Filter>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&list));
    assert_refs_resolve(&doc);
    let op = &doc["paths"]["/things/{id}/{rest}"]["get"];
    let params = op["parameters"].as_array().unwrap();
    let find = |name: &str| params.iter().find(|p| p["name"] == name).cloned();
    // Path params are always required, whatever their field says.
    assert_eq!(find("rest").unwrap()["required"], true);
    assert_eq!(find("limit").unwrap()["required"], false);
    assert_eq!(find("limit").unwrap()["schema"]["maximum"], 100);
    assert_eq!(find("since").unwrap()["required"], false);
    assert_eq!(find("q").unwrap()["required"], true);
    assert!(find("ignored").is_none(), "not read: not a parameter");
    // The same type as a response: every field written.
    assert_eq!(answer_ref(op, "200"), "#/components/schemas/Filter");
    assert_eq!(
        doc["components"]["schemas"]["Filter"]["required"],
        json!(["limit", "since", "ignored", "q"])
    );
}
