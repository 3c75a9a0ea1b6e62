//! Turns `validator` and serde failures into [`Detail`]s with paths and readable messages.

use serde_json::Value;
use validator::{ValidationError, ValidationErrors, ValidationErrorsKind};

use crate::error::{Detail, PathSegment};

impl Detail {
    /// One detail per failed `validator` rule, with its path and a readable message (made
    /// from the rule when it has none), sorted by path. The server and the typed client
    /// report validation failures with this.
    pub fn from_validation(errors: &ValidationErrors) -> Vec<Self> {
        details_from_rules(errors)
    }
}

/// Flattens `validator` errors into details sorted by path, one per failed rule.
pub(crate) fn details_from_rules(errors: &ValidationErrors) -> Vec<Detail> {
    let mut details = Vec::new();
    collect(errors, &mut Vec::new(), &mut details);
    details.sort();
    details
}

fn collect(errors: &ValidationErrors, path: &mut Vec<PathSegment>, out: &mut Vec<Detail>) {
    for (field, kind) in errors.errors() {
        // `__all__` carries struct-level (schema) rules: they belong to the struct itself.
        let pushed = field != "__all__";
        if pushed {
            path.push(PathSegment::Key(field.to_string()));
        }
        match kind {
            ValidationErrorsKind::Field(errors) => {
                out.extend(errors.iter().map(|e| Detail::new(path.clone(), message(e))));
            }
            ValidationErrorsKind::Struct(inner) => collect(inner, path, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    path.push(PathSegment::Index(*index));
                    collect(inner, path, out);
                    path.pop();
                }
            }
        }
        if pushed {
            path.pop();
        }
    }
}

/// The rule's own message, or one made from its code and parameters.
pub(crate) fn message(error: &ValidationError) -> String {
    if let Some(message) = &error.message {
        return message.to_string();
    }
    let param = |name: &str| error.params.get(name).map(display_value);
    match &*error.code {
        "length" => bounds("length must be", &param),
        "range" => {
            let min = param("min").or_else(|| param("exclusive_min"));
            let max = param("max").or_else(|| param("exclusive_max"));
            match (min, max) {
                (Some(min), Some(max)) => format!("must be between {min} and {max}"),
                (Some(min), None) if error.params.contains_key("exclusive_min") => {
                    format!("must be greater than {min}")
                }
                (Some(min), None) => format!("must be at least {min}"),
                (None, Some(max)) if error.params.contains_key("exclusive_max") => {
                    format!("must be less than {max}")
                }
                (None, Some(max)) => format!("must be at most {max}"),
                (None, None) => "is out of range".to_owned(),
            }
        }
        "email" => "must be a valid email address".to_owned(),
        "url" => "must be a valid URL".to_owned(),
        "regex" => "does not match the required pattern".to_owned(),
        "contains" => match param("needle") {
            Some(needle) => format!("must contain {needle:?}"),
            None => "is missing a required part".to_owned(),
        },
        "does_not_contain" => match param("needle") {
            Some(needle) => format!("must not contain {needle:?}"),
            None => "contains a forbidden part".to_owned(),
        },
        "must_match" => match param("other") {
            Some(other) => format!("must match {other}"),
            None => "must match the other field".to_owned(),
        },
        "credit_card" => "must be a valid credit card number".to_owned(),
        "non_control_character" => "must not contain control characters".to_owned(),
        "required" => "is required".to_owned(),
        "ip" | "ipv4" | "ipv6" => "must be a valid IP address".to_owned(),
        code => format!("failed the `{code}` rule"),
    }
}

fn bounds(prefix: &str, param: &dyn Fn(&str) -> Option<String>) -> String {
    if let Some(equal) = param("equal") {
        return format!("{prefix} exactly {equal}");
    }
    match (param("min"), param("max")) {
        (Some(min), Some(max)) => format!("{prefix} between {min} and {max}"),
        (Some(min), None) => format!("{prefix} at least {min}"),
        (None, Some(max)) => format!("{prefix} at most {max}"),
        (None, None) => format!("{prefix} valid"),
    }
}

fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The detail for a serde shape error (wrong type, missing field) at `path`.
#[cfg(feature = "pipeline")]
pub(crate) fn detail_from_serde<E: std::fmt::Display>(
    path: &serde_path_to_error::Path,
    error: &E,
) -> Detail {
    use serde_path_to_error::Segment;
    let path = path
        .iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(PathSegment::Index(*index)),
            Segment::Map { key } => Some(PathSegment::Key(key.clone())),
            Segment::Enum { .. } | Segment::Unknown => None,
        })
        .collect();
    Detail::new(path, strip_position(&error.to_string()))
}

/// serde_json appends ` at line L column C`; the path already says where.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => message[..at].to_owned(),
        _ => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use validator::Validate;

    #[derive(Debug, serde::Serialize, Deserialize, Validate)]
    struct Item {
        #[validate(length(min = 1, max = 20))]
        sku: String,
        #[validate(range(min = 1, max = 99))]
        qty: u32,
    }

    #[derive(Debug, serde::Serialize, Deserialize, Validate)]
    struct Order {
        #[validate(length(min = 1), nested)]
        items: Vec<Item>,
        #[validate(email)]
        email: String,
        #[validate(length(max = 3, message = "too many notes"))]
        notes: Vec<String>,
    }

    #[test]
    fn nested_list_paths_and_generated_messages() {
        let order = Order {
            items: vec![
                Item {
                    sku: "ok".into(),
                    qty: 1,
                },
                Item {
                    sku: String::new(),
                    qty: 100,
                },
            ],
            email: "nope".into(),
            notes: vec![String::new(); 4],
        };
        let details = details_from_rules(&order.validate().unwrap_err());
        let as_json = serde_json::to_value(&details).unwrap();
        assert_eq!(
            as_json,
            serde_json::json!([
                {"path": ["email"], "message": "must be a valid email address"},
                {"path": ["items", 1, "qty"], "message": "must be between 1 and 99"},
                {"path": ["items", 1, "sku"], "message": "length must be between 1 and 20"},
                {"path": ["notes"], "message": "too many notes"},
            ])
        );
    }

    #[test]
    fn one_sided_bounds() {
        let mut e = ValidationError::new("length");
        e.add_param("min".into(), &1);
        assert_eq!(message(&e), "length must be at least 1");
        let mut e = ValidationError::new("range");
        e.add_param("max".into(), &150);
        assert_eq!(message(&e), "must be at most 150");
        assert_eq!(
            message(&ValidationError::new("odd")),
            "failed the `odd` rule"
        );
    }

    #[test]
    fn serde_positions_are_stripped() {
        assert_eq!(
            strip_position("invalid type: string \"x\", expected u32 at line 1 column 9"),
            "invalid type: string \"x\", expected u32"
        );
        assert_eq!(strip_position("missing field `a`"), "missing field `a`");
    }
}
