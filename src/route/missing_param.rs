//! [`MissingParam`]: why a route could not be rendered into a path.

use std::fmt;

/// A route param that had no value when the route was rendered
/// ([`RouteTemplate::render`](super::RouteTemplate::render)): a `:name` or `*name` the params
/// did not give, or gave as something other than a string, number or bool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingParam {
    name: String,
}

impl MissingParam {
    pub(super) fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
        }
    }

    /// The param's name, as the route writes it (`id` for `:id`).
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for MissingParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no value for route param `{}`", self.name)
    }
}

impl std::error::Error for MissingParam {}
