//! A contract's declared errors ([`ErrorAnswer`](crate::error::ErrorAnswer)) in its operation: each
//! of their statuses answered with the declared type's schema.

use std::borrow::Cow;
use std::collections::BTreeMap;

use http::StatusCode;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Value};

use super::paths::answer_headers;
use super::schema::ANSWER_HEADERS_KEY;
use super::SchemaFn;
use crate::error::NoErrors;

/// No declared errors: never documented (a contract without them lists no status), and no
/// value matches.
impl JsonSchema for NoErrors {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("NoErrors")
    }
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("pactum::error::NoErrors")
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        Schema::from(false)
    }
}

/// The operation's answers by status: the answer object, and for the pipeline's own answers
/// the description of what causes them.
pub(super) type Answers = BTreeMap<String, (Value, Option<String>)>;

/// Documents each status of `statuses` with the declared type's schema (`make`). Where the
/// pipeline answers that status by itself too (e.g. 400 on a contract with input, 500
/// always), the body is either (`anyOf` the declared type and `error_body`) and both causes
/// are described.
pub(super) fn document(
    answers: &mut Answers,
    statuses: &[StatusCode],
    make: SchemaFn,
    responses: &mut SchemaGenerator,
    error_body: &Value,
) {
    let mut declared = Value::from(make(responses));
    // A `WithHeaders` error's headers, listed under each status.
    let headers = declared
        .as_object_mut()
        .and_then(|object| object.remove(ANSWER_HEADERS_KEY))
        .map(|headers| answer_headers(&headers, responses));
    for (i, status) in statuses.iter().enumerate() {
        if statuses[..i].contains(status) {
            continue; // listed twice (say, one arm per variant)
        }
        let key = status.as_str().to_owned();
        let reason = status.canonical_reason().unwrap_or("Error");
        let own = format!("{reason}: an error the contract declares.");
        let (schema, description, headers) = match answers.get(&key) {
            Some((_, Some(library))) => (
                json!({ "anyOf": [declared, error_body] }),
                format!("{own}\n\nFrom pactum: {library}"),
                // pactum's own answer carries none of them.
                headers.clone().map(none_required),
            ),
            _ => (declared.clone(), own, headers.clone()),
        };
        let mut answer = json!({
            "description": description,
            "content": { "application/json": { "schema": schema } },
        });
        if let Some(headers) = headers {
            answer["headers"] = headers;
        }
        answers.insert(key, (answer, None));
    }
}

/// The Header Objects, each made optional.
fn none_required(mut headers: Value) -> Value {
    if let Some(headers) = headers.as_object_mut() {
        for header in headers.values_mut() {
            header["required"] = false.into();
        }
    }
    headers
}
