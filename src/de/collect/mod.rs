//! Every shape error of a value, not only the first: the error path of the pipeline's
//! decoding.
//!
//! serde stops at the first error. When a value fails to deserialise, [`collect`] reads it
//! again through [`Collect`](wrap::Collect), a deserializer wrapped around the real one (the
//! query's `serde_qs`, the params' text map, a JSON document's [`tree::Node`]) that, at every
//! depth:
//!
//! - records a value refused before its visitor ran (a string for a number, a number out of
//!   range, a list for a struct) with its path, and hands the visitor a placeholder of the
//!   asked type instead, so the rest of the document is still read;
//! - records a missing field with its own path (`["email"]`) and reads the document again
//!   with a placeholder for that field, so fields missing later are found too (bounded
//!   passes);
//! - records any other error (one the type's own visitor raised: an unknown enum variant,
//!   `deny_unknown_fields`, a custom `deserialize_with`) at its path, and stops there:
//!   details found before it are kept.
//!
//! The happy path never comes here: decoding runs the plain deserializer first.

mod access;
mod key;
mod placeholder;
mod proxy;
mod tree;
mod wrap;

use std::cell::{Cell, RefCell};

use serde::{Deserialize, Deserializer};

use crate::error::{Detail, PathSegment};

pub(crate) use tree::Node;

impl Detail {
    /// Every shape error of the JSON document `json` read as a `T`, in document order, each
    /// with its path — what the pipeline reports for a body (a missing field is named by its
    /// own path, a number out of range says so). A document that is not JSON gives one detail
    /// with an empty path and the parser's message; one that reads as a `T` gives none.
    ///
    /// The typed client reports responses that do not fit their contract with it.
    ///
    /// ```
    /// use pactum::{error::Detail, error::PathSegment};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct User { id: u64, name: String }
    ///
    /// let details = Detail::from_json::<User>(br#"{"id": -1}"#);
    /// assert_eq!(details.len(), 2);
    /// assert_eq!(details[0].path, vec![PathSegment::from("id")]);
    /// assert_eq!(details[1].message, "missing field `name`");
    /// ```
    pub fn from_json<T: serde::de::DeserializeOwned>(json: &[u8]) -> Vec<Detail> {
        let text = match std::str::from_utf8(json) {
            Ok(text) => text,
            Err(e) => return vec![Detail::new(Vec::new(), format!("not UTF-8: {e}"))],
        };
        match Node::parse(text) {
            Ok(tree) => {
                let reader = || Some(crate::de::json_as_schema::Json(&tree));
                collect::<T, _>(reader, json.len()).details
            }
            Err(syntax) => vec![Detail::new(Vec::new(), message(&syntax))],
        }
    }
}

/// What [`collect`] found: the shape errors in document order, and the value with
/// placeholders in place of the failed parts when the last reading reached its end (its
/// rules can then be checked on the fields that did parse).
pub(crate) struct Collected<T> {
    pub(crate) details: Vec<Detail>,
    #[cfg_attr(not(feature = "pipeline"), allow(dead_code))]
    pub(crate) value: Option<T>,
}

/// Reads a value `make` gives a deserializer for (`None` ends the reading), collecting its
/// shape errors. `size` is the input's length: the number of readings (one more per missing
/// field) is bounded so that all of them together read at most 16 MiB, and at most 64.
pub(crate) fn collect<'de, T, D>(mut make: impl FnMut() -> Option<D>, size: usize) -> Collected<T>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let max_passes = ((16 << 20) / size.max(1)).clamp(2, 64);
    let state = State::default();
    for pass in 1.. {
        state.start_pass();
        let root = Path::Root;
        let Some(deserializer) = make() else { break };
        match T::deserialize(wrap::Collect::new(deserializer, &root, &state)) {
            Ok(value) => {
                return Collected {
                    details: state.details.take(),
                    value: Some(value),
                }
            }
            Err(error) => {
                if !state.handled.get() {
                    state.record(&root, message(&error));
                }
                if !(state.restart.get() && pass < max_passes) {
                    break;
                }
            }
        }
    }
    Collected {
        details: state.details.take(),
        value: None,
    }
}

/// Where a value is, as a chain of borrowed steps (built on the stack as the reading goes
/// down; made into a [`Detail`] path only when something is recorded).
#[derive(Debug, Clone, Copy)]
pub(super) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub(super) fn segments(&self) -> Vec<PathSegment> {
        let mut out = Vec::new();
        self.push_into(&mut out);
        out
    }

    fn push_into(&self, out: &mut Vec<PathSegment>) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.push_into(out);
                out.push(PathSegment::Key((*key).to_owned()));
            }
            Path::Index(parent, index) => {
                parent.push_into(out);
                out.push(PathSegment::Index(*index));
            }
        }
    }
}

/// What one reading has found so far, shared by every level of the wrapped deserializer.
#[derive(Default)]
pub(super) struct State {
    details: RefCell<Vec<Detail>>,
    /// Fields found missing, by the path of their struct: later readings feed each a
    /// placeholder (and record it as missing).
    missing: RefCell<Vec<(Vec<PathSegment>, &'static str)>>,
    /// A field was found missing in this reading: read again.
    restart: Cell<bool>,
    /// The error now travelling up has been recorded (or is a placeholder's own): the levels
    /// above pass it on untouched.
    pub(super) handled: Cell<bool>,
    /// Why the last value was refused before its visitor ran.
    pub(super) refusal: RefCell<Option<String>>,
}

impl State {
    fn start_pass(&self) {
        self.details.borrow_mut().clear();
        self.restart.set(false);
        self.handled.set(false);
        self.refusal.take();
    }

    pub(super) fn record(&self, path: &Path<'_>, message: String) {
        self.details
            .borrow_mut()
            .push(Detail::new(path.segments(), message));
    }

    /// `field` of the struct at `path` is missing: record it, and read again with a
    /// placeholder for it (unless it already had one).
    pub(super) fn missing_field(&self, path: &Path<'_>, field: &'static str) {
        let at = path.segments();
        let mut field_path = at.clone();
        field_path.push(PathSegment::Key(field.to_owned()));
        self.details
            .borrow_mut()
            .push(Detail::new(field_path, format!("missing field `{field}`")));
        let mut missing = self.missing.borrow_mut();
        if !missing.iter().any(|(p, f)| *p == at && *f == field) {
            missing.push((at, field));
            self.restart.set(true);
        }
    }

    /// The fields of the struct at `path` found missing by earlier readings.
    pub(super) fn missing_at(&self, path: &Path<'_>) -> Vec<&'static str> {
        let missing = self.missing.borrow();
        if missing.is_empty() {
            return Vec::new();
        }
        let at = path.segments();
        missing
            .iter()
            .filter(|(p, _)| *p == at)
            .map(|(_, f)| *f)
            .collect()
    }
}

/// An error's message without serde_json's ` at line L column C` (the path says where).
pub(super) fn message(error: &impl std::fmt::Display) -> String {
    crate::validation::strip_position(&error.to_string())
}

#[cfg(test)]
mod tests;
