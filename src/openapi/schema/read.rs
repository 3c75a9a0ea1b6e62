//! Reading schemas: following `$ref`s, the parts of an object, the type described.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::definitions::decode_ref_name;
use super::SCHEMAS;

/// The definition a `$ref` points at, among `definitions` (keys are the schema names).
fn resolve<'a>(schema: &'a Value, definitions: &'a Map<String, Value>) -> &'a Value {
    let mut current = schema;
    // A few hops at most: a `$ref` to a `$ref`.
    for _ in 0..8 {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(name) = reference.strip_prefix(SCHEMAS) else {
            break;
        };
        match definitions.get(&decode_ref_name(name)) {
            Some(target) => current = target,
            None => break,
        }
    }
    current
}

/// The properties and required names of an object schema (following `$ref`s and a single
/// `allOf`), or `None` when `schema` does not describe a plain object.
pub(crate) fn object_parts(
    schema: &Value,
    definitions: &Map<String, Value>,
) -> Option<(Map<String, Value>, BTreeSet<String>)> {
    let schema = resolve(schema, definitions);
    if let Some([only]) = schema
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        return object_parts(only, definitions);
    }
    let properties = schema.get("properties")?.as_object()?.clone();
    if schema.get("anyOf").is_some() || schema.get("oneOf").is_some() {
        return None;
    }
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    Some((properties, required))
}

/// The JSON type a schema describes, `null` aside (following `$ref`s).
pub(crate) fn type_of<'a>(
    schema: &'a Value,
    definitions: &'a Map<String, Value>,
) -> Option<&'a str> {
    let schema = resolve(schema, definitions);
    match schema.get("type")? {
        Value::String(name) => Some(name),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .find(|name| *name != "null"),
        _ => None,
    }
}

/// Whether a schema lets `null` through: a `null` among its types or its variants (following
/// `$ref`s). An `Option` field: a header of that type is left out when `None`.
pub(crate) fn allows_null(schema: &Value, definitions: &Map<String, Value>) -> bool {
    let schema = resolve(schema, definitions);
    let is_null = |t: &Value| t.as_str() == Some("null");
    match schema.get("type") {
        Some(Value::Array(types)) if types.iter().any(is_null) => return true,
        Some(t) if is_null(t) => return true,
        _ => {}
    }
    ["anyOf", "oneOf"].iter().any(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|variants| variants.iter().any(|v| allows_null(v, definitions)))
    })
}
