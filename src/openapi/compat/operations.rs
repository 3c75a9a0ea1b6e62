//! The `paths` of two documents: operations matched by method and path shape, then each
//! pair compared part by part.

use std::collections::BTreeMap;

use serde_json::Value;

use super::diff::{Diff, NULL};
use super::kind::{ChangeKind, Side};
use super::parameters::{compare_parameters, compare_request_body};
use super::responses::compare_responses;
use super::security::{compare_schemes, compare_security};

/// The methods a path item may hold an operation for (`query` is OpenAPI 3.2's).
const METHODS: [&str; 9] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// A path template with its parameter names taken out (`/users/{}`): two paths of the same
/// shape are the same path, whatever their parameters are called.
fn shape(path: &str) -> String {
    path.split('/')
        .map(
            |segment| match segment.starts_with('{') && segment.ends_with('}') {
                true => "{}",
                false => segment,
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// The path items of a document by shape: shape → (template, item).
fn paths(root: &Value) -> BTreeMap<String, (&str, &Value)> {
    let items = root.get("paths").and_then(Value::as_object);
    items
        .into_iter()
        .flatten()
        .map(|(path, item)| (shape(path), (path.as_str(), item)))
        .collect()
}

/// Compares every operation of the two documents, and their security schemes.
pub(super) fn compare_paths(diff: &mut Diff<'_>) {
    let old = paths(diff.old);
    let new = paths(diff.new);
    let mut shapes: Vec<&String> = old.keys().chain(new.keys()).collect();
    shapes.sort();
    shapes.dedup();
    for shape in shapes {
        let (old_path, old_item) = old.get(shape).copied().unwrap_or(("", &NULL));
        let (new_path, new_item) = new.get(shape).copied().unwrap_or(("", &NULL));
        for method in METHODS {
            let (a, b) = (old_item.get(method), new_item.get(method));
            let shown = method.to_ascii_uppercase();
            match (a, b) {
                (None, None) => {}
                (Some(_), None) => {
                    let at = format!("{shown} {old_path}");
                    diff.push(
                        ChangeKind::OperationRemoved,
                        Side::Operation,
                        &at,
                        "removed",
                    );
                }
                (None, Some(_)) => {
                    let at = format!("{shown} {new_path}");
                    diff.push(
                        ChangeKind::OperationAdded,
                        Side::Operation,
                        &at,
                        "new operation",
                    );
                }
                (Some(a), Some(b)) => {
                    let at = format!("{shown} {new_path}");
                    if old_path != new_path {
                        let kind = ChangeKind::PathParameterRenamed;
                        let what = format!("{old_path} → {new_path}");
                        diff.push(kind, Side::Operation, &at, what);
                    }
                    compare_security(diff, &at, a, b);
                    compare_parameters(diff, &at, (old_path, old_item, a), (new_path, new_item, b));
                    compare_request_body(diff, &at, a, b);
                    compare_responses(diff, &at, a.get("responses"), b.get("responses"));
                }
            }
        }
    }
    compare_schemes(diff);
}
