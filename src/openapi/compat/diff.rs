//! [`Diff`]: the two documents being compared, and the changes found so far.

use std::fmt::Display;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::kind::{ChangeKind, Side};
use super::report::Change;

/// The separator between the parts of a location.
pub(super) const ARROW: &str = " → ";

/// `null`, for a part one document lacks.
pub(super) static NULL: Value = Value::Null;

static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

/// The object `value` is, or an empty one (a missing or mistyped part).
pub(super) fn object(value: Option<&Value>) -> &Map<String, Value> {
    value.and_then(Value::as_object).unwrap_or(&EMPTY)
}

/// The two documents, and what has been found.
#[derive(Debug)]
pub(super) struct Diff<'a> {
    /// The old document (the snapshot).
    pub(super) old: &'a Value,
    /// The new document (the current build).
    pub(super) new: &'a Value,
    changes: Vec<Change>,
}

impl<'a> Diff<'a> {
    pub(super) fn new(old: &'a Value, new: &'a Value) -> Self {
        Self {
            old,
            new,
            changes: Vec::new(),
        }
    }

    /// Records a change classified by the rules table.
    pub(super) fn push(&mut self, kind: ChangeKind, side: Side, at: &str, what: impl Display) {
        self.push_as(kind, side, kind.breaks(side), at, what);
    }

    /// Records a change whose classification the caller decided (a rule with an exception).
    pub(super) fn push_as(
        &mut self,
        kind: ChangeKind,
        side: Side,
        breaking: bool,
        at: &str,
        what: impl Display,
    ) {
        self.changes.push(Change {
            kind,
            breaking,
            location: at.to_owned(),
            detail: format!("{what}: {}", kind.why(side, breaking)),
        });
    }

    pub(super) fn into_changes(self) -> Vec<Change> {
        self.changes
    }
}

/// `value` as short JSON for a detail (`"admin"`, `50`, `["a", "b"]`).
pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}
