//! [`RouteName`]: a route's template as each request carries it.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A route's template (`/users/:id`) as each of its requests carries it: borrowed when the
/// route was written as a literal (`route!`, the usual case), so a request touches no
/// reference count for it; shared when the template was built at run time (a prefix from
/// `nest`, a `Runtime` route).
#[derive(Clone)]
pub(crate) enum RouteName {
    Static(&'static str),
    Shared(Arc<str>),
}

impl RouteName {
    #[allow(clippy::ptr_arg)] // which `Cow` it is is the point
    pub(crate) fn new(template: &Cow<'static, str>) -> Self {
        match template {
            Cow::Borrowed(text) => Self::Static(text),
            Cow::Owned(text) => Self::Shared(Arc::from(text.as_str())),
        }
    }
}

impl RouteName {
    /// `part` (a param's name), borrowed from `template` when the template is a literal that
    /// holds that text, else shared.
    #[allow(clippy::ptr_arg)] // which `Cow` it is is the point
    pub(crate) fn part_of(template: &Cow<'static, str>, part: &str) -> Self {
        match template {
            Cow::Borrowed(text) => match text.find(part) {
                Some(at) => Self::Static(&text[at..at + part.len()]),
                None => Self::Shared(Arc::from(part)),
            },
            Cow::Owned(_) => Self::Shared(Arc::from(part)),
        }
    }
}

impl From<&str> for RouteName {
    /// A name made at run time: shared.
    fn from(text: &str) -> Self {
        Self::Shared(Arc::from(text))
    }
}

impl AsRef<str> for RouteName {
    #[inline]
    fn as_ref(&self) -> &str {
        self
    }
}

impl PartialEq for RouteName {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for RouteName {}

impl Deref for RouteName {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            Self::Static(text) => text,
            Self::Shared(text) => text,
        }
    }
}

impl fmt::Display for RouteName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for RouteName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_is_borrowed_and_a_built_template_shared() {
        let literal = RouteName::new(&Cow::Borrowed("/users/:id"));
        assert!(matches!(literal, RouteName::Static("/users/:id")));
        let built = RouteName::new(&Cow::Owned("/api/users/:id".to_owned()));
        assert!(matches!(&built, RouteName::Shared(_)));
        assert_eq!(&*built.clone(), "/api/users/:id");
        assert_eq!(
            format!("{literal} {built:?}"),
            "/users/:id \"/api/users/:id\""
        );
    }
}
