//! Security: what an operation requires, and the schemes it names.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::diff::{Diff, ARROW};
use super::kind::{ChangeKind, Side};

/// One alternative of a `security` list: scheme name → scopes (all required together).
type Requirement<'a> = BTreeMap<&'a str, BTreeSet<&'a str>>;

/// The alternatives an operation accepts: its own `security`, else the document's; an empty
/// list (or none) is the one alternative that requires nothing.
fn requirements<'a>(root: &'a Value, operation: &'a Value) -> Vec<Requirement<'a>> {
    let list = operation
        .get("security")
        .or_else(|| root.get("security"))
        .and_then(Value::as_array);
    let found: Vec<Requirement<'a>> = list
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .map(|alternative| {
            alternative
                .iter()
                .map(|(scheme, scopes)| {
                    let scopes = scopes.as_array().into_iter().flatten();
                    (scheme.as_str(), scopes.filter_map(Value::as_str).collect())
                })
                .collect()
        })
        .collect();
    if found.is_empty() {
        vec![Requirement::new()]
    } else {
        found
    }
}

/// Whether a client that satisfies `held` satisfies `needed`: every scheme `needed` names
/// is in `held`, with its scopes.
fn satisfies(held: &Requirement<'_>, needed: &Requirement<'_>) -> bool {
    needed.iter().all(|(scheme, scopes)| {
        held.get(scheme)
            .is_some_and(|held_scopes| scopes.is_subset(held_scopes))
    })
}

fn describe(requirements: &[Requirement<'_>]) -> String {
    let alternatives: Vec<String> = requirements
        .iter()
        .map(|r| match r.is_empty() {
            true => "none".to_owned(),
            false => r.keys().copied().collect::<Vec<_>>().join(" + "),
        })
        .collect();
    alternatives.join(" or ")
}

/// Compares what an operation found at `at` requires: breaking when a client that got in
/// with one of the old alternatives satisfies none of the new ones.
pub(super) fn compare_security<'a>(diff: &mut Diff<'a>, at: &str, old: &'a Value, new: &'a Value) {
    let old = requirements(diff.old, old);
    let new = requirements(diff.new, new);
    if old == new {
        return;
    }
    let here = format!("{at}{ARROW}security");
    let what = format!("{} → {}", describe(&old), describe(&new));
    let kept = old
        .iter()
        .all(|held| new.iter().any(|needed| satisfies(held, needed)));
    let kind = match kept {
        true => ChangeKind::SecurityRemoved,
        false => ChangeKind::SecurityAdded,
    };
    diff.push(kind, Side::Operation, &here, what);
}

/// Compares the security schemes both documents define: another type, header, cookie or
/// flow refuses the credentials clients send.
pub(super) fn compare_schemes(diff: &mut Diff<'_>) {
    let schemes = |root: &Value| {
        let found = root.pointer("/components/securitySchemes");
        found
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let (old, new) = (schemes(diff.old), schemes(diff.new));
    // Prose is not a change.
    let strip = |scheme: &Value| {
        let mut scheme = scheme.clone();
        if let Some(fields) = scheme.as_object_mut() {
            fields.remove("description");
            fields.remove("bearerFormat");
        }
        scheme
    };
    for (name, old_scheme) in &old {
        let Some(new_scheme) = new.get(name) else {
            continue;
        };
        if strip(old_scheme) != strip(new_scheme) {
            let here = format!("security scheme {name}");
            let kind = ChangeKind::SecuritySchemeChanged;
            diff.push(
                kind,
                Side::Operation,
                &here,
                format!("{old_scheme} → {new_scheme}"),
            );
        }
    }
}
