//! [`Shape`]: a schema read the same way whichever form it was written in: `$ref`s followed,
//! `null` taken out of `type`, `enum`, `anyOf` / `oneOf` (OpenAPI 3.1) and `nullable`
//! (OpenAPI 3.0) into one flag.

use std::collections::BTreeSet;

use serde_json::Value;

/// How many `$ref`s in a row are followed before giving up (a reference to itself).
const MAX_HOPS: usize = 32;

/// Follows `value`'s `$ref`s (`#/components/...`, any local JSON pointer) in `root`. Returns
/// the value found and the first reference followed, if any. A reference that does not
/// resolve is left as it is.
pub(super) fn resolve<'v>(root: &'v Value, mut value: &'v Value) -> (&'v Value, Option<&'v str>) {
    let mut first = None;
    for _ in 0..MAX_HOPS {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(target) = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
        else {
            break;
        };
        first.get_or_insert(reference);
        value = target;
    }
    (value, first)
}

/// A schema, normalised for comparison.
#[derive(Debug)]
pub(super) struct Shape<'v> {
    /// The schema object itself, references followed and a nullable wrapper taken off.
    pub(super) schema: &'v Value,
    /// The first `$ref` followed to reach it: the recursion guard's key.
    pub(super) reference: Option<&'v str>,
    /// Whether `null` is allowed, however it is said.
    pub(super) nullable: bool,
    /// The types other than `null`; `None` when any type is allowed.
    pub(super) types: Option<BTreeSet<&'v str>>,
    /// The alternatives of an `anyOf` / `oneOf` other than `null`, when there are two or more.
    pub(super) variants: Vec<&'v Value>,
    /// The allowed values (`enum`, or `const`) other than `null`.
    pub(super) values: Option<Vec<&'v Value>>,
}

impl<'v> Shape<'v> {
    /// Reads `value` (a schema of the document `root`).
    pub(super) fn of(root: &'v Value, value: &'v Value) -> Self {
        Self::read(root, value, 0)
    }

    fn read(root: &'v Value, value: &'v Value, depth: usize) -> Self {
        let (schema, reference) = resolve(root, value);
        let mut nullable = schema.get("nullable") == Some(&Value::Bool(true));
        let types = match schema.get("type") {
            Some(Value::String(one)) => Some(BTreeSet::from([one.as_str()])),
            Some(Value::Array(many)) => Some(many.iter().filter_map(Value::as_str).collect()),
            _ => None,
        };
        let types = types.map(|mut types| {
            nullable |= types.remove("null");
            types
        });
        let values = match (schema.get("enum"), schema.get("const")) {
            (Some(Value::Array(values)), _) => Some(values.iter().collect::<Vec<_>>()),
            (_, Some(value)) => Some(vec![value]),
            _ => None,
        };
        let values = values.map(|values| {
            nullable |= values.iter().any(|v| v.is_null());
            values.into_iter().filter(|v| !v.is_null()).collect()
        });
        let mut variants = Vec::new();
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(alternatives)) = schema.get(key) else {
                continue;
            };
            for alternative in alternatives {
                if is_null(root, alternative) {
                    nullable = true;
                } else {
                    variants.push(alternative);
                }
            }
        }
        // `anyOf: [T, null]` is `T` with null allowed (schemars writes `Option<T>` so), and
        // `allOf: [T]` is `T` (OpenAPI 3.0's way to describe a `$ref`).
        let own = schema.get("type").is_some() || schema.get("properties").is_some();
        let single = match schema.get("allOf") {
            Some(Value::Array(all)) if all.len() == 1 && variants.is_empty() => Some(&all[0]),
            Some(_) => None,
            None if variants.len() == 1 => Some(variants[0]),
            None => None,
        };
        if let Some(single) = single.filter(|_| !own && depth < MAX_HOPS) {
            let mut inner = Self::read(root, single, depth + 1);
            inner.nullable |= nullable;
            inner.reference = reference.or(inner.reference);
            return inner;
        }
        Self {
            schema,
            reference,
            nullable,
            types,
            variants: if variants.len() > 1 {
                variants
            } else {
                Vec::new()
            },
            values,
        }
    }

    /// Whether the schema allows objects (typed `object`, or untyped with `properties`).
    pub(super) fn is_object(&self) -> bool {
        match &self.types {
            Some(types) => types.contains("object"),
            None => self.schema.get("properties").is_some(),
        }
    }

    /// Whether the schema allows arrays.
    pub(super) fn is_array(&self) -> bool {
        match &self.types {
            Some(types) => types.contains("array"),
            None => self.schema.get("items").is_some(),
        }
    }
}

/// Whether `value` is the schema of `null` alone (`{"type": "null"}`, `{"const": null}`).
fn is_null(root: &Value, value: &Value) -> bool {
    let (schema, _) = resolve(root, value);
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema.get("const") == Some(&Value::Null)
}

/// Whether every type of `old` is accepted by `new` (`integer` is a `number`).
pub(super) fn types_within(old: &BTreeSet<&str>, new: &BTreeSet<&str>) -> bool {
    old.iter()
        .all(|t| new.contains(t) || (*t == "integer" && new.contains("number")))
}

/// The range of a numeric `format`, as (signed, bits), `float` and `double` aside.
fn numeric_format(format: &str) -> Option<(bool, u32)> {
    let (signed, bits) = match format.strip_prefix('u') {
        Some(bits) => (false, bits.strip_prefix("int")?),
        None => (true, format.strip_prefix("int")?),
    };
    Some((signed, bits.parse().ok()?))
}

/// Whether every value of the numeric format `old` fits the format `new`: `uint32` within
/// `uint64` and `int64`, `int32` within `int64`, `float` within `double`. `None` when one of
/// them is not a numeric format.
pub(super) fn format_within(old: &str, new: &str) -> Option<bool> {
    match (old, new) {
        ("float" | "double", "double") | ("float", "float") => return Some(true),
        ("double", "float") => return Some(false),
        _ => {}
    }
    let (old_signed, old_bits) = numeric_format(old)?;
    let (new_signed, new_bits) = numeric_format(new)?;
    Some(match (old_signed, new_signed) {
        (false, false) | (true, true) => old_bits <= new_bits,
        (false, true) => old_bits < new_bits,
        (true, false) => false,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn null_is_read_from_every_form() {
        let root = json!({"components": {"schemas": {"A": {"type": "string"}}}});
        let forms = [
            json!({"type": ["string", "null"]}),
            json!({"type": "string", "nullable": true}),
            json!({"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "null"}]}),
            json!({"oneOf": [{"type": "null"}, {"type": "string"}]}),
            json!({"allOf": [{"$ref": "#/components/schemas/A"}], "nullable": true}),
        ];
        for form in &forms {
            let shape = Shape::of(&root, form);
            assert!(shape.nullable, "{form}");
            assert_eq!(shape.types, Some(BTreeSet::from(["string"])), "{form}");
            assert!(shape.variants.is_empty(), "{form}");
        }
        assert!(!Shape::of(&root, &json!({"type": "string"})).nullable);
    }

    #[test]
    fn references_are_followed_and_loops_end() {
        let root = json!({"components": {"schemas": {
            "A": {"$ref": "#/components/schemas/B"},
            "B": {"type": "integer"},
            "Loop": {"$ref": "#/components/schemas/Loop"},
        }}});
        let to_a = json!({"$ref": "#/components/schemas/A"});
        let shape = Shape::of(&root, &to_a);
        assert_eq!(shape.reference, Some("#/components/schemas/A"));
        assert_eq!(shape.types, Some(BTreeSet::from(["integer"])));
        let looping = json!({"$ref": "#/components/schemas/Loop"});
        assert_eq!(Shape::of(&root, &looping).types, None);
    }

    #[test]
    fn numeric_formats_nest() {
        assert_eq!(format_within("uint32", "uint64"), Some(true));
        assert_eq!(format_within("uint32", "int64"), Some(true));
        assert_eq!(format_within("uint64", "int64"), Some(false));
        assert_eq!(format_within("int32", "uint64"), Some(false));
        assert_eq!(format_within("int64", "int32"), Some(false));
        assert_eq!(format_within("float", "double"), Some(true));
        assert_eq!(format_within("email", "uri"), None);
    }
}
