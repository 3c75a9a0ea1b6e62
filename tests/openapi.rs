//! The conformance fixture's OpenAPI document: what it says, and that both adapters serve it.
//!
//! That it validates as OpenAPI 3.1, and that the servers keep its promises under generated
//! traffic, is checked from the outside by `tests/schemathesis/run.sh` (openapi-spec-validator
//! and schemathesis, from PyPI).
#![allow(unreachable_pub)]

use std::collections::BTreeSet;

use pactum::server::Server;
use pactum_test_kit::conformance as api;
use pactum_test_kit::{client, options};
use serde_json::{json, Value};
use warp::Filter;

async fn served_document(server: &Server) -> (String, Vec<u8>) {
    let url = format!("http://{}{}", server.local_addr(), api::OPENAPI_PATH);
    let response = client().get(url).send().await.expect("request sent");
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    (content_type, response.bytes().await.expect("body").to_vec())
}

#[tokio::test]
async fn both_adapters_serve_the_fixture_document() {
    let expected = serde_json::to_vec(&api::openapi().build()).unwrap();

    let native = pactum::serve(api::handlers(), options())
        .await
        .expect("native server starts");
    let app = pactum_warp::filter(api::handlers())
        .expect("valid handler list")
        .or(pactum_warp::not_found());
    let warp = pactum_warp::serve(app, options())
        .await
        .expect("warp server starts");

    for server in [&native, &warp] {
        let (content_type, body) = served_document(server).await;
        assert_eq!(content_type, "application/json");
        assert!(body == expected, "the served document is the built one");
    }
    native.shutdown().await;
    warp.shutdown().await;
}

fn document() -> Value {
    api::openapi().build().as_value().clone()
}

/// `(METHOD, /openapi/{path})` of every handler in the fixture, from `AnyHandler`'s debug form.
fn served_operations() -> BTreeSet<(String, String)> {
    api::handlers()
        .iter()
        .map(|h| {
            let text = format!("{h:?}");
            let inner = text
                .strip_prefix("AnyHandler(")
                .and_then(|t| t.strip_suffix(')'))
                .expect("AnyHandler(METHOD route)");
            let (method, route) = inner.split_once(' ').expect("METHOD route");
            let path: Vec<String> = route
                .split('/')
                .map(|segment| match segment.strip_prefix([':', '*']) {
                    Some(name) => format!("{{{name}}}"),
                    None => segment.to_owned(),
                })
                .collect();
            (method.to_ascii_lowercase(), path.join("/"))
        })
        // The document, the docs page and the files the page loads are not in the document.
        .filter(|(_, path)| {
            path != api::OPENAPI_PATH
                && path != api::DOCS_PATH
                && !path.starts_with(&format!("{}/", api::DOCS_PATH))
        })
        .collect()
}

#[test]
fn every_fixture_route_is_documented_once() {
    let doc = document();
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |method| (method.clone(), path.clone()))
        })
        .collect();
    assert_eq!(documented, served_operations());
    assert_eq!(documented.len(), 27);
    // Row 19 streams events: `text/event-stream`, the body text (what 3.1 tools read it as),
    // each event in `x-itemSchema` (3.2's `itemSchema`), its data a `Tick`, inlined.
    let events = &doc["paths"]["/events"]["get"]["responses"]["200"]["content"];
    let body = &events["text/event-stream"]["schema"];
    assert_eq!(body["type"], "string");
    assert_eq!(body["contentMediaType"], "text/event-stream");
    let event = &events["text/event-stream"]["x-itemSchema"];
    assert_eq!(event["type"], "object");
    assert_eq!(
        event["properties"]["data"]["contentSchema"]["properties"]["n"]["type"],
        "integer"
    );
    assert!(doc["components"]["schemas"].get("Tick").is_none());
    // Row 23 answers text, and its 400 stays JSON.
    let hello = &doc["paths"]["/hello.txt"]["get"]["responses"];
    assert_eq!(
        hello["200"]["content"],
        serde_json::json!({ "text/plain": { "schema": { "type": "string" } } })
    );
    assert_eq!(
        hello["400"]["$ref"],
        "#/components/responses/ValidationFailed"
    );

    // Row 24 takes a multipart form: files are strings of bytes (3.1's `contentMediaType`; the
    // 3.0 form `format: binary` makes openapi-core refuse every upload).
    let upload = &doc["paths"]["/uploads"]["post"]["requestBody"]["content"];
    assert_eq!(
        upload["multipart/form-data"]["schema"]["$ref"],
        "#/components/schemas/Upload"
    );
    let form = &doc["components"]["schemas"]["Upload"]["properties"];
    assert_eq!(form["file"]["contentMediaType"], "application/octet-stream");
    assert!(form["file"].get("format").is_none());
    assert_eq!(form["title"]["maxLength"], 100);

    let ids: BTreeSet<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .map(|op| op["operationId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 27, "operation ids are unique");
    assert!(ids.contains("getUser") && ids.contains("createNote"));
}

#[test]
fn the_fixture_rules_are_in_its_schemas() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let new_user = &schemas["NewUser"]["properties"];
    assert_eq!(new_user["name"]["minLength"], 1);
    assert_eq!(new_user["name"]["maxLength"], 50);
    // `format: email` and no copied pattern: `validator`'s rule is the guide's to describe.
    assert_eq!(
        new_user["email"],
        json!({ "type": "string", "format": "email" })
    );
    // The patch's email may be left out but not cleared (`patch::non_null`): not nullable.
    // (A nullable one keeps its format in an `anyOf` string variant: `transform.rs`'s tests.)
    assert_eq!(
        schemas["UserPatch"]["properties"]["email"],
        json!({ "type": "string", "format": "email" })
    );
    assert_eq!(new_user["age"]["maximum"], 150);
    assert_eq!(new_user["tags"]["maxItems"], 5);
    assert_eq!(new_user["tags"]["items"]["minLength"], 1);
    assert_eq!(new_user["tags"]["items"]["maxLength"], 20);
    // An optional field's default is in its description: openapi-typescript reads a `default`
    // in `components/schemas` as "always present" and would force the field on callers.
    assert!(new_user["active"].get("default").is_none());
    assert_eq!(new_user["active"]["description"], "Default: `true`.");
    assert_eq!(
        schemas["NewUser"]["required"],
        json!(["name", "email"]),
        "defaulted and optional fields are not required in a request"
    );
    assert_eq!(schemas["Echo"]["properties"]["items"]["minItems"], 1);
    assert_eq!(schemas["EchoItem"]["properties"]["qty"]["minimum"], 1);
    assert_eq!(schemas["EchoItem"]["properties"]["qty"]["maximum"], 99);
    assert_eq!(schemas["User"]["properties"]["name"]["minLength"], 1);
}

#[test]
fn the_fixture_operations_say_what_can_happen() {
    let doc = document();
    let paths = &doc["paths"];
    let statuses = |path: &str, method: &str| -> Vec<String> {
        paths[path][method]["responses"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(statuses("/health", "get"), ["200", "405", "500"]);
    assert_eq!(statuses("/users", "get"), ["200", "400", "405", "500"]);
    assert_eq!(
        statuses("/users", "post"),
        ["201", "400", "405", "409", "413", "415", "500"]
    );
    assert_eq!(
        statuses("/users/{id}", "get"),
        ["200", "400", "404", "405", "500"]
    );
    assert_eq!(
        statuses("/users/{id}", "put"),
        ["200", "400", "404", "405", "409", "413", "415", "500"]
    );
    assert_eq!(
        statuses("/users/{id}", "delete"),
        ["200", "400", "404", "405", "500"]
    );
    assert_eq!(
        statuses("/me/notes", "post"),
        ["201", "400", "401", "405", "413", "415", "500"]
    );
    assert_eq!(
        statuses("/errors/status/{code}", "get"),
        ["200", "400", "404", "405", "500", "default"]
    );

    let list = paths["/users"]["get"]["parameters"].as_array().unwrap();
    let tag = list.iter().find(|p| p["name"] == "tag").unwrap();
    assert_eq!(tag["in"], "query");
    assert_eq!(tag["explode"], true);
    let file = &paths["/files/{path}"]["get"]["parameters"][0];
    assert_eq!(file["in"], "path");
    assert_eq!(file["schema"]["minLength"], 1);
    let me = &paths["/me"]["get"];
    assert_eq!(me["security"], json!([{ "bearer": [] }]));
    // The document has a scheme: the public operations say they need no credentials.
    assert_eq!(paths["/health"]["get"]["security"], json!([]));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({ "type": "http", "scheme": "bearer" })
    );
    assert_eq!(me["tags"], json!(["auth"]));
    assert_eq!(me["summary"], "The authenticated user");
}

/// Each operation lists the pipeline's errors it can meet and no other: the body's errors only
/// with a body, and a 400 that names that body's kind; every description stays short, as the
/// docs page shows it on each operation.
#[test]
fn the_fixture_operations_list_only_the_errors_they_can_meet() {
    let doc = document();
    let responses = doc["components"]["responses"].as_object().unwrap();
    for (name, response) in responses {
        let description = response["description"].as_str().unwrap();
        assert!(description.len() <= 240, "{name}: {description}");
    }
    let text = |r: &Value| -> String {
        match r["$ref"].as_str() {
            Some(at) => {
                let name = at.rsplit('/').next().unwrap();
                responses[name]["description"].as_str().unwrap().to_owned()
            }
            None => r["description"].as_str().unwrap().to_owned(),
        }
    };
    let mut seen = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let answers = op["responses"].as_object().unwrap();
            let body = op["requestBody"]["content"]
                .as_object()
                .and_then(|content| content.keys().next().cloned());
            let said: String = answers.values().map(text).collect();
            let at = format!("{method} {path}");
            match body.as_deref() {
                None => {
                    seen += 1;
                    for error in [
                        "Invalid JSON",
                        "Invalid multipart body",
                        "read request body",
                    ] {
                        assert!(!said.contains(error), "{at} lists `{error}`: {said}");
                    }
                    assert!(!answers.contains_key("413"), "{at}");
                    assert!(!answers.contains_key("415"), "{at}");
                }
                Some("application/json") => {
                    assert!(said.contains("`Invalid JSON`"), "{at}");
                    assert!(!said.contains("multipart"), "{at}: {said}");
                }
                Some("multipart/form-data") => {
                    assert!(said.contains("`Invalid multipart body`"), "{at}");
                    assert!(!said.contains("Invalid JSON"), "{at}: {said}");
                }
                Some(other) => panic!("{at}: a body of {other}"),
            }
        }
    }
    assert!(seen > 10, "{seen} operations without a body");
    let hello = &doc["paths"]["/hello.txt"]["get"]["responses"]["400"];
    assert_eq!(hello["$ref"], "#/components/responses/ValidationFailed");
    let create = &doc["paths"]["/users"]["post"]["responses"]["400"];
    assert_eq!(create["$ref"], "#/components/responses/InvalidJsonBody");
    let upload = &doc["paths"]["/uploads"]["post"]["responses"]["400"];
    assert_eq!(
        upload["$ref"],
        "#/components/responses/InvalidMultipartBody"
    );
}

/// The `$ref` of an operation's JSON body: its request body, or its answer with `status`.
fn schema_ref<'a>(doc: &'a Value, path: &str, method: &str, status: Option<&str>) -> &'a str {
    let op = &doc["paths"][path][method];
    let content = match status {
        None => &op["requestBody"]["content"],
        Some(status) => &op["responses"][status]["content"],
    };
    content["application/json"]["schema"]["$ref"]
        .as_str()
        .unwrap_or_else(|| panic!("{method} {path} {status:?} has a $ref"))
}

/// `PATCH /users/{id}` is a merge patch: `age` can be cleared, so it is nullable (3.1: a
/// `null` type; 3.0.3: `nullable`); the other fields cannot, so their schemas have no `null`.
/// None is required.
#[test]
fn the_merge_patch_says_which_fields_null_clears() {
    let v31 = document();
    let v30 = api::openapi()
        .openapi_version(pactum::openapi::OpenApiVersion::V3_0_3)
        .build();
    let patch31 = &v31["components"]["schemas"]["UserPatch"];
    let patch30 = &v30.as_value()["components"]["schemas"]["UserPatch"];
    for patch in [patch31, patch30] {
        assert!(patch.get("required").is_none(), "{patch:#}");
        let fields = &patch["properties"];
        assert_eq!(
            (&fields["age"]["minimum"], &fields["age"]["maximum"]),
            (&json!(0), &json!(150))
        );
        for (name, ty) in [
            ("name", "string"),
            ("email", "string"),
            ("tags", "array"),
            ("active", "boolean"),
        ] {
            assert_eq!(fields[name]["type"], ty, "{name}: {patch:#}");
            assert!(fields[name].get("nullable").is_none(), "{name}: {patch:#}");
        }
    }
    assert_eq!(
        patch31["properties"]["age"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(patch30["properties"]["age"]["type"], "integer");
    assert_eq!(patch30["properties"]["age"]["nullable"], true);
}

#[test]
fn the_fixture_schemas_are_for_their_direction() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];

    // What a caller sends: defaulted and `Option` fields may be left out.
    for (path, method) in [("/users", "post"), ("/users/{id}", "put")] {
        assert_eq!(
            schema_ref(&doc, path, method, None),
            "#/components/schemas/NewUser"
        );
    }
    let required = |name: &str| schemas[name]["required"].clone();
    assert_eq!(required("NewUser"), json!(["name", "email"]));
    assert!(schemas["UserPatch"].get("required").is_none());
    assert_eq!(required("Echo"), json!(["items"]));
    let list = doc["paths"]["/users"]["get"]["parameters"]
        .as_array()
        .unwrap();
    assert!(list.iter().all(|p| p["required"] == false), "{list:#?}");

    // What the server sends: every field serde always writes, `null` and defaults included.
    for (path, method, status) in [
        ("/users", "post", "201"),
        ("/users/{id}", "get", "200"),
        ("/users/{id}", "put", "200"),
        ("/users/{id}", "patch", "200"),
    ] {
        assert_eq!(
            schema_ref(&doc, path, method, Some(status)),
            "#/components/schemas/User"
        );
    }
    assert_eq!(
        required("User"),
        json!(["id", "name", "email", "age", "tags", "active"])
    );
    assert_eq!(
        schemas["User"]["properties"]["age"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(required("ErrorBody"), json!(["error"]));

    // `Echo` is read and written alike (`note` is skipped when absent): one schema.
    assert_eq!(
        schema_ref(&doc, "/echo", "post", None),
        "#/components/schemas/Echo"
    );
    assert_eq!(
        schema_ref(&doc, "/echo", "post", Some("201")),
        "#/components/schemas/Echo"
    );
    // Every `$ref` points at a component that exists.
    fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(object) => {
                out.extend(object.get("$ref").and_then(Value::as_str));
                object.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(all.len() > 50);
    for reference in all {
        let pointer = reference.strip_prefix('#').expect("a local $ref");
        assert!(
            pointer.starts_with("/components/") && doc.pointer(pointer).is_some(),
            "{reference}"
        );
    }
    // No type of the fixture is read one way and written another.
    let names = schemas.as_object().unwrap();
    assert!(
        names.keys().all(|name| !name.ends_with("Response")),
        "{:?}",
        names.keys()
    );
}

/// Row 22: `GET /v2/users/{id}` documents its declared 404 with its own body type.
#[test]
fn the_fixture_documents_its_declared_errors() {
    let doc = document();
    let answers = &doc["paths"]["/v2/users/{id}"]["get"]["responses"];
    let statuses: Vec<&str> = answers
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(statuses, ["200", "400", "404", "405", "500"]);
    assert_eq!(
        answers["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/User"
    );
    let not_found = &answers["404"];
    // `/v2/users/` (an empty id) is the pipeline's own 404: either body.
    assert_eq!(
        not_found["content"]["application/json"]["schema"]["anyOf"],
        json!([
            { "$ref": "#/components/schemas/GetUserError" },
            { "$ref": "#/components/schemas/ErrorBody" },
        ])
    );
    assert!(not_found["description"]
        .as_str()
        .unwrap()
        .starts_with("Not Found: an error the contract declares."));
    let schemas = &doc["components"]["schemas"];
    let error = &schemas["GetUserError"]["anyOf"][0];
    assert_eq!(
        error["properties"]["code"]["$ref"],
        "#/components/schemas/UserNotFoundCode"
    );
    assert_eq!(
        schemas["UserNotFoundCode"]["enum"],
        json!(["user_not_found"])
    );
    assert_eq!(error["properties"]["error"]["type"], "string");
    assert_eq!(error["properties"]["id"]["type"], "integer");
    assert_eq!(error["required"], json!(["error", "code", "id"]));
}

/// Checks that `schema` (found at `at`) and its subschemas are OpenAPI 3.0 Schema Objects:
/// 3.0's keywords only, one `type` and never `null`, boolean exclusive bounds, no `$ref`
/// siblings.
fn check_30_schema(schema: &Value, at: &str, problems: &mut Vec<String>) {
    const KEYWORDS: &str = "$ref title multipleOf maximum exclusiveMaximum minimum \
        exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems maxProperties \
        minProperties required enum type allOf oneOf anyOf not items properties \
        additionalProperties description format default nullable discriminator readOnly \
        writeOnly xml externalDocs example deprecated";
    let Some(object) = schema.as_object() else {
        problems.push(format!("{at}: not an object"));
        return;
    };
    for (key, value) in object {
        if !key.starts_with("x-") && !KEYWORDS.split_whitespace().any(|k| k == key) {
            problems.push(format!("{at}: `{key}` is not a 3.0 keyword"));
        }
        match key.as_str() {
            "type" if !value.is_string() => problems.push(format!("{at}: type {value}")),
            "type" if value == "null" => problems.push(format!("{at}: type null")),
            "exclusiveMinimum" | "exclusiveMaximum" if !value.is_boolean() => {
                problems.push(format!("{at}: {key} {value}"));
            }
            "$ref" if object.len() > 1 => problems.push(format!("{at}: $ref with siblings")),
            "items" | "not" => check_30_schema(value, &format!("{at}/{key}"), problems),
            "additionalProperties" if value.is_object() => {
                check_30_schema(value, &format!("{at}/{key}"), problems);
            }
            "allOf" | "anyOf" | "oneOf" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    check_30_schema(item, &format!("{at}/{key}/{i}"), problems);
                }
            }
            "properties" => {
                for (name, item) in value.as_object().into_iter().flatten() {
                    check_30_schema(item, &format!("{at}/properties/{name}"), problems);
                }
            }
            _ => {}
        }
    }
}

/// The fixture's document as OpenAPI 3.0.3 (what `.ci/run` hands progenitor, and validates
/// with openapi-spec-validator in 3.0 mode): every schema in 3.0's dialect, the same operations.
#[test]
fn the_fixture_document_in_openapi_3_0_3() {
    let v30 = api::openapi()
        .openapi_version(pactum::openapi::OpenApiVersion::V3_0_3)
        .build();
    let v30 = v30.as_value();
    let v31 = document();
    assert_eq!(v30["openapi"], "3.0.3");
    assert_eq!(v30["info"], v31["info"]);
    let operations = |doc: &Value| -> Vec<(String, String, Value)> {
        let mut all = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                all.push((path.clone(), method.clone(), op["operationId"].clone()));
            }
        }
        all
    };
    assert_eq!(operations(v30), operations(&v31));

    let mut problems = Vec::new();
    for (name, schema) in v30["components"]["schemas"].as_object().unwrap() {
        check_30_schema(
            schema,
            &format!("#/components/schemas/{name}"),
            &mut problems,
        );
    }
    let holders = |v: &Value| -> Vec<(String, Value)> {
        let mut found = Vec::new();
        fn walk(v: &Value, at: String, found: &mut Vec<(String, Value)>) {
            match v {
                Value::Object(map) => {
                    for (key, value) in map {
                        if key == "schema" {
                            found.push((at.clone(), value.clone()));
                        } else if key != "components" || at.is_empty() {
                            walk(value, format!("{at}/{key}"), found);
                        }
                    }
                }
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, format!("{at}/{i}"), found);
                    }
                }
                _ => {}
            }
        }
        walk(&v["paths"], "#/paths".into(), &mut found);
        walk(
            &v["components"]["responses"],
            "#/components/responses".into(),
            &mut found,
        );
        found
    };
    for (at, schema) in holders(v30) {
        check_30_schema(&schema, &at, &mut problems);
    }
    assert!(problems.is_empty(), "{problems:#?}");

    // The `null` of an optional field is `nullable`; the event keeps its schema as an
    // extension, with no `$ref` in it (redocly's `spec-strict-refs`), and `Tick`, which only
    // it used, is no unused component; a file is `format: binary`.
    let user = &v30["components"]["schemas"]["User"]["properties"];
    assert_eq!(user["age"]["nullable"], true);
    assert_eq!(user["age"]["type"], "integer");
    let events =
        &v30["paths"]["/events"]["get"]["responses"]["200"]["content"]["text/event-stream"];
    assert_eq!(events["schema"]["type"], "string");
    let event = &events["x-itemSchema"];
    let data = &event["properties"]["data"];
    assert_eq!(
        data["x-contentSchema"]["properties"]["n"]["type"],
        "integer"
    );
    assert!(!events.to_string().contains("$ref"), "{events}");
    assert!(v30["components"]["schemas"].get("Tick").is_none());
    assert_eq!(
        event["description"],
        "One server-sent event; `data` is the JSON of `x-contentSchema`."
    );
    let upload = &v30["components"]["schemas"]["Upload"]["properties"];
    assert_eq!(upload["file"]["format"], "binary");
    assert!(upload["file"].get("x-contentMediaType").is_none());
}

/// The fixture's document as OpenAPI 3.2: the same operations as 3.1, the event stream
/// described one event at a time by `itemSchema`, with `Tick` a component.
#[test]
fn the_fixture_document_in_openapi_3_2() {
    let v32 = api::openapi()
        .openapi_version(pactum::openapi::OpenApiVersion::V3_2_0)
        .build();
    let v32 = v32.as_value();
    let v31 = document();
    assert_eq!(v32["openapi"], "3.2.0");
    assert_eq!(v32["info"], v31["info"]);
    assert_eq!(
        v32["paths"].as_object().unwrap().keys().collect::<Vec<_>>(),
        v31["paths"].as_object().unwrap().keys().collect::<Vec<_>>()
    );
    let events =
        &v32["paths"]["/events"]["get"]["responses"]["200"]["content"]["text/event-stream"];
    assert_eq!(
        events.as_object().unwrap().len(),
        1,
        "only itemSchema: {events}"
    );
    let event = &events["itemSchema"];
    assert_eq!(event["required"], json!(["data"]));
    for field in ["data", "id", "event", "retry"] {
        assert!(event["properties"][field].is_object(), "{field}");
    }
    let data = &event["properties"]["data"];
    assert_eq!(data["type"], "string");
    assert_eq!(data["contentMediaType"], "application/json");
    assert_eq!(data["contentSchema"]["$ref"], "#/components/schemas/Tick");
    assert!(v32["components"]["schemas"]["Tick"].is_object());
    // Everything else as in 3.1.
    let mut without_events = v32.clone();
    let mut v31_without = v31.clone();
    for doc in [&mut without_events, &mut v31_without] {
        doc["openapi"] = Value::Null;
        doc["paths"]["/events"] = Value::Null;
        doc["components"]["schemas"]["Tick"] = Value::Null;
    }
    assert_eq!(without_events, v31_without);
}

/// The document needs no unused component and names a server; every `$ref` points at
/// something (what redocly's `no-unused-components` and `no-empty-servers` check, in
/// `tests/clients/`).
#[test]
fn every_component_is_used_in_each_version() {
    use pactum::openapi::OpenApiVersion;
    for version in [
        OpenApiVersion::V3_0_3,
        OpenApiVersion::V3_1_0,
        OpenApiVersion::V3_2_0,
    ] {
        let doc = api::openapi().openapi_version(version).build();
        let doc = doc.as_value();
        assert_eq!(doc["servers"], json!([{ "url": "/" }]));
        fn refs(v: &Value, out: &mut BTreeSet<String>) {
            match v {
                Value::Object(map) => {
                    if let Some(Value::String(at)) = map.get("$ref") {
                        out.insert(at.clone());
                    }
                    map.values().for_each(|v| refs(v, out));
                }
                Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
                _ => {}
            }
        }
        let mut used = BTreeSet::new();
        refs(doc, &mut used);
        for kind in ["schemas", "responses"] {
            for name in doc["components"][kind].as_object().unwrap().keys() {
                let at = format!("#/components/{kind}/{name}");
                assert!(used.contains(&at), "{version:?}: {at} unused");
            }
        }
        for at in &used {
            let pointer = at.strip_prefix('#').unwrap();
            assert!(doc.pointer(pointer).is_some(), "{version:?}: {at} dangles");
        }
    }
}

/// An event stream lists its 204 (`Events::finished`: nothing after the client's
/// `Last-Event-ID`), with no body; other operations do not.
#[test]
fn an_event_stream_lists_its_204() {
    let doc = document();
    let answers = &doc["paths"]["/events"]["get"]["responses"];
    assert_eq!(
        answers["204"],
        json!({"description": "No more events (after `Last-Event-ID`): the client stops reconnecting."})
    );
    assert!(doc["paths"]["/hello"]["get"]["responses"]
        .get("204")
        .is_none());
}

/// Header and cookie params are `in: header` / `in: cookie` parameters, with their schemas
/// and whether they are required; in 3.0.3 too.
#[test]
fn header_and_cookie_params_are_parameters() {
    let doc = document();
    let webhook = &doc["paths"]["/webhooks"]["post"]["parameters"];
    assert_eq!(webhook.as_array().map(Vec::len), Some(1), "{webhook}");
    assert_eq!(webhook[0]["name"], "x-signature");
    assert_eq!(webhook[0]["in"], "header");
    assert_eq!(webhook[0]["required"], true);
    assert_eq!(webhook[0]["schema"]["minLength"], 71);
    let session = &doc["paths"]["/session"]["get"]["parameters"];
    let by_name = |name: &str| {
        session
            .as_array()
            .and_then(|all| all.iter().find(|p| p["name"] == name))
            .unwrap_or_else(|| panic!("no `{name}` in {session}"))
            .clone()
    };
    assert_eq!(by_name("session")["in"], "cookie");
    assert_eq!(by_name("session")["required"], true);
    assert_eq!(by_name("theme")["in"], "cookie");
    assert_eq!(by_name("theme")["required"], false);
    // The 400 a header or cookie param can cause is listed.
    assert!(doc["paths"]["/session"]["get"]["responses"]["400"].is_object());
    let v3_0 = api::openapi()
        .openapi_version(pactum::openapi::OpenApiVersion::V3_0_3)
        .build();
    let v3_0 = v3_0.as_value();
    assert_eq!(
        v3_0["paths"]["/webhooks"]["post"]["parameters"][0]["in"],
        "header"
    );
    let cookies = &v3_0["paths"]["/session"]["get"]["parameters"];
    assert!(cookies
        .as_array()
        .is_some_and(|all| all.iter().all(|p| p["in"] == "cookie")));
}

/// A `WithHeaders` answer lists its headers on the success answer, required as declared; the
/// body keeps its own schema. A `WithHeaders` declared error lists them under its status.
#[test]
fn typed_response_headers_are_listed() {
    let doc = document();
    let created = &doc["paths"]["/tickets"]["post"]["responses"]["201"];
    assert_eq!(
        created["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Ticket"
    );
    let headers = created["headers"].as_object().expect("headers");
    assert_eq!(
        headers.keys().collect::<Vec<_>>(),
        ["location", "x-total-count"]
    );
    assert_eq!(headers["location"]["required"], true);
    assert_eq!(headers["location"]["schema"]["type"], "string");
    assert_eq!(headers["x-total-count"]["schema"]["type"], "integer");
    // The declared 429's `Retry-After`, under its status.
    let refused = &doc["paths"]["/tickets"]["post"]["responses"]["429"];
    assert_eq!(
        refused["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/TicketFlood"
    );
    let retry_after = &refused["headers"]["retry-after"];
    assert_eq!(retry_after["required"], true);
    assert_eq!(retry_after["schema"]["type"], "integer");
    assert_eq!(retry_after["schema"]["maximum"], 3600);
    assert!(
        !doc.to_string().contains("x-pactum-answer-headers"),
        "the carrier key is removed"
    );
}
