//! The errors the pipeline answers by itself, shared under `components/responses`: each
//! component stands for some of the pipeline's [`Rejection`]s (their status and messages
//! come from there), and the two readers of the table.
//!
//! An operation references the components it can meet, so each description is short and
//! says only what that operation can be answered: a `400` without a request body is
//! [`VALIDATION_FAILED`] (its params or query), with a JSON body [`INVALID_JSON_BODY`], with a
//! multipart body [`INVALID_MULTIPART_BODY`], with a byte stream [`UNREADABLE_BODY`]; `413`
//! and `415` only where there is a body, and a multipart body's `413` names its fields'
//! limits ([`MULTIPART_TOO_LARGE`]). Every operation references `MethodNotAllowed` (`405`,
//! with `Allow`): the answer to the other methods of its path, which OpenAPI cannot list.

use serde_json::{json, Map, Value};

use crate::error::Rejection;

/// A reusable answer of the pipeline itself: its name under `components/responses`, and the
/// rejections it stands for (one status), each with what causes it (empty when its message
/// says it all).
struct Standard {
    name: &'static str,
    rejections: &'static [(Rejection, &'static str)],
}

/// The `400` of an operation without a request body: its params or query.
const VALIDATION_FAILED: &str = "ValidationFailed";
/// The `400` of an operation with a JSON body.
const INVALID_JSON_BODY: &str = "InvalidJsonBody";
/// The `400` of an operation with a multipart body.
const INVALID_MULTIPART_BODY: &str = "InvalidMultipartBody";
/// The `400` of an operation with a byte-stream body.
const UNREADABLE_BODY: &str = "UnreadableBody";

/// The `413` of an operation with a JSON or byte-stream body.
const PAYLOAD_TOO_LARGE: &str = "PayloadTooLarge";
/// The `413` of an operation with a multipart body, whose fields have limits of their own.
const MULTIPART_TOO_LARGE: &str = "MultipartTooLarge";

/// The details of [`Rejection::ValidationFailed`], the same everywhere.
const DETAILS: &str = "`details` has one entry per failing field";

/// Every rejection an operation can meet, by status. [`Rejection::Unauthorized`] (401) is
/// documented on the operations that require credentials instead. [`Rejection::RequestTimeout`] (503) is
/// left out: it exists only where a request timeout is configured; so are the native
/// server's answers to heads it cannot read ([`Rejection::MalformedRequest`],
/// [`Rejection::UriTooLong`], [`Rejection::HeadTooLarge`]), and the warp adapter's
/// [`Rejection::InvalidUri`]: they come before any operation.
const STANDARD: [Standard; 10] = [
    Standard {
        name: VALIDATION_FAILED,
        rejections: &[(
            Rejection::ValidationFailed,
            "the params or query do not fit their type or rules",
        )],
    },
    Standard {
        name: INVALID_JSON_BODY,
        rejections: &[
            (
                Rejection::ValidationFailed,
                "the params, query or body do not fit their type or rules",
            ),
            (Rejection::InvalidJson, "the body is not JSON, or is empty"),
            (Rejection::BodyUnreadable, ""),
        ],
    },
    Standard {
        name: INVALID_MULTIPART_BODY,
        rejections: &[
            (
                Rejection::ValidationFailed,
                "the params, query or form fields do not fit their type or rules",
            ),
            (
                Rejection::InvalidMultipart,
                "no boundary, or broken framing",
            ),
            (Rejection::BodyUnreadable, ""),
        ],
    },
    Standard {
        name: UNREADABLE_BODY,
        rejections: &[
            (
                Rejection::ValidationFailed,
                "the params or query do not fit their type or rules",
            ),
            (Rejection::BodyUnreadable, ""),
        ],
    },
    Standard {
        name: "NotFound",
        rejections: &[(Rejection::NotFound, "no route matches the path (e.g. an empty path parameter)")],
    },
    Standard {
        name: "MethodNotAllowed",
        rejections: &[(
            Rejection::MethodNotAllowed,
            "a request to this path with a method it has no operation for; `Allow` lists the methods it answers",
        )],
    },
    Standard {
        name: PAYLOAD_TOO_LARGE,
        rejections: &[(
            Rejection::PayloadTooLarge,
            "the body is over its size limit (1 MiB unless configured)",
        )],
    },
    Standard {
        name: MULTIPART_TOO_LARGE,
        rejections: &[(
            Rejection::PayloadTooLarge,
            "the body is over its size limit (1 MiB unless configured), or a field over its own (one detail names it)",
        )],
    },
    Standard {
        name: "UnsupportedMediaType",
        rejections: &[(
            Rejection::UnsupportedMediaType,
            "the body's `Content-Type` is not the request body's media type",
        )],
    },
    Standard {
        name: "InternalError",
        rejections: &[
            (
                Rejection::Panicked,
                "a handler or middleware panicked (their own errors are answered with their message)",
            ),
            (Rejection::ResponseValidationFailed, "the answer broke its type's rules"),
            (Rejection::ResponseSerializationFailed, ""),
        ],
    },
];

impl Standard {
    fn status(&self) -> u16 {
        self.rejections[0].0.status().as_u16()
    }

    /// Each rejection's message, with its cause: "`Invalid JSON`: the body is not JSON, or is
    /// empty." — short, as it is shown on every operation that references it.
    fn description(&self) -> String {
        let sentences: Vec<String> = self
            .rejections
            .iter()
            .map(|&(rejection, cause)| {
                let mut sentence = format!("`{}`", rejection.message());
                if !cause.is_empty() {
                    sentence.push_str(": ");
                    sentence.push_str(cause);
                }
                if rejection == Rejection::ValidationFailed {
                    sentence.push_str("; ");
                    sentence.push_str(DETAILS);
                }
                sentence.push('.');
                sentence
            })
            .collect();
        sentences.join(" ")
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

/// The reference to the component that documents the pipeline's `status` answers to an
/// operation whose request body has the media type `body_media` (`None`: no body), and that
/// component's description.
pub(super) fn standard_ref(status: u16, body_media: Option<&str>) -> Option<(Value, String)> {
    let name = match (status, body_media) {
        (400, None) => Some(VALIDATION_FAILED),
        (400, Some("application/json")) => Some(INVALID_JSON_BODY),
        (400, Some("multipart/form-data")) => Some(INVALID_MULTIPART_BODY),
        (400, Some(_)) => Some(UNREADABLE_BODY),
        (413, Some("multipart/form-data")) => Some(MULTIPART_TOO_LARGE),
        (413, _) => Some(PAYLOAD_TOO_LARGE),
        _ => None,
    };
    STANDARD
        .iter()
        .find(|standard| name.map_or(standard.status() == status, |name| standard.name == name))
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
    fn every_rejection_is_documented_with_its_status() {
        for rejection in Rejection::ALL {
            let found: Vec<&Standard> = STANDARD
                .iter()
                .filter(|s| s.rejections.iter().any(|&(r, _)| r == rejection))
                .collect();
            if matches!(
                rejection,
                Rejection::RequestTimeout
                    // Documented on each operation that requires credentials (`entry.rs`).
                    | Rejection::Unauthorized
                    | Rejection::MalformedRequest
                    | Rejection::UriTooLong
                    | Rejection::HeadTooLarge
                    | Rejection::InvalidUri
            ) {
                assert!(found.is_empty());
                continue;
            }
            assert!(!found.is_empty(), "{rejection:?}");
            assert!(
                found
                    .iter()
                    .all(|s| s.status() == rejection.status().as_u16()),
                "{rejection:?}"
            );
        }
        for standard in &STANDARD {
            assert!(standard
                .rejections
                .iter()
                .all(|(r, _)| r.status().as_u16() == standard.status()));
        }
    }

    #[test]
    fn a_400_names_only_what_the_operation_can_meet() {
        let description = |media| standard_ref(400, media).unwrap().1;
        let without_body = description(None);
        assert_eq!(
            without_body,
            "`Validation failed`: the params or query do not fit their type or rules; \
             `details` has one entry per failing field."
        );
        let json = description(Some("application/json"));
        assert!(json.contains("`Invalid JSON`"), "{json}");
        assert!(!json.contains("multipart"), "{json}");
        let multipart = description(Some("multipart/form-data"));
        assert!(
            multipart.contains("`Invalid multipart body`"),
            "{multipart}"
        );
        assert!(!multipart.contains("JSON"), "{multipart}");
        let stream = description(Some("application/octet-stream"));
        assert!(stream.contains("`Failed to read request body`"), "{stream}");
        assert!(
            !stream.contains("JSON") && !stream.contains("multipart"),
            "{stream}"
        );
        let too_large = |media| standard_ref(413, Some(media)).unwrap().1;
        assert!(!too_large("application/json").contains("field"));
        assert!(too_large("multipart/form-data").contains("a field over its own"));
        // Every description stays short: it is repeated on every operation.
        for standard in &STANDARD {
            assert!(standard.description().len() <= 240, "{}", standard.name);
        }
        assert_eq!(
            standard_ref(500, None).unwrap().0,
            json!({ "$ref": "#/components/responses/InternalError" })
        );
    }
}
