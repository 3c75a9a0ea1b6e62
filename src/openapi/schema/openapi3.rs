//! JSON Schema 2020-12 (what OpenAPI 3.1 uses) made into OpenAPI 3.0's Schema Object.
//!
//! schemars' own OpenAPI 3.0 transforms (those of `SchemaSettings::openapi3()`) do most of the
//! work; around them, what they leave: `null` variants of `anyOf`/`oneOf` become `nullable`,
//! numeric `exclusiveMinimum`/`exclusiveMaximum` become 3.0's booleans beside
//! `minimum`/`maximum`, a file (`contentMediaType: application/octet-stream`) becomes
//! `format: binary`, other `contentMediaType`/`contentSchema` (3.0 has no such keywords) become
//! the extensions `x-contentMediaType`/`x-contentSchema`, a type list becomes an `anyOf` of
//! types, a tuple's `items` list an `anyOf` of its items, and any keyword 3.0 does not know is
//! dropped.

use schemars::generate::SchemaSettings;
use schemars::Schema;
use serde_json::{Map, Value};

/// The keywords of OpenAPI 3.0.3's Schema Object; any other (but `x-` extensions) is dropped.
const KEYWORDS: [&str; 36] = [
    "$ref",
    "title",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "nullable",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
    "externalDocs",
    "example",
    "deprecated",
];

/// Rewrites `schema` (JSON Schema 2020-12, as pactum writes it for OpenAPI 3.1) as an
/// OpenAPI 3.0 Schema Object, in place.
pub(crate) fn to_openapi3(schema: &mut Value) {
    before(schema);
    let mut wrapped = match Schema::try_from(std::mem::take(schema)) {
        Ok(wrapped) => wrapped,
        Err(_) => return,
    };
    // schemars' OpenAPI 3.0 transforms: `unevaluatedProperties`, boolean schemas, `nullable`,
    // `$ref` siblings, `examples`, `const`, `prefixItems`.
    for transform in &mut SchemaSettings::openapi3().transforms {
        transform.transform(&mut wrapped);
    }
    *schema = wrapped.to_value();
    after(schema);
}

/// Calls `f` on every direct subschema of `object`.
fn each_subschema(object: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    for key in ["allOf", "anyOf", "oneOf", "prefixItems", "items"] {
        match object.get_mut(key) {
            Some(Value::Array(items)) => items.iter_mut().for_each(&mut *f),
            Some(item @ Value::Object(_)) => f(item),
            _ => {}
        }
    }
    for key in [
        "not",
        "additionalProperties",
        "additionalItems",
        "contentSchema",
        "x-contentSchema",
        "unevaluatedProperties",
        "propertyNames",
        "contains",
        "if",
        "then",
        "else",
    ] {
        if let Some(item @ Value::Object(_)) = object.get_mut(key) {
            f(item);
        }
    }
    for key in [
        "properties",
        "patternProperties",
        "$defs",
        "dependentSchemas",
    ] {
        if let Some(Value::Object(map)) = object.get_mut(key) {
            map.values_mut().for_each(&mut *f);
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    object.get("type").and_then(Value::as_str) == Some("null")
        && object.keys().all(|k| k == "type" || k == "description")
}

/// What schemars' transforms leave to do, done first: `null` variants, numeric exclusive
/// bounds, the content keywords.
fn before(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    each_subschema(object, &mut before);
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = object.get_mut(key) else {
            continue;
        };
        let count = variants.len();
        variants.retain(|v| !is_null_schema(v));
        if variants.len() == count || variants.is_empty() {
            continue;
        }
        if variants.len() == 1 {
            let only = variants.remove(0);
            object.remove(key);
            match only {
                // 3.0 ignores the siblings of a `$ref`: `nullable` goes beside an `allOf`.
                Value::Object(only) if only.contains_key("$ref") => {
                    object.insert("allOf".to_owned(), Value::Array(vec![Value::Object(only)]));
                }
                Value::Object(only) => {
                    for (k, v) in only {
                        object.entry(k).or_insert(v);
                    }
                }
                other => {
                    object.insert("allOf".to_owned(), Value::Array(vec![other]));
                }
            }
        }
        object.insert("nullable".to_owned(), true.into());
    }
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(bound @ Value::Number(_)) = object.get(exclusive).cloned() {
            object.insert(inclusive.to_owned(), bound);
            object.insert(exclusive.to_owned(), true.into());
        }
    }
    // A file: 3.1's `contentMediaType: application/octet-stream` is 3.0's `format: binary`.
    if object.get("contentMediaType").and_then(Value::as_str) == Some("application/octet-stream")
        && !object.contains_key("contentEncoding")
        && !object.contains_key("contentSchema")
    {
        object.remove("contentMediaType");
        object.insert("format".to_owned(), "binary".into());
    }
    for key in ["contentMediaType", "contentEncoding", "contentSchema"] {
        if let Some(mut value) = object.remove(key) {
            // schemars' transforms do not look into an extension: converted here, whole.
            if key == "contentSchema" {
                to_openapi3(&mut value);
            }
            object.insert(format!("x-{key}"), value);
        }
    }
}

/// What schemars' transforms leave to do, done after: type lists, tuple items, unknown
/// keywords.
fn after(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get("type").cloned() {
        object.remove("type");
        match types.as_slice() {
            [] => {}
            [only] => {
                object.insert("type".to_owned(), only.clone());
            }
            _ => {
                let variants = types
                    .into_iter()
                    .map(|t| Value::Object(Map::from_iter([("type".to_owned(), t)])))
                    .collect();
                object.insert("anyOf".to_owned(), Value::Array(variants));
            }
        }
    }
    if let Some(Value::Array(items)) = object.get_mut("items") {
        let items = std::mem::take(items);
        let item = match <[Value; 1]>::try_from(items) {
            Ok([only]) => only,
            Err(items) => {
                Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(items))]))
            }
        };
        object.insert("items".to_owned(), item);
    }
    object.retain(|key, _| key.starts_with("x-") || KEYWORDS.contains(&key.as_str()));
    each_subschema(object, &mut after);
}
