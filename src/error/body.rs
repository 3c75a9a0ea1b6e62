//! The wire format of every error answer: [`ErrorBody`], [`Detail`], [`PathSegment`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// The JSON body of every error answer: `{"error": ..., "details": [...], "code": ...}`.
///
/// `details` is omitted when empty and `code` when unset. The typed client decodes error
/// answers into this type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The readable message.
    pub error: String,
    /// One entry per failing field, where the error has them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Detail>,
    /// A machine-readable code, where the error carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// One failing field: where it is and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Detail {
    /// The path from the root of the value to the field, e.g. `["items", 1, "qty"]`.
    pub path: Vec<PathSegment>,
    /// A readable message, e.g. `length must be between 1 and 50`.
    pub message: String,
}

impl Detail {
    /// A detail for the field at `path`.
    pub fn new(path: Vec<PathSegment>, message: impl Into<String>) -> Self {
        Self {
            path,
            message: message.into(),
        }
    }
}

/// One step of a [`Detail`] path: a field name or a list index.
///
/// Serialised as a JSON string or number.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// A list index.
    Index(usize),
    /// A field or map key.
    Key(String),
}

impl From<&str> for PathSegment {
    fn from(key: &str) -> Self {
        Self::Key(key.to_owned())
    }
}

impl From<String> for PathSegment {
    fn from(key: String) -> Self {
        Self::Key(key)
    }
}

impl From<usize> for PathSegment {
    fn from(index: usize) -> Self {
        Self::Index(index)
    }
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Index(i) => write!(f, "{i}"),
            Self::Key(k) => f.write_str(k),
        }
    }
}
