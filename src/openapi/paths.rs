//! Paths and parameters: the OpenAPI path of a route, the `operationId` made from it, and the
//! `in: path` and `in: query` parameters.

use http::Method;
use schemars::SchemaGenerator;
use serde_json::{json, Map, Value};

use super::schema;
use crate::route::{RouteTemplate, Segment};

/// `/users/:id` → `/users/{id}`, `/files/*path` → `/files/{path}`.
pub(super) fn openapi_path(route: &RouteTemplate) -> String {
    let mut out = String::new();
    for segment in route.segments() {
        out.push('/');
        match segment {
            Segment::Literal(text) => out.push_str(text),
            Segment::Param(name) | Segment::CatchAll(name) => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// `get_users_id` for `GET /users/:id`; `get_root` for `GET /`.
pub(super) fn default_operation_id(method: &Method, route: &RouteTemplate) -> String {
    let mut id = method.as_str().to_ascii_lowercase();
    for segment in route.segments() {
        let text = match segment {
            Segment::Literal(text) | Segment::Param(text) | Segment::CatchAll(text) => text,
        };
        let word: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !word.is_empty() {
            id.push('_');
            id.push_str(&word);
        }
    }
    if route
        .segments()
        .iter()
        .all(|s| matches!(s, Segment::Literal(t) if t.is_empty()))
    {
        id.push_str("_root");
    }
    id
}

/// One required `in: path` parameter per route param, in route order, with the params
/// type's field schema (a string when the type does not say).
pub(super) fn path_parameters(
    route: &RouteTemplate,
    schema: Option<&Value>,
    requests: &SchemaGenerator,
) -> Vec<Value> {
    let definitions = requests.definitions();
    let fields = schema.and_then(|s| schema::object_parts(s, definitions));
    let mut out = Vec::new();
    for segment in route.segments() {
        let (name, catch_all) = match segment {
            Segment::Literal(_) => continue,
            Segment::Param(name) => (name, false),
            Segment::CatchAll(name) => (name, true),
        };
        let mut schema = fields
            .as_ref()
            .and_then(|(properties, _)| properties.get(name).cloned())
            .unwrap_or_else(|| json!({ "type": "string" }));
        schema::strip_null(&mut schema);
        // An empty segment never routes.
        if schema::type_of(&schema, definitions) == Some("string") {
            if let Some(object) = schema.as_object_mut() {
                if !object.contains_key("$ref") {
                    object.entry("minLength").or_insert(1.into());
                }
            }
        }
        let mut parameter = json!({
            "name": name,
            "in": "path",
            "required": true,
            "schema": schema,
        });
        let description = parameter["schema"]
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let description = match (description, catch_all) {
            (Some(d), true) => Some(format!("{d} The rest of the path: it may hold `/`.")),
            (None, true) => Some("The rest of the path: it may hold `/`.".to_owned()),
            (d, false) => d,
        };
        if let Some(description) = description {
            parameter["description"] = description.into();
        }
        out.push(parameter);
    }
    out
}

/// One `in: query` parameter per field of the query type; a type that is not a plain object
/// (a map, an enum) is one exploded `form` object parameter.
pub(super) fn query_parameters(schema: &Value, requests: &SchemaGenerator) -> Vec<Value> {
    let definitions = requests.definitions();
    let Some((properties, required)) = schema::object_parts(schema, definitions) else {
        let mut schema = schema.clone();
        schema::strip_null(&mut schema);
        return vec![json!({
            "name": "query",
            "in": "query",
            "style": "form",
            "explode": true,
            "schema": schema,
        })];
    };
    properties
        .into_iter()
        .map(|(name, schema)| {
            let style = match schema::type_of(&schema, definitions) {
                Some("array") => Some("form"),
                Some("object") => Some("deepObject"),
                _ => None,
            };
            let required = required.contains(&name);
            let mut parameter = field(json!({ "name": name, "in": "query" }), schema, required);
            if let Some(style) = style {
                parameter["style"] = style.into();
                parameter["explode"] = true.into();
            }
            parameter
        })
        .collect()
}

/// `object` (a Parameter Object's `name` and `in`, or nothing for a Header Object) completed
/// for one field: required as the field is, its schema without `null`, and the schema's
/// description lifted to the object.
pub(super) fn field(mut object: Value, mut schema: Value, required: bool) -> Value {
    schema::strip_null(&mut schema);
    object["required"] = required.into();
    if let Some(description) = schema.get("description").and_then(Value::as_str) {
        object["description"] = description.into();
    }
    object["schema"] = schema;
    object
}

/// One `in: header` or `in: cookie` parameter (`location`) per field of a header or cookie
/// params type (a plain struct: the contract's build checks it).
pub(super) fn field_parameters(
    schema: &Value,
    requests: &SchemaGenerator,
    location: &str,
) -> Vec<Value> {
    let definitions = requests.definitions();
    let Some((properties, required)) = schema::object_parts(schema, definitions) else {
        return Vec::new();
    };
    properties
        .into_iter()
        .map(|(name, schema)| {
            let required = required.contains(&name);
            field(json!({ "name": name, "in": location }), schema, required)
        })
        .collect()
}

/// The Header Objects of a [`WithHeaders`](crate::contract::WithHeaders) answer: one per field
/// of its headers' object schema, required as the field is — an `Option` never (a `None`
/// is not sent), though schemars lists it as required when it is always serialised.
pub(super) fn answer_headers(schema: &Value, responses: &SchemaGenerator) -> Value {
    let definitions = responses.definitions();
    let Some((properties, required)) = schema::object_parts(schema, definitions) else {
        return json!({});
    };
    let mut headers = Map::new();
    for (name, schema) in properties {
        let required = required.contains(&name) && !schema::allows_null(&schema, definitions);
        headers.insert(name, field(json!({}), schema, required));
    }
    Value::Object(headers)
}
