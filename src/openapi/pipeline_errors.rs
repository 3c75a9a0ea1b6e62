//! The errors the pipeline answers by itself, shared under `components/responses`: each
//! component stands for some of the pipeline's [`Rejection`]s (their status and messages
//! come from there), and the two readers of the table.

use serde_json::{json, Map, Value};

use crate::error::Rejection;

/// A reusable answer of the pipeline itself: its name under `components/responses`, the
/// rejections it stands for (one status), and what causes them.
struct Standard {
    name: &'static str,
    rejections: &'static [Rejection],
    cause: &'static str,
}

/// Every rejection an operation can meet, by status. [`Rejection::Unauthorized`] (401) is
/// documented on the operations that require credentials instead. [`Rejection::RequestTimeout`] (503) is
/// left out: it exists only where a request timeout is configured; so are the native
/// server's answers to heads it cannot read ([`Rejection::MalformedRequest`],
/// [`Rejection::UriTooLong`], [`Rejection::HeadTooLarge`]): they come before any operation.
const STANDARD: [Standard; 6] = [
    Standard {
        name: "ValidationFailed",
        rejections: &[
            Rejection::ValidationFailed,
            Rejection::InvalidJson,
            Rejection::BodyUnreadable,
            Rejection::InvalidMultipart,
        ],
        cause: "the params, query or body do not fit their type or rules (`details` has one entry per failing field: `path`, `message`), the body is not JSON or is empty (one detail with the parser's message), it could not be read, or a multipart body has no boundary or broken framing.",
    },
    Standard {
        name: "NotFound",
        rejections: &[Rejection::NotFound],
        cause: "no route matches the path (e.g. an empty path parameter).",
    },
    Standard {
        name: "MethodNotAllowed",
        rejections: &[Rejection::MethodNotAllowed],
        cause: "the path exists with other methods, listed in `Allow`.",
    },
    Standard {
        name: "PayloadTooLarge",
        rejections: &[Rejection::PayloadTooLarge],
        cause: "the body is over the size limit (1 MiB unless configured), or a multipart field is over its own limit (one detail naming the field).",
    },
    Standard {
        name: "UnsupportedMediaType",
        rejections: &[Rejection::UnsupportedMediaType],
        cause: "the body's `Content-Type` is not `application/json` (or `+json`), or not `multipart/form-data` for a multipart body.",
    },
    Standard {
        name: "InternalError",
        rejections: &[
            Rejection::Panicked,
            Rejection::ResponseValidationFailed,
            Rejection::ResponseSerializationFailed,
        ],
        cause: "a handler or middleware panicked, or the handler's answer broke the response type's rules or could not be serialised. A handler's or middleware's own error is answered 500 with its message too.",
    },
];

impl Standard {
    fn status(&self) -> u16 {
        self.rejections[0].status().as_u16()
    }

    /// The rejections' messages, then the cause.
    fn description(&self) -> String {
        let messages: Vec<String> = self
            .rejections
            .iter()
            .map(|r| format!("`{}`", r.message()))
            .collect();
        format!("{}: {}", messages.join(", "), self.cause)
    }
}

pub(super) fn standard_responses(error_body: &Value) -> Value {
    let mut responses = Map::new();
    for standard in &STANDARD {
        let mut response = json!({
            "description": standard.description(),
            "content": { "application/json": { "schema": error_body } }
        });
        if standard.status() == 405 {
            response["headers"] = json!({
                "Allow": {
                    "description": "The methods the path answers.",
                    "schema": { "type": "string" }
                }
            });
        }
        responses.insert(standard.name.to_owned(), response);
    }
    Value::Object(responses)
}

pub(super) fn standard_ref(status: u16) -> Option<(Value, String)> {
    STANDARD
        .iter()
        .find(|standard| standard.status() == status)
        .map(|standard| {
            (
                json!({ "$ref": format!("#/components/responses/{}", standard.name) }),
                standard.description(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rejection_is_documented_once_with_its_status() {
        for rejection in Rejection::ALL {
            let found: Vec<&Standard> = STANDARD
                .iter()
                .filter(|s| s.rejections.contains(&rejection))
                .collect();
            if matches!(
                rejection,
                Rejection::RequestTimeout
                    // Documented on each operation that requires credentials (`entry.rs`).
                    | Rejection::Unauthorized
                    | Rejection::MalformedRequest
                    | Rejection::UriTooLong
                    | Rejection::HeadTooLarge
            ) {
                assert!(found.is_empty());
                continue;
            }
            assert_eq!(found.len(), 1, "{rejection:?}");
            assert_eq!(
                found[0].status(),
                rejection.status().as_u16(),
                "{rejection:?}"
            );
        }
        for standard in &STANDARD {
            assert!(standard
                .rejections
                .iter()
                .all(|r| r.status().as_u16() == standard.status()));
        }
    }
}
