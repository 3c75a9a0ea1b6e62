//! Two JSON Schemas compared, on the side (request or response) they describe.

use std::collections::BTreeSet;

use serde_json::Value;

use super::diff::{object, short, Diff, ARROW};
use super::kind::{ChangeKind, Side};
use super::shape::{format_within, resolve, types_within, Shape};

/// Keywords that are a lower limit: raising one accepts less.
const LOWER: [&str; 5] = [
    "minLength",
    "minItems",
    "minProperties",
    "minimum",
    "exclusiveMinimum",
];
/// Keywords that are an upper limit: lowering one accepts less.
const UPPER: [&str; 5] = [
    "maxLength",
    "maxItems",
    "maxProperties",
    "maximum",
    "exclusiveMaximum",
];

/// One comparison of two schemas: where they are, and the references being compared (so
/// that a recursive type is walked once per path, not for ever).
struct Walk<'d, 'a> {
    diff: &'d mut Diff<'a>,
    side: Side,
    at: &'d str,
    stack: Vec<(&'a str, &'a str)>,
}

/// Compares the schema `old` (of the old document) with `new` (of the new one), found at
/// `at` (`POST /users → request`) under the name `path` (`body`, `query.limit`).
pub(super) fn compare_schema<'a>(
    diff: &mut Diff<'a>,
    side: Side,
    at: &str,
    path: &str,
    old: &'a Value,
    new: &'a Value,
) {
    let mut walk = Walk {
        diff,
        side,
        at,
        stack: Vec::new(),
    };
    walk.schema(path, old, new);
}

impl<'a> Walk<'_, 'a> {
    fn push(&mut self, kind: ChangeKind, path: &str, what: impl std::fmt::Display) {
        let at = format!("{}{ARROW}{path}", self.at);
        self.diff.push(kind, self.side, &at, what);
    }

    fn schema(&mut self, path: &str, old: &'a Value, new: &'a Value) {
        let old = Shape::of(self.diff.old, old);
        let new = Shape::of(self.diff.new, new);
        if let (Some(a), Some(b)) = (old.reference, new.reference) {
            if self.stack.contains(&(a, b)) {
                return;
            }
            self.stack.push((a, b));
            self.shapes(path, &old, &new);
            self.stack.pop();
        } else {
            self.shapes(path, &old, &new);
        }
    }

    fn shapes(&mut self, path: &str, old: &Shape<'a>, new: &Shape<'a>) {
        match (old.nullable, new.nullable) {
            (false, true) => self.push(ChangeKind::NullAllowed, path, "null allowed"),
            (true, false) => self.push(ChangeKind::NullRefused, path, "null no longer allowed"),
            _ => {}
        }
        if !old.variants.is_empty() || !new.variants.is_empty() {
            return self.variants(path, old, new);
        }
        if !self.types(path, old, new) {
            return;
        }
        self.values(path, old, new);
        // A new type brings its own limits and format (`double` → `int64` with its range):
        // the type change says it.
        if old.types == new.types {
            self.limits(path, old.schema, new.schema);
        }
        if old.is_object() && new.is_object() {
            self.object(path, old.schema, new.schema);
        }
        if old.is_array() && new.is_array() {
            if let (Some(a), Some(b)) = (old.schema.get("items"), new.schema.get("items")) {
                self.schema(&format!("{path}[]"), a, b);
            }
        }
        self.composed(path, old.schema, new.schema);
    }

    /// Compares the types; false when they differ so much that nothing below compares.
    fn types(&mut self, path: &str, old: &Shape<'a>, new: &Shape<'a>) -> bool {
        let name = |types: &Option<BTreeSet<&str>>| match types {
            None => "any".to_owned(),
            Some(types) => types.iter().copied().collect::<Vec<_>>().join(" | "),
        };
        let what = format!("{} → {}", name(&old.types), name(&new.types));
        match (&old.types, &new.types) {
            (None, None) => true,
            (None, Some(_)) => {
                self.push(ChangeKind::TypeNarrowed, path, what);
                true
            }
            (Some(_), None) => {
                self.push(ChangeKind::TypeWidened, path, what);
                true
            }
            (Some(a), Some(b)) if a == b => true,
            (Some(a), Some(b)) if types_within(a, b) => {
                self.push(ChangeKind::TypeWidened, path, what);
                true
            }
            (Some(a), Some(b)) if types_within(b, a) => {
                self.push(ChangeKind::TypeNarrowed, path, what);
                true
            }
            _ => {
                self.push(ChangeKind::TypeChanged, path, what);
                false
            }
        }
    }

    /// `enum` and `const`: each value added or removed.
    fn values(&mut self, path: &str, old: &Shape<'a>, new: &Shape<'a>) {
        match (&old.values, &new.values) {
            (Some(a), Some(b)) => {
                for value in a.iter().filter(|v| !b.contains(v)) {
                    self.push(ChangeKind::EnumValueRemoved, path, short(value));
                }
                for value in b.iter().filter(|v| !a.contains(v)) {
                    self.push(ChangeKind::EnumValueAdded, path, short(value));
                }
            }
            (None, Some(b)) => {
                let list = Value::Array(b.iter().map(|v| (*v).clone()).collect());
                let what = format!("only {} allowed", short(&list));
                self.push(ChangeKind::ConstraintTightened, path, what);
            }
            (Some(_), None) => {
                self.push(ChangeKind::ConstraintLoosened, path, "any value allowed");
            }
            (None, None) => {}
        }
    }

    /// Length, size and range limits, `pattern`, `format`, `multipleOf`, `uniqueItems`.
    fn limits<'v>(&mut self, path: &str, old: &'v Value, new: &'v Value) {
        let number = |schema: &Value, key: &str| schema.get(key).and_then(Value::as_f64);
        for (keys, lower) in [(LOWER, true), (UPPER, false)] {
            for key in keys {
                let (a, b) = (number(old, key), number(new, key));
                let show = |v: Option<f64>, schema: &Value| {
                    v.map_or("none".to_owned(), |_| short(&schema[key]))
                };
                let what = format!("{key} {} → {}", show(a, old), show(b, new));
                let tighter = match (a, b) {
                    (None, Some(_)) => true,
                    (Some(_), None) => false,
                    (Some(a), Some(b)) if a != b => (b > a) == lower,
                    _ => continue,
                };
                let kind = if tighter {
                    ChangeKind::ConstraintTightened
                } else {
                    ChangeKind::ConstraintLoosened
                };
                self.push(kind, path, what);
            }
        }
        // `format: binary` is OpenAPI 3.0's way to say "raw bytes" (3.1 says it with
        // `contentMediaType`): a description, not a limit.
        let format = |schema: &'v Value| schema.get("format").filter(|f| *f != "binary");
        for key in ["pattern", "format", "multipleOf"] {
            let (a, b) = match key {
                "format" => (format(old), format(new)),
                _ => (old.get(key), new.get(key)),
            };
            let kind = match (a, b) {
                (None, Some(_)) => ChangeKind::ConstraintTightened,
                (Some(_), None) => ChangeKind::ConstraintLoosened,
                (Some(a), Some(b)) if a != b => {
                    match format_within(a.as_str().unwrap_or(""), b.as_str().unwrap_or("")) {
                        Some(true) if key == "format" => ChangeKind::ConstraintLoosened,
                        Some(false) if key == "format" => ChangeKind::ConstraintTightened,
                        _ => ChangeKind::ConstraintChanged,
                    }
                }
                _ => continue,
            };
            let show = |v: Option<&Value>| v.map_or("none".to_owned(), short);
            self.push(kind, path, format!("{key} {} → {}", show(a), show(b)));
        }
        let unique = |schema: &Value| schema.get("uniqueItems") == Some(&Value::Bool(true));
        match (unique(old), unique(new)) {
            (false, true) => self.push(ChangeKind::ConstraintTightened, path, "uniqueItems"),
            (true, false) => self.push(ChangeKind::ConstraintLoosened, path, "no uniqueItems"),
            _ => {}
        }
    }

    /// Properties, `required` and `additionalProperties`.
    fn object(&mut self, path: &str, old: &'a Value, new: &'a Value) {
        let properties = |schema: &'a Value| object(schema.get("properties"));
        let required = |schema: &'a Value| -> BTreeSet<&'a str> {
            let list = schema.get("required").and_then(Value::as_array);
            list.into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect()
        };
        let (old_props, new_props) = (properties(old), properties(new));
        let (old_required, new_required) = (required(old), required(new));
        let new_closed = closed(new);
        for (name, old_schema) in old_props {
            let at = format!("{path}.{name}");
            let Some(new_schema) = new_props.get(name) else {
                // The server ignores an unknown property, unless the object refuses them.
                let breaking = self.side == Side::Response || new_closed;
                let at = format!("{}{ARROW}{at}", self.at);
                let kind = ChangeKind::PropertyRemoved;
                self.diff
                    .push_as(kind, self.side, breaking, &at, "property removed");
                continue;
            };
            match (
                old_required.contains(name.as_str()),
                new_required.contains(name.as_str()),
            ) {
                (false, true) => self.push(ChangeKind::PropertyMadeRequired, &at, "now required"),
                (true, false) => self.push(ChangeKind::PropertyMadeOptional, &at, "now optional"),
                _ => {}
            }
            self.schema(&at, old_schema, new_schema);
        }
        for name in new_props
            .keys()
            .filter(|name| !old_props.contains_key(*name))
        {
            let at = format!("{path}.{name}");
            if new_required.contains(name.as_str()) {
                self.push(
                    ChangeKind::RequiredPropertyAdded,
                    &at,
                    "required property added",
                );
            } else {
                self.push(
                    ChangeKind::OptionalPropertyAdded,
                    &at,
                    "optional property added",
                );
            }
        }
        match (closed(old), new_closed) {
            (false, true) => self.push(
                ChangeKind::AdditionalPropertiesRefused,
                path,
                "additionalProperties: false",
            ),
            (true, false) => self.push(
                ChangeKind::AdditionalPropertiesAllowed,
                path,
                "other properties allowed",
            ),
            _ => {}
        }
        let extra =
            |schema: &'a Value| schema.get("additionalProperties").filter(|v| v.is_object());
        if let (Some(a), Some(b)) = (extra(old), extra(new)) {
            self.schema(&format!("{path}.{{*}}"), a, b);
        }
    }

    /// `anyOf` / `oneOf` alternatives: compared in order when there are as many on both
    /// sides, else matched by equality (one left on each side is compared as a pair).
    fn variants(&mut self, path: &str, old: &Shape<'a>, new: &Shape<'a>) {
        let list = |shape: &Shape<'a>| match shape.variants.is_empty() {
            true => vec![shape.schema],
            false => shape.variants.clone(),
        };
        let (a, b) = (list(old), list(new));
        if a.len() == b.len() {
            for (i, (a, b)) in a.into_iter().zip(b).enumerate() {
                self.schema(&format!("{path}(variant {})", i + 1), a, b);
            }
            return;
        }
        // Matched by what they say, references followed (each in its own document).
        let (old_root, new_root) = (self.diff.old, self.diff.new);
        let seen_a: Vec<_> = a.iter().map(|v| resolve(old_root, v).0).collect();
        let seen_b: Vec<_> = b.iter().map(|v| resolve(new_root, v).0).collect();
        let gone = a.iter().zip(&seen_a).filter(|(_, s)| !seen_b.contains(s));
        let gone: Vec<&'a Value> = gone.map(|(v, _)| *v).collect();
        let added = b.iter().zip(&seen_b).filter(|(_, s)| !seen_a.contains(s));
        let added: Vec<&'a Value> = added.map(|(v, _)| *v).collect();
        if let ([gone], [added]) = (gone.as_slice(), added.as_slice()) {
            return self.schema(&format!("{path}(variant)"), gone, added);
        }
        for variant in gone {
            self.push(ChangeKind::VariantRemoved, path, short(variant));
        }
        for variant in added {
            self.push(ChangeKind::VariantAdded, path, short(variant));
        }
    }

    /// `allOf` (compared in order) and `not` (compared as a whole).
    fn composed(&mut self, path: &str, old: &'a Value, new: &'a Value) {
        match (old.get("allOf"), new.get("allOf")) {
            (Some(Value::Array(a)), Some(Value::Array(b))) if a.len() == b.len() => {
                for (a, b) in a.iter().zip(b) {
                    self.schema(path, a, b);
                }
            }
            (None, None) => {}
            _ => self.push(ChangeKind::SchemaChanged, path, "allOf changed"),
        }
        if old.get("not") != new.get("not") {
            self.push(ChangeKind::SchemaChanged, path, "not changed");
        }
    }
}

/// Whether an object schema refuses properties it does not list.
fn closed(schema: &Value) -> bool {
    let no = Some(&Value::Bool(false));
    schema.get("additionalProperties") == no || schema.get("unevaluatedProperties") == no
}
