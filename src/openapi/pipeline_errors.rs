//! The errors the pipeline answers by itself, shared under `components/responses`: one table,
//! and the two readers of it.

use serde_json::{json, Map, Value};

/// The reusable answers of the pipeline itself, under `components/responses`.
const STANDARD: [(&str, u16, &str); 6] = [
    (
        "ValidationFailed",
        400,
        "`Validation failed`: the params, query or body do not fit their type or rules; `details` has one entry per failing field (`path`, `message`). `Invalid JSON` (with one detail) when the body is not JSON or is empty.",
    ),
    (
        "NotFound",
        404,
        "`Not found`: no route matches the path (e.g. an empty path parameter).",
    ),
    (
        "MethodNotAllowed",
        405,
        "`Method not allowed`: the path exists with other methods, listed in `Allow`.",
    ),
    (
        "PayloadTooLarge",
        413,
        "`Payload too large`: the body is over the size limit (1 MiB unless configured).",
    ),
    (
        "UnsupportedMediaType",
        415,
        "`Unsupported media type`: the body's `Content-Type` is not `application/json` (or `+json`).",
    ),
    (
        "InternalError",
        500,
        "The handler or a middleware failed (its message), panicked (`Internal server error`), or its answer broke the response type's rules (`Response validation failed`).",
    ),
];

pub(super) fn standard_responses(error_body: &Value) -> Value {
    let mut responses = Map::new();
    for (name, status, description) in STANDARD {
        let mut response = json!({
            "description": description,
            "content": { "application/json": { "schema": error_body } }
        });
        if status == 405 {
            response["headers"] = json!({
                "Allow": {
                    "description": "The methods the path answers.",
                    "schema": { "type": "string" }
                }
            });
        }
        responses.insert(name.to_owned(), response);
    }
    Value::Object(responses)
}

pub(super) fn standard_ref(status: u16) -> Option<(Value, &'static str)> {
    STANDARD
        .iter()
        .find(|(_, s, _)| *s == status)
        .map(|(name, _, description)| {
            (
                json!({ "$ref": format!("#/components/responses/{name}") }),
                *description,
            )
        })
}
