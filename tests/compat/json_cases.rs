//! Rule cases on hand-written documents: what a pactum contract cannot say yet (header and
//! cookie parameters, response headers, a second media type) and the forms of other
//! generators (OpenAPI 3.0's `nullable`, `oneOf` alternatives, a recursive schema). Each
//! document is the smallest OpenAPI that shows the rule, in its standard shapes.

use pactum::openapi::compat::ChangeKind::*;
use serde_json::{json, Value};

use super::{case, Case};

/// A document with one operation, `GET /items`.
fn get(operation: Value) -> Value {
    json!({"openapi": "3.1.0", "paths": {"/items": {"get": operation}}})
}

/// `GET /items` with these parameters.
fn params(parameters: Value) -> Value {
    get(json!({"parameters": parameters, "responses": {"200": {}}}))
}

/// `GET /items` answering 200 with these headers.
fn headers(headers: Value) -> Value {
    get(json!({"responses": {"200": {"headers": headers}}}))
}

/// `GET /items` answering 200 with this JSON schema, beside `components`.
fn answers(schema: Value, schemas: Value) -> Value {
    let mut doc = get(json!({"responses": {"200": {
        "content": {"application/json": {"schema": schema}}
    }}}));
    doc["components"] = json!({"schemas": schemas});
    doc
}

fn string() -> Value {
    json!({"type": "string"})
}

pub fn cases() -> Vec<Case> {
    let signature =
        json!({"in": "header", "name": "X-Signature", "required": true, "schema": string()});
    let session = json!({"in": "cookie", "name": "session", "schema": string()});
    let required_session =
        json!({"in": "cookie", "name": "session", "required": true, "schema": string()});
    let rate = json!({"schema": {"type": "integer"}, "required": true});
    let optional_rate = json!({"schema": {"type": "integer"}});
    let (b, c) = (true, false);
    vec![
        case(
            "required header parameter added",
            params(json!([])),
            params(json!([signature])),
            &[(RequiredParameterAdded, b)],
        )
        .at("GET /items → request → header.x-signature"),
        case(
            "header names compare in any case",
            params(json!([signature])),
            params(json!([{"in": "header", "name": "x-signature", "required": true, "schema": string()}])),
            &[],
        ),
        case(
            "optional cookie parameter added",
            params(json!([])),
            params(json!([session])),
            &[(OptionalParameterAdded, c)],
        )
        .at("GET /items → request → cookie.session"),
        case(
            "cookie parameter made required",
            params(json!([session])),
            params(json!([required_session])),
            &[(ParameterMadeRequired, b)],
        ),
        case(
            "header parameter made optional",
            params(json!([signature])),
            params(json!([{"in": "header", "name": "X-Signature", "schema": string()}])),
            &[(ParameterMadeOptional, c)],
        ),
        case(
            "header parameter enum value removed",
            params(json!([{"in": "header", "name": "X-Mode", "schema": {"enum": ["a", "b"]}}])),
            params(json!([{"in": "header", "name": "X-Mode", "schema": {"enum": ["a"]}}])),
            &[(EnumValueRemoved, b)],
        )
        .at("GET /items → request → header.x-mode"),
        case(
            "response header removed",
            headers(json!({"X-Rate-Limit": rate})),
            headers(json!({})),
            &[(ResponseHeaderRemoved, b)],
        )
        .at("GET /items → response 200 → header.x-rate-limit"),
        case(
            "response header added",
            headers(json!({})),
            headers(json!({"X-Rate-Limit": rate})),
            &[(ResponseHeaderAdded, c)],
        ),
        case(
            "response header made optional",
            headers(json!({"X-Rate-Limit": rate})),
            headers(json!({"X-Rate-Limit": optional_rate})),
            &[(ResponseHeaderMadeOptional, b)],
        ),
        case(
            "response header type changed",
            headers(json!({"X-Rate-Limit": rate})),
            headers(json!({"X-Rate-Limit": {"schema": string(), "required": true}})),
            &[(TypeChanged, b)],
        ),
        case(
            "response media type removed",
            get(json!({"responses": {"200": {"content": {
                "application/json": {"schema": string()}, "text/plain": {"schema": string()}
            }}}})),
            get(json!({"responses": {"200": {"content": {"application/json": {"schema": string()}}}}})),
            &[(MediaTypeRemoved, b)],
        ),
        case(
            "request media type added",
            get(json!({"requestBody": {"required": true, "content": {"application/json": {"schema": string()}}}, "responses": {"204": {}}})),
            get(json!({"requestBody": {"required": true, "content": {
                "application/json": {"schema": string()}, "multipart/form-data": {"schema": {"type": "object"}}
            }}, "responses": {"204": {}}})),
            &[(MediaTypeAdded, c)],
        ),
        case(
            "OpenAPI 3.0 nullable in a response",
            answers(json!({"type": "object", "properties": {"a": string()}}), json!({})),
            answers(json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}}), json!({})),
            &[(NullAllowed, b)],
        )
        .at("GET /items → response 200 → body.a"),
        case(
            "3.1 type list and 3.0 nullable say the same",
            answers(json!({"type": ["string", "null"]}), json!({})),
            answers(json!({"type": "string", "nullable": true}), json!({})),
            &[],
        ),
        case(
            "response oneOf alternative added",
            answers(json!({"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}),
                json!({"Cat": {"type": "object"}, "Dog": {"type": "array"}})),
            answers(json!({"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}, string()]}),
                json!({"Cat": {"type": "object"}, "Dog": {"type": "array"}})),
            &[(VariantAdded, b)],
        ),
        case(
            "a recursive schema is walked once per path",
            answers(json!({"$ref": "#/components/schemas/Tree"}), json!({"Tree": {
                "type": "object", "required": ["name", "children"],
                "properties": {"name": string(), "children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}
            }})),
            answers(json!({"$ref": "#/components/schemas/Tree"}), json!({"Tree": {
                "type": "object", "required": ["children"],
                "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}
            }})),
            &[(PropertyRemoved, b)],
        )
        .at("GET /items → response 200 → body.name"),
        case(
            "security alternative added",
            get(json!({"security": [{"bearer": []}], "responses": {"200": {}}})),
            get(json!({"security": [{"bearer": []}, {"key": []}], "responses": {"200": {}}})),
            &[(SecurityRemoved, c)],
        ),
        case(
            "security scope added",
            get(json!({"security": [{"oauth": ["read"]}], "responses": {"200": {}}})),
            get(json!({"security": [{"oauth": ["read", "write"]}], "responses": {"200": {}}})),
            &[(SecurityAdded, b)],
        ),
        case(
            "document-wide security added",
            get(json!({"responses": {"200": {}}})),
            {
                let mut doc = get(json!({"responses": {"200": {}}}));
                doc["security"] = json!([{"bearer": []}]);
                doc
            },
            &[(SecurityAdded, b)],
        ),
    ]
}
