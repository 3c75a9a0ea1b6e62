//! An operation's parameters (`in: path`, `query`, `header`, `cookie`) and request body.

use serde_json::Value;

use super::content::compare_content;
use super::diff::{Diff, ARROW};
use super::kind::{ChangeKind, Side};
use super::schema::compare_schema;
use super::shape::resolve;

/// Headers OpenAPI says a parameter cannot describe (the operation's other fields do).
const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

/// A parameter, and the key it is matched by across documents: `(in, name)`, with header
/// names in lowercase and path parameters by their position in the path (so that a renamed
/// one is still the same parameter).
struct Parameter<'a> {
    key: (String, String),
    /// How locations name it: `query.limit`, `header.x-signature`, `path.id`.
    label: String,
    value: &'a Value,
}

/// The parameters of `operation` in the document `root`: the path item's, overridden by the
/// operation's own.
fn parameters<'a>(
    root: &'a Value,
    path: &str,
    item: &'a Value,
    operation: &'a Value,
) -> Vec<Parameter<'a>> {
    let mut found: Vec<Parameter<'a>> = Vec::new();
    let lists = [item.get("parameters"), operation.get("parameters")];
    for value in lists
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .flatten()
    {
        let (value, _) = resolve(root, value);
        let (Some(place), Some(name)) = (
            value.get("in").and_then(Value::as_str),
            value.get("name").and_then(Value::as_str),
        ) else {
            continue;
        };
        let name = match place {
            "header" => name.to_ascii_lowercase(),
            _ => name.to_owned(),
        };
        if place == "header" && IGNORED_HEADERS.contains(&name.as_str()) {
            continue;
        }
        let key = match place {
            "path" => match path_position(path, &name) {
                Some(position) => position.to_string(),
                None => name.clone(),
            },
            _ => name.clone(),
        };
        let key = (place.to_owned(), key);
        found.retain(|p| p.key != key);
        let label = format!("{place}.{name}");
        found.push(Parameter { key, label, value });
    }
    found
}

/// Where `{name}` is among the parameters of the path template `path`.
fn path_position(path: &str, name: &str) -> Option<usize> {
    let placeholder = format!("{{{name}}}");
    path.split('/')
        .filter(|segment| segment.starts_with('{'))
        .position(|segment| segment == placeholder)
}

fn required(value: &Value) -> bool {
    value.get("required") == Some(&Value::Bool(true))
}

/// One side of an operation: the document, its path template, the path item, the operation.
pub(super) type OperationIn<'a> = (&'a str, &'a Value, &'a Value);

/// Compares the parameters of an operation found at `at` (`GET /users`).
pub(super) fn compare_parameters<'a>(
    diff: &mut Diff<'a>,
    at: &str,
    old: OperationIn<'a>,
    new: OperationIn<'a>,
) {
    let at = format!("{at}{ARROW}request");
    let old = parameters(diff.old, old.0, old.1, old.2);
    let new = parameters(diff.new, new.0, new.1, new.2);
    for old_param in &old {
        let Some(new_param) = new.iter().find(|p| p.key == old_param.key) else {
            let here = format!("{at}{ARROW}{}", old_param.label);
            diff.push(
                ChangeKind::ParameterRemoved,
                Side::Request,
                &here,
                "no longer read",
            );
            continue;
        };
        let here = format!("{at}{ARROW}{}", new_param.label);
        match (required(old_param.value), required(new_param.value)) {
            (false, true) => {
                let kind = ChangeKind::ParameterMadeRequired;
                diff.push(kind, Side::Request, &here, "now required");
            }
            (true, false) => {
                let kind = ChangeKind::ParameterMadeOptional;
                diff.push(kind, Side::Request, &here, "now optional");
            }
            _ => {}
        }
        if let (Some(a), Some(b)) = (old_param.value.get("schema"), new_param.value.get("schema")) {
            compare_schema(diff, Side::Request, &at, &new_param.label, a, b);
        }
    }
    for new_param in new.iter().filter(|p| !old.iter().any(|o| o.key == p.key)) {
        let here = format!("{at}{ARROW}{}", new_param.label);
        if required(new_param.value) {
            let kind = ChangeKind::RequiredParameterAdded;
            diff.push(kind, Side::Request, &here, "required parameter added");
        } else {
            let kind = ChangeKind::OptionalParameterAdded;
            diff.push(kind, Side::Request, &here, "optional parameter added");
        }
    }
}

/// Compares the request bodies of an operation found at `at`.
pub(super) fn compare_request_body<'a>(
    diff: &mut Diff<'a>,
    at: &str,
    old: &'a Value,
    new: &'a Value,
) {
    let at = format!("{at}{ARROW}request");
    let here = format!("{at}{ARROW}body");
    let old = old.get("requestBody").map(|body| resolve(diff.old, body).0);
    let new = new.get("requestBody").map(|body| resolve(diff.new, body).0);
    match (old, new) {
        (None, None) => {}
        (None, Some(new)) => {
            let kind = match required(new) {
                true => ChangeKind::RequiredRequestBodyAdded,
                false => ChangeKind::OptionalRequestBodyAdded,
            };
            diff.push(kind, Side::Request, &here, "body added");
        }
        (Some(_), None) => {
            let kind = ChangeKind::RequestBodyRemoved;
            diff.push(kind, Side::Request, &here, "no longer read");
        }
        (Some(old), Some(new)) => {
            match (required(old), required(new)) {
                (false, true) => {
                    let kind = ChangeKind::RequestBodyMadeRequired;
                    diff.push(kind, Side::Request, &here, "now required");
                }
                (true, false) => {
                    let kind = ChangeKind::RequestBodyMadeOptional;
                    diff.push(kind, Side::Request, &here, "now optional");
                }
                _ => {}
            }
            let (a, b) = (old.get("content"), new.get("content"));
            compare_content(diff, Side::Request, &at, a, b);
        }
    }
}
