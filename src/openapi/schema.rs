//! JSON Schemas: the generators, the schemas of pactum's own types, and the clean-ups that make
//! schemars' output describe exactly what the pipeline accepts.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::contract::{NoBody, NoContent, NoParams, NoQuery};
use crate::error::{Detail, ErrorBody, PathSegment};

/// Where the request (deserialize) schemas live: the document's shared schemas.
pub(crate) const SCHEMAS: &str = "#/components/schemas/";
/// Where the response (serialize) generator puts its references while the document is built;
/// rewritten to [`SCHEMAS`] by [`merge_definitions`].
const RESPONSE_SCHEMAS: &str = "#/components/x-pactum-response-schemas/";

/// A generator for what the server reads (params, query, body): serde's deserialize view
/// (`#[serde(default)]` fields are optional).
pub(crate) fn request_generator() -> SchemaGenerator {
    settings("/components/schemas")
        .for_deserialize()
        .into_generator()
}

/// A generator for what the server writes (responses): serde's serialize view
/// (`skip_serializing_if` fields are optional, defaulted ones are always there).
pub(crate) fn response_generator() -> SchemaGenerator {
    settings("/components/x-pactum-response-schemas")
        .for_serialize()
        .into_generator()
}

fn settings(definitions_path: &'static str) -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| {
        s.definitions_path = definitions_path.into();
        s.meta_schema = None;
    })
}

// ---------------------------------------------------------------------------------------
// pactum's own types.
// ---------------------------------------------------------------------------------------

macro_rules! marker_schema {
    ($($name:ident),*) => {$(
        /// An empty slot: `null` when written, anything (ignored) when read.
        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
            fn schema_id() -> Cow<'static, str> {
                Cow::Borrowed(concat!("pactum::", stringify!($name)))
            }
            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                if generator.contract().is_deserialize() {
                    Schema::from(true)
                } else {
                    json_schema!({ "type": "null" })
                }
            }
        }
    )*};
}

marker_schema!(NoParams, NoQuery, NoBody, NoContent);

impl JsonSchema for PathSegment {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("PathSegment")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::PathSegment")
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One step of a detail's path: a list index or a field name.",
            "anyOf": [
                { "type": "integer", "minimum": 0 },
                { "type": "string" }
            ]
        })
    }
}

impl JsonSchema for Detail {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Detail")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::Detail")
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let segment = generator.subschema_for::<PathSegment>();
        json_schema!({
            "description": "One failing field: where it is and what is wrong with it.",
            "type": "object",
            "properties": {
                "path": {
                    "description": "From the root of the value to the field, e.g. `[\"items\", 1, \"qty\"]`.",
                    "type": "array",
                    "items": segment
                },
                "message": {
                    "description": "A readable message, e.g. `length must be between 1 and 50`.",
                    "type": "string"
                }
            },
            "required": ["path", "message"]
        })
    }
}

impl JsonSchema for ErrorBody {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ErrorBody")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::ErrorBody")
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let detail = generator.subschema_for::<Detail>();
        json_schema!({
            "description": "The body of every error answer.",
            "type": "object",
            "properties": {
                "error": { "description": "The readable message.", "type": "string" },
                "details": {
                    "description": "One entry per failing field, where the error has them.",
                    "type": "array",
                    "items": detail
                },
                "code": { "description": "A machine-readable code, where the error carries one.", "type": "string" }
            },
            "required": ["error"]
        })
    }
}

// ---------------------------------------------------------------------------------------
// Reading and adjusting schemas.
// ---------------------------------------------------------------------------------------

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

/// Removes `null` from a schema (an `Option` field read from a path or query string, where
/// `null` cannot be written: absent is how `None` is sent), and a `null` default.
pub(crate) fn strip_null(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".to_owned(), only);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = object.get_mut(key) else {
            continue;
        };
        variants.retain(|v| v.get("type").and_then(Value::as_str) != Some("null"));
        if variants.len() == 1 {
            let only = variants.remove(0);
            object.remove(key);
            if let Value::Object(only) = only {
                for (k, v) in only {
                    object.entry(k).or_insert(v);
                }
            }
        }
    }
    if object.get("default") == Some(&Value::Null) {
        object.remove("default");
    }
}

/// The bounds of the integer formats schemars writes. schemars gives `u32`, `u64`, `usize`,
/// `i32`, `i64` and `isize` no `maximum` (and the signed ones no `minimum`), so a generated
/// request could hold a number serde refuses; with these the schema says what serde accepts.
fn integer_bounds(format: &str) -> Option<(Value, Value)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "int" => ((isize::MIN as i64).into(), (isize::MAX as i64).into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" => (0.into(), u64::MAX.into()),
        "uint" => (0.into(), (usize::MAX as u64).into()),
        _ => return None,
    })
}

/// What `validator`'s `email` rule accepts: the HTML5 definition it implements (ASCII domains;
/// it also takes internationalised ones). schemars writes `format: email`, which means RFC 5321
/// addresses — another set (`a.@example.com` is HTML5-valid only) — and is a mere annotation
/// in JSON Schema 2020-12 (so `""` would pass it): the pattern replaces it.
const EMAIL_PATTERN: &str = "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$";

/// Makes every schema in `value` say what serde and `validator` accept: the bounds of sized
/// integers (see [`integer_bounds`]) and [`EMAIL_PATTERN`] in place of `format: email`.
pub(crate) fn tighten(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let is_string = match object.get("type") {
                Some(Value::String(t)) => t == "string",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
                _ => false,
            };
            if is_string && object.get("format").and_then(Value::as_str) == Some("email") {
                object.remove("format");
                object
                    .entry("pattern")
                    .or_insert_with(|| EMAIL_PATTERN.into());
            }
            let is_integer = match object.get("type") {
                Some(Value::String(t)) => t == "integer",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                _ => false,
            };
            let bounds = object
                .get("format")
                .and_then(Value::as_str)
                .and_then(integer_bounds);
            if let (true, Some((min, max))) = (is_integer, bounds) {
                if !object.contains_key("minimum") && !object.contains_key("exclusiveMinimum") {
                    object.insert("minimum".to_owned(), min);
                }
                if !object.contains_key("maximum") && !object.contains_key("exclusiveMaximum") {
                    object.insert("maximum".to_owned(), max);
                }
            }
            object.values_mut().for_each(tighten);
        }
        Value::Array(items) => items.iter_mut().for_each(tighten),
        _ => {}
    }
}

/// Moves the `default` of every optional property into its description (`Default: `[]`.`).
///
/// Generators read a property's `default` as "always present": openapi-typescript, by
/// default, makes such a property required in every type made from `components/schemas`, so
/// a generated request type would force a field the server fills in. An optional property
/// keeps its documented default, and callers may leave it out. (Parameters keep theirs:
/// generators exempt them.)
pub(crate) fn describe_optional_defaults(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let required: Vec<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|names| {
                    names
                        .iter()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    let Value::Object(property) = property else {
                        continue;
                    };
                    if required.contains(name) {
                        continue;
                    }
                    let Some(default) = property.remove("default") else {
                        continue;
                    };
                    let note = format!("Default: `{default}`.");
                    match property.get_mut("description") {
                        Some(Value::String(text)) => {
                            text.push_str("\n\n");
                            text.push_str(&note);
                        }
                        _ => {
                            property.insert("description".to_owned(), note.into());
                        }
                    }
                }
            }
            object.values_mut().for_each(describe_optional_defaults);
        }
        Value::Array(items) => items.iter_mut().for_each(describe_optional_defaults),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// One set of shared schemas from the request and the response generators.
// ---------------------------------------------------------------------------------------

/// Merges the response generator's definitions into the request generator's.
///
/// A type read and written the same way is one schema. A type whose serialize view differs
/// from its deserialize view (a `#[serde(default)]` field is optional in a request but always
/// present in a response) gets two: `Name` for requests and `NameResponse` for responses.
///
/// Returns the merged definitions and the rewrite of every response `$ref`.
pub(crate) fn merge_definitions(
    mut request: Map<String, Value>,
    response: Map<String, Value>,
) -> (Map<String, Value>, HashMap<String, String>) {
    let mut names: BTreeMap<String, String> =
        response.keys().map(|n| (n.clone(), n.clone())).collect();
    loop {
        let refs = ref_map(&names);
        let mut renamed = None;
        for (name, schema) in &response {
            if names[name] != *name {
                continue;
            }
            let Some(existing) = request.get(name) else {
                continue;
            };
            let mut schema = schema.clone();
            rewrite_refs(&mut schema, &refs);
            if &schema != existing {
                renamed = Some(name.clone());
                break;
            }
        }
        let Some(name) = renamed else { break };
        let taken = |candidate: &str| {
            request.contains_key(candidate)
                || response.contains_key(candidate)
                || names.values().any(|n| n == candidate)
        };
        let base = format!("{name}Response");
        let mut candidate = base.clone();
        let mut n = 2;
        while taken(&candidate) {
            candidate = format!("{base}{n}");
            n += 1;
        }
        names.insert(name, candidate);
    }
    let refs = ref_map(&names);
    for (name, mut schema) in response {
        rewrite_refs(&mut schema, &refs);
        request.entry(names[&name].clone()).or_insert(schema);
    }
    (request, refs)
}

fn ref_map(names: &BTreeMap<String, String>) -> HashMap<String, String> {
    names
        .iter()
        .map(|(from, to)| {
            (
                format!("{RESPONSE_SCHEMAS}{}", encode_ref_name(from)),
                format!("{SCHEMAS}{}", encode_ref_name(to)),
            )
        })
        .collect()
}

/// Replaces every `$ref` found in `refs`.
pub(crate) fn rewrite_refs(value: &mut Value, refs: &HashMap<String, String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(new) = refs.get(reference.as_str()) {
                    reference.clone_from(new);
                }
            }
            object.values_mut().for_each(|v| rewrite_refs(v, refs));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, refs)),
        _ => {}
    }
}

/// A schema name as a JSON pointer token in a URI fragment (as schemars writes it).
fn encode_ref_name(name: &str) -> Cow<'_, str> {
    fn keep(byte: u8) -> bool {
        matches!(byte, b'!' | b'$' | b'&'..=b';' | b'=' | b'?'..=b'Z' | b'_' | b'a'..=b'z')
            && byte != b'/'
    }
    if name.bytes().all(keep) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for byte in name.bytes() {
        match byte {
            b'~' => out.push_str("~0"),
            b'/' => out.push_str("~1"),
            b if keep(b) => out.push(char::from(b)),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    Cow::Owned(out)
}

/// The inverse of [`encode_ref_name`].
fn decode_ref_name(token: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(token).decode_utf8_lossy();
    decoded.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_get_their_type_bounds() {
        let mut schema = json!({
            "properties": {
                "a": { "type": "integer", "format": "uint32", "minimum": 0 },
                "b": { "type": ["integer", "null"], "format": "int64" },
                "c": { "type": "integer", "format": "uint16", "minimum": 1, "maximum": 9 },
                "d": { "type": "string", "format": "uint32" }
            }
        });
        tighten(&mut schema);
        assert_eq!(schema["properties"]["a"]["maximum"], json!(u32::MAX));
        assert_eq!(schema["properties"]["b"]["minimum"], json!(i64::MIN));
        assert_eq!(schema["properties"]["c"]["maximum"], json!(9));
        assert_eq!(schema["properties"]["d"].get("maximum"), None);
    }

    #[test]
    fn emails_get_validators_pattern() {
        let mut schema = json!({ "type": ["string", "null"], "format": "email" });
        tighten(&mut schema);
        assert_eq!(schema.get("format"), None);
        let pattern = schema["pattern"].as_str().unwrap();
        assert!(pattern.starts_with("^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"));
        assert!(pattern.contains("(?:\\.[A-Za-z0-9]"));
    }

    #[test]
    fn null_is_stripped() {
        let mut schema = json!({ "type": ["boolean", "null"], "default": null });
        strip_null(&mut schema);
        assert_eq!(schema, json!({ "type": "boolean" }));
        let mut schema = json!({
            "description": "x",
            "anyOf": [{ "$ref": "#/components/schemas/A" }, { "type": "null" }]
        });
        strip_null(&mut schema);
        assert_eq!(
            schema,
            json!({ "description": "x", "$ref": "#/components/schemas/A" })
        );
    }

    #[test]
    fn ref_names_round_trip() {
        for name in ["User", "Map_of_string", "a/b~c d"] {
            assert_eq!(decode_ref_name(&encode_ref_name(name)), name);
        }
        assert_eq!(encode_ref_name("a/b~c d"), "a~1b~0c%20d");
    }

    #[test]
    fn differing_views_get_two_names() {
        let request = json!({
            "Item": { "type": "object", "required": [] },
            "Same": { "type": "string" }
        });
        let response = json!({
            "Item": { "type": "object", "required": ["a"] },
            "Same": { "type": "string" },
            "Outer": { "items": { "$ref": "#/components/x-pactum-response-schemas/Item" } }
        });
        let (merged, refs) = merge_definitions(
            request.as_object().unwrap().clone(),
            response.as_object().unwrap().clone(),
        );
        assert_eq!(merged["Item"]["required"], json!([]));
        assert_eq!(merged["ItemResponse"]["required"], json!(["a"]));
        assert_eq!(
            merged["Outer"]["items"]["$ref"],
            "#/components/schemas/ItemResponse"
        );
        assert_eq!(
            refs["#/components/x-pactum-response-schemas/Same"],
            "#/components/schemas/Same"
        );
        assert_eq!(merged.len(), 4);
    }
}
