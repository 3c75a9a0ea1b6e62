//! The breaking-change check (`pactum::openapi::compat`): a table of rule cases, each a pair
//! of documents with the exact changes expected, and the conformance fixture's own document
//! checked against its committed snapshot.
#![allow(unreachable_pub, missing_docs, missing_debug_implementations)]

#[path = "compat/contract_cases.rs"]
mod contract_cases;
#[path = "compat/json_cases.rs"]
mod json_cases;

use pactum::openapi::compat::{self, ChangeKind};
use serde_json::Value;

/// One rule case: two documents, and every change `compare(old, new)` must report, as
/// `(rule, breaking)`, in any order.
pub struct Case {
    pub name: &'static str,
    pub old: Value,
    pub new: Value,
    pub expected: Vec<(ChangeKind, bool)>,
    /// Where the first expected change is, when the case checks it.
    pub location: Option<&'static str>,
}

pub fn case(name: &'static str, old: Value, new: Value, expected: &[(ChangeKind, bool)]) -> Case {
    Case {
        name,
        old,
        new,
        expected: expected.to_vec(),
        location: None,
    }
}

impl Case {
    pub fn at(mut self, location: &'static str) -> Self {
        self.location = Some(location);
        self
    }
}

/// Runs every case and reports every mismatch at once, with the report of each.
fn run(cases: Vec<Case>) -> usize {
    let mut failures = Vec::new();
    for case in &cases {
        let report = compat::compare(&case.old, &case.new);
        let mut found: Vec<_> = report
            .changes()
            .iter()
            .map(|c| (c.kind(), c.is_breaking()))
            .collect();
        let mut expected = case.expected.clone();
        found.sort();
        expected.sort();
        if found != expected {
            failures.push(format!(
                "{}: expected {expected:?}, found {found:?}\n{report}",
                case.name
            ));
            continue;
        }
        if report.is_compatible() == case.expected.iter().any(|(_, breaking)| *breaking) {
            failures.push(format!(
                "{}: is_compatible() disagrees\n{report}",
                case.name
            ));
        }
        if let Some(location) = case.location {
            let (kind, _) = case.expected[0];
            let change = report.changes().iter().find(|c| c.kind() == kind).unwrap();
            if change.location() != location {
                failures.push(format!(
                    "{}: at {:?}, expected {location:?}",
                    case.name,
                    change.location()
                ));
            }
        }
        // The same document compared with itself has no change.
        let same = compat::compare(&case.new, &case.new);
        if !same.is_empty() {
            failures.push(format!(
                "{}: the new document differs from itself\n{same}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cases.len()
}

#[test]
fn rule_cases_on_pactum_contracts() {
    let count = run(contract_cases::cases());
    assert!(count >= 25, "{count} contract cases");
}

#[test]
fn rule_cases_on_hand_written_documents() {
    let count = run(json_cases::cases());
    assert!(count >= 10, "{count} hand-written cases");
}

/// The conformance fixture's document against the snapshot committed beside this file: a
/// change that breaks its clients fails here (and in CI) until the snapshot is updated
/// with `PACTUM_UPDATE_SNAPSHOTS=1 cargo test -p pactum --test compat`.
#[test]
fn the_fixture_document_breaks_no_client_of_its_snapshot() {
    let snapshot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/conformance.openapi.json"
    );
    // A missing snapshot would be written and pass: in a clean clone it must be there.
    let updating = std::env::var_os(compat::UPDATE_SNAPSHOTS).is_some();
    assert!(
        updating || std::path::Path::new(snapshot).exists(),
        "{snapshot} is committed"
    );
    compat::assert_compatible(&pactum_test_kit::conformance::openapi().build(), snapshot);
}

/// The fixture's document in OpenAPI 3.0.3 says `null` with `nullable` where 3.1 uses type
/// lists and `anyOf`: read the same, the two versions describe the same API.
#[test]
fn the_fixture_in_openapi_3_0_is_the_same_api() {
    use pactum::openapi::OpenApiVersion;
    let v31 = pactum_test_kit::conformance::openapi().build();
    let v30 = pactum_test_kit::conformance::openapi()
        .openapi_version(OpenApiVersion::V3_0_3)
        .build();
    let report = compat::compare(v31.as_value(), v30.as_value());
    assert!(report.is_empty(), "{report}");
}

/// The snapshot check sees a break in the fixture's own document: `GET /users/{id}` taken
/// out, and `User.email` no longer required in answers.
#[test]
fn a_break_in_the_fixture_document_is_reported() {
    let snapshot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/conformance.openapi.json"
    );
    let old: Value = serde_json::from_str(&std::fs::read_to_string(snapshot).unwrap()).unwrap();
    let mut new = pactum_test_kit::conformance::openapi()
        .build()
        .as_value()
        .clone();
    new["paths"]["/users/{id}"]
        .as_object_mut()
        .unwrap()
        .remove("get");
    let required = new["components"]["schemas"]["User"]["required"]
        .as_array_mut()
        .unwrap();
    required.retain(|name| name != "email");
    let report = compat::compare(&old, &new);
    let breaking: Vec<_> = report.breaking().map(|c| c.location().to_owned()).collect();
    assert!(breaking.contains(&"GET /users/{id}".to_owned()), "{report}");
    assert!(
        breaking.contains(&"POST /users → response 201 → body.email".to_owned()),
        "{report}"
    );
}
