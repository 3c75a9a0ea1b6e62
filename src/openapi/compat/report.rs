//! [`Change`] and [`Report`]: what [`compare`](super::compare) found, one line per change.

use std::fmt;

use super::kind::ChangeKind;

/// One difference between two documents, classified.
///
/// ```
/// use pactum::openapi::compat::{compare, ChangeKind};
/// use serde_json::json;
///
/// let old = json!({"paths": {"/health": {"get": {"responses": {"204": {}}}}}});
/// let new = json!({"paths": {}});
/// let report = compare(&old, &new);
/// let change = &report.changes()[0];
/// assert_eq!(change.kind(), ChangeKind::OperationRemoved);
/// assert!(change.is_breaking());
/// assert_eq!(change.location(), "GET /health");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub(super) kind: ChangeKind,
    pub(super) breaking: bool,
    pub(super) location: String,
    pub(super) detail: String,
}

impl Change {
    /// The rule the change falls under.
    pub fn kind(&self) -> ChangeKind {
        self.kind
    }

    /// Whether clients written against the old document may break.
    pub fn is_breaking(&self) -> bool {
        self.breaking
    }

    /// Where the change is: `GET /users/{id} → response 200 → body.name`,
    /// `POST /users → request → query.limit`, `GET /me → security`.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// What changed and why it matters, in a few words (`maxLength 50 → 20: requests that
    /// were valid are refused`). The wording is not a stable API.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.breaking {
            "BREAKING  "
        } else {
            "compatible"
        };
        write!(
            f,
            "{verdict} {}: {} ({})",
            self.location, self.kind, self.detail
        )
    }
}

/// Every difference [`compare`](super::compare) found between two documents, breaking ones
/// first, each group in the documents' order (paths sorted, then methods, then the parts of
/// an operation).
///
/// Its `Display` is one line per change (`BREAKING` or `compatible`, the location, the rule,
/// what changed and why), or `no changes`.
///
/// ```
/// use pactum::openapi::compat::compare;
/// use serde_json::json;
///
/// let old = json!({"paths": {"/health": {"get": {"responses": {"204": {}}}}}});
/// let new = json!({"paths": {
///     "/health": {"get": {"responses": {"204": {}}}},
///     "/ready": {"get": {"responses": {"204": {}}}},
/// }});
/// let report = compare(&old, &new);
/// assert!(report.is_compatible());
/// assert_eq!(
///     report.to_string(),
///     "compatible GET /ready: operation-added (new operation: no client calls it yet)\n",
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub(super) changes: Vec<Change>,
}

impl Report {
    pub(super) fn new(mut changes: Vec<Change>) -> Self {
        // Stable: within each group, the order the documents were walked in.
        changes.sort_by_key(|change| !change.breaking);
        Self { changes }
    }

    /// Every change, breaking ones first.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The changes that may break clients of the old document.
    pub fn breaking(&self) -> impl Iterator<Item = &Change> + '_ {
        self.changes.iter().filter(|c| c.breaking)
    }

    /// True when no change breaks clients (compatible changes, or none at all).
    pub fn is_compatible(&self) -> bool {
        self.breaking().next().is_none()
    }

    /// True when the documents describe the same API (descriptions and other prose aside).
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            return writeln!(f, "no changes");
        }
        for change in &self.changes {
            writeln!(f, "{change}")?;
        }
        Ok(())
    }
}
