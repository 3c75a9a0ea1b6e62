//! Generates the client from the document at `$PACTUM_OPENAPI_3_0` (by default
//! `../../target/progenitor/openapi-3.0.json`, where `.ci/run` writes it).
//!
//! progenitor 0.15 refuses a whole document when one request body has a media type it does
//! not handle (`multipart/form-data`) or one parameter is a cookie: those operations are taken
//! out first, and the build
//! fails when they are not exactly [`SKIPPED`], so a new one cannot slip through.

use std::collections::BTreeSet;
use std::path::PathBuf;

fn main() {
    let path = std::env::var_os("PACTUM_OPENAPI_3_0")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../../target/progenitor/openapi-3.0.json"));
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rerun-if-env-changed=PACTUM_OPENAPI_3_0");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (write it first: cargo run --example conformance -- --print-openapi 3.0.3)",
            path.display()
        )
    });
    let mut doc: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    assert_eq!(doc["openapi"], "3.0.3", "{}", path.display());
    let mut skipped = skip_unsupported(&mut doc);
    skipped.sort();
    assert_eq!(
        skipped, SKIPPED,
        "the operations progenitor cannot read changed: update SKIPPED (and CONTRIBUTING.md)"
    );
    let spec: openapiv3::OpenAPI = serde_json::from_value(doc)
        .unwrap_or_else(|e| panic!("{} is not an OpenAPI 3.0 document: {e}", path.display()));
    let mut generator = progenitor::Generator::default();
    let tokens = generator
        .generate_tokens(&spec)
        .unwrap_or_else(|e| panic!("progenitor refused {}: {e}", path.display()));
    let file: syn::File = syn::parse2(tokens).expect("progenitor wrote Rust");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("client.rs");
    std::fs::write(out, prettyplease::unparse(&file)).expect("write client.rs");
}

/// The operations progenitor cannot generate, by media type of their request body.
const SKIPPED: &[&str] = &[
    "GET /errors/status/{code} (success answers of two types)",
    "GET /events (success answers of two types)",
    "GET /session (cookie parameters)",
    "GET /v2/users/{id} (error answers of two types)",
    "POST /tickets (error answers of two types)",
    "POST /uploads (multipart/form-data)",
];

/// Request-body media types progenitor 0.15 does not read.
const UNSUPPORTED_BODIES: &[&str] = &["multipart/form-data"];

/// The distinct bodies of an operation's answers whose status `keep` picks, shared answers
/// (`$ref`) resolved.
fn bodies(
    op: &serde_json::Value,
    shared: &serde_json::Value,
    keep: fn(&str) -> bool,
) -> BTreeSet<String> {
    let Some(responses) = op["responses"].as_object() else {
        return BTreeSet::new();
    };
    responses
        .iter()
        .filter(|(status, _)| keep(status))
        .map(|(_, answer)| {
            let answer = match answer["$ref"].as_str() {
                Some(reference) => &shared[reference.rsplit('/').next().unwrap_or_default()],
                None => answer,
            };
            answer["content"].to_string()
        })
        .collect()
}

/// Removes the operations progenitor cannot generate — a request body it does not read, a
/// cookie parameter, or success or error answers of more than one type (progenitor 0.15 asserts one type of
/// each per operation, and counts `default` as both); returns them.
fn skip_unsupported(doc: &mut serde_json::Value) -> Vec<String> {
    let mut skipped = Vec::new();
    let shared = doc["components"]["responses"].clone();
    let Some(paths) = doc["paths"].as_object_mut() else {
        return skipped;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        item.retain(|method, op| {
            let content = &op["requestBody"]["content"];
            let unsupported = UNSUPPORTED_BODIES
                .iter()
                .find(|media| content.get(**media).is_some());
            let cookies = op["parameters"]
                .as_array()
                .is_some_and(|all| all.iter().any(|p| p["in"] == "cookie"));
            let why = match unsupported {
                Some(media) => (*media).to_owned(),
                // progenitor 0.15: "cookie parameters are not supported".
                None if cookies => "cookie parameters".into(),
                // As progenitor sorts them: `default` may be a success and an error.
                None if bodies(op, &shared, |s| s == "default" || s.starts_with('2')).len() > 1 => {
                    "success answers of two types".into()
                }
                None if bodies(op, &shared, |s| s == "default" || s >= "4").len() > 1 => {
                    "error answers of two types".into()
                }
                None => return true,
            };
            skipped.push(format!("{} {path} ({why})", method.to_uppercase()));
            false
        });
    }
    skipped
}
