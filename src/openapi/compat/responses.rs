//! An operation's `responses`: statuses, response headers, bodies.

use serde_json::Value;

use super::content::compare_content;
use super::diff::{object, Diff, ARROW};
use super::kind::{ChangeKind, Side};
use super::schema::compare_schema;
use super::shape::resolve;

/// Whether a response key (`200`, `2XX`, `default`) is a success: `2XX` or `3XX`.
fn is_success(status: &str) -> bool {
    status.starts_with('2') || status.starts_with('3')
}

/// Compares the `responses` of an operation found at `at` (`GET /users/{id}`).
pub(super) fn compare_responses<'a>(
    diff: &mut Diff<'a>,
    at: &str,
    old: Option<&'a Value>,
    new: Option<&'a Value>,
) {
    let (old, new) = (object(old), object(new));
    for (status, old_response) in old {
        let at = format!("{at}{ARROW}response {status}");
        let Some(new_response) = new.get(status) else {
            let kind = match is_success(status) {
                true => ChangeKind::SuccessStatusRemoved,
                false => ChangeKind::ErrorStatusRemoved,
            };
            diff.push(
                kind,
                Side::Response,
                &at,
                format!("status {status} removed"),
            );
            continue;
        };
        let (old_response, _) = resolve(diff.old, old_response);
        let (new_response, _) = resolve(diff.new, new_response);
        compare_headers(diff, &at, old_response, new_response);
        let (a, b) = (old_response.get("content"), new_response.get("content"));
        compare_content(diff, Side::Response, &at, a, b);
    }
    for status in new.keys().filter(|status| !old.contains_key(*status)) {
        let kind = match is_success(status) {
            true => ChangeKind::SuccessStatusAdded,
            false => ChangeKind::ErrorStatusAdded,
        };
        let where_ = format!("{at}{ARROW}response {status}");
        diff.push(
            kind,
            Side::Response,
            &where_,
            format!("status {status} added"),
        );
    }
}

/// The headers of a response, by lowercase name (header names are case-insensitive).
fn headers<'a>(root: &'a Value, response: &'a Value) -> Vec<(String, &'a Value)> {
    let list = response.get("headers").and_then(Value::as_object);
    let list = list.into_iter().flatten();
    let mut headers: Vec<_> = list
        .map(|(name, header)| (name.to_ascii_lowercase(), resolve(root, header).0))
        .collect();
    headers.sort_by(|a, b| a.0.cmp(&b.0));
    headers
}

fn compare_headers<'a>(diff: &mut Diff<'a>, at: &str, old: &'a Value, new: &'a Value) {
    let (old, new) = (headers(diff.old, old), headers(diff.new, new));
    let find = |list: &[(String, &'a Value)], name: &str| {
        list.iter().find(|(n, _)| n == name).map(|(_, h)| *h)
    };
    let required = |header: &Value| header.get("required") == Some(&Value::Bool(true));
    for (name, old_header) in &old {
        let path = format!("header.{name}");
        let here = format!("{at}{ARROW}{path}");
        let Some(new_header) = find(&new, name) else {
            let kind = ChangeKind::ResponseHeaderRemoved;
            diff.push(kind, Side::Response, &here, "header removed");
            continue;
        };
        match (required(old_header), required(new_header)) {
            (true, false) => {
                let kind = ChangeKind::ResponseHeaderMadeOptional;
                diff.push(kind, Side::Response, &here, "no longer always sent");
            }
            (false, true) => {
                let kind = ChangeKind::ResponseHeaderMadeRequired;
                diff.push(kind, Side::Response, &here, "now always sent");
            }
            _ => {}
        }
        if let (Some(a), Some(b)) = (old_header.get("schema"), new_header.get("schema")) {
            compare_schema(diff, Side::Response, at, &path, a, b);
        }
    }
    for (name, _) in new.iter().filter(|(name, _)| find(&old, name).is_none()) {
        let here = format!("{at}{ARROW}header.{name}");
        diff.push(
            ChangeKind::ResponseHeaderAdded,
            Side::Response,
            &here,
            "header added",
        );
    }
}
