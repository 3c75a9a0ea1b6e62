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
    pub(crate) fn new(template: &Cow<'static, str>) -> Self {
        match template {
            Cow::Borrowed(text) => Self::Static(text),
            Cow::Owned(text) => Self::Shared(Arc::from(text.as_str())),
        }
    }
}

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
