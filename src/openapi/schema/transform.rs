//! The clean-ups that make schemars' output describe exactly what the pipeline accepts: no
//! `null` where it cannot be written, the bounds of sized integers, defaults of optional
//! properties in their descriptions.

use serde_json::Value;

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
///
/// The 64-bit bounds are written exactly (`u64::MAX` is `18446744073709551615`), though no
/// JavaScript number holds them: a browser's `JSON.parse` rounds them to the nearest double,
/// which Swagger UI shows as `18446744073709552000` beside `integer($uint64)`. They stay:
/// the readers that generate requests (schemathesis, hypothesis, serde) read them exactly and
/// would otherwise send numbers the server refuses, and no JSON number would display better.
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

/// Makes every schema in `value` say what serde accepts: the bounds of sized integers (see
/// [`integer_bounds`]).
///
/// An `email` rule stays schemars' `format: email`, with no pattern: no regular expression
/// says what `validator`'s rule accepts (an internationalised domain, an address literal,
/// a domain of at most 255 characters), so a copied one disagreed both ways. The guide says
/// exactly what the rule accepts.
///
/// A string with a `format` that may also be `null` (`type: ["string", "null"]`, an `Option`)
/// becomes `anyOf` a string with that format and `null`: the same values, in the form generators
/// keep the format in (schemathesis, given the type list, sends `""` as a valid `email`).
pub(crate) fn tighten(value: &mut Value) {
    match value {
        Value::Object(object) => {
            nullable_format_as_any_of(object);
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

/// The string keywords that go with the string variant of a nullable formatted string.
const STRING_KEYWORDS: [&str; 4] = ["format", "minLength", "maxLength", "pattern"];

fn nullable_format_as_any_of(object: &mut serde_json::Map<String, Value>) {
    let Some(Value::Array(types)) = object.get("type") else {
        return;
    };
    let is_nullable_string = types.len() == 2
        && types.iter().any(|t| t == "string")
        && types.iter().any(|t| t == "null");
    if !is_nullable_string || !object.contains_key("format") || object.contains_key("anyOf") {
        return;
    }
    object.remove("type");
    let mut string = serde_json::Map::new();
    string.insert("type".to_owned(), "string".into());
    for key in STRING_KEYWORDS {
        if let Some(value) = object.remove(key) {
            string.insert(key.to_owned(), value);
        }
    }
    object.insert(
        "anyOf".to_owned(),
        serde_json::json!([Value::Object(string), { "type": "null" }]),
    );
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
    fn emails_keep_their_format() {
        let mut schema = json!({ "type": "string", "format": "email" });
        tighten(&mut schema);
        assert_eq!(schema, json!({ "type": "string", "format": "email" }));
        let mut schema =
            json!({ "type": ["string", "null"], "format": "email", "description": "d" });
        tighten(&mut schema);
        assert_eq!(
            schema,
            json!({
                "description": "d",
                "anyOf": [{ "type": "string", "format": "email" }, { "type": "null" }]
            })
        );
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
}
