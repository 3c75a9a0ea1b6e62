//! [`refs_to`]: the components a part of a document references, for the builders that keep
//! only the components something uses.

use serde_json::Value;

/// Adds to `names` the name of every component that `value` references under `prefix`
/// (`#/components/schemas/`, `#/components/responses/`, …), however deep.
pub(super) fn refs_to(value: &Value, prefix: &str, names: &mut impl Extend<String>) {
    match value {
        Value::Object(object) => {
            if let Some(name) = object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|at| at.strip_prefix(prefix))
            {
                names.extend([name.to_owned()]);
            }
            object.values().for_each(|v| refs_to(v, prefix, names));
        }
        Value::Array(items) => items.iter().for_each(|v| refs_to(v, prefix, names)),
        _ => {}
    }
}
