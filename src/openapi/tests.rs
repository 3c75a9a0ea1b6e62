use std::sync::LazyLock;

use http::StatusCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use validator::Validate;

use super::{Document, OpenApi};
use crate::{handler, route, Ctx, Endpoint, NoBody, NoContent, NoParams, NoQuery, Pipeline};

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

fn doc(api: OpenApi) -> Value {
    api.build().as_value().clone()
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
    let email = rules["email"]["pattern"].as_str().unwrap();
    assert!(email.contains('@') && rules["email"].get("format").is_none());
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
    assert_eq!(statuses, ["200", "400", "404", "413", "415", "500"]);
    assert_eq!(
        op["responses"]["400"]["$ref"],
        "#/components/responses/ValidationFailed"
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
    assert_eq!(keys("/items", "post"), ["201", "400", "413", "415", "500"]);
    assert_eq!(keys("/ping", "get"), ["204", "500"]);
    assert_eq!(keys("/jobs", "post"), ["202", "500"]);
    assert!(doc["paths"]["/ping"]["get"]["responses"]["204"]
        .get("content")
        .is_none());
    let responses = &doc["components"]["responses"];
    assert_eq!(
        responses["MethodNotAllowed"]["headers"]["Allow"]["schema"]["type"],
        "string"
    );
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
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .bearer_auth("bearer")
        .tag("files", "Stored files")
        .endpoint_with(&get, |op| {
            op.tag("extra")
                .error(StatusCode::NOT_FOUND, "File not found")
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

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct FilePath {
    path: String,
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

#[test]
fn markers_have_schemas() {
    fn name<T: JsonSchema>() -> String {
        T::schema_name().into_owned()
    }
    assert_eq!(
        [
            name::<NoParams>(),
            name::<NoQuery>(),
            name::<NoBody>(),
            name::<NoContent>()
        ],
        ["NoParams", "NoQuery", "NoBody", "NoContent"]
    );
}

#[tokio::test]
async fn registered_handlers_are_documented_and_the_document_is_served() {
    let get = Endpoint::get(route::pattern("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build();
    // A dynamic route needs `route::dynamic`: the pattern above is refused.
    assert!(get.is_err());
    let get = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build()
        .unwrap();
    let mut api = OpenApi::new("t", "1");
    let mut handlers =
        vec![api.register(handler(
            get,
            |ctx: Ctx<FilePath>| async move { Ok(ctx.params) },
        ))];
    let doc = api.build();
    handlers.push(doc.handler("/openapi.json").unwrap());
    let pipeline = Pipeline::new(handlers).unwrap();

    let response = pipeline
        .handle(
            http::Request::get("/openapi.json")
                .body(crate::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert!(response
        .body()
        .starts_with(br#"{"openapi":"3.1.0","info":"#));
    let served: Document = serde_json::from_slice(response.body()).unwrap();
    assert_eq!(served, doc);
    assert!(served.as_value()["paths"].get("/openapi.json").is_none());
    assert!(served.as_value()["paths"]["/files/{path}"]["get"].is_object());
}

/// A contract type without `JsonSchema` still works everywhere but in a document.
#[derive(Serialize, Deserialize, Validate)]
struct Undocumented {
    value: u8,
}

#[tokio::test]
async fn types_without_a_schema_still_serve() {
    let echo = Endpoint::post(route::static_path("/echo"))
        .body::<Undocumented>()
        .response::<Undocumented>()
        .build()
        .unwrap();
    let h = handler(
        echo,
        |ctx: Ctx<NoParams, NoQuery, Undocumented>| async move { Ok(ctx.body) },
    );
    let pipeline = Pipeline::new(vec![h.into()]).unwrap();
    let request = http::Request::post("/echo")
        .header("content-type", "application/json")
        .body(crate::Body::from(r#"{"value":7}"#))
        .unwrap();
    let response = pipeline.handle(request).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.body(), r#"{"value":7}"#);
}

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
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint_with(&create, |op| {
        op.response_json::<Account>(StatusCode::OK, "Already there")
            .error(StatusCode::CONFLICT, "Taken")
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
