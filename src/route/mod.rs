//! Routes: the three kinds a contract can declare, and the parsed [`RouteTemplate`].
//!
//! - [`static_path`]: a fixed path, no params (`/health`).
//! - [`pattern`]: `:name` segments, any number (`/orgs/:org/repos/:repo`).
//! - [`dynamic`]: a pattern whose last segment is a catch-all `*name` capturing the rest of the
//!   path, slashes included (`/files/*path`).
//!
//! A route written as a literal is best declared with [`route!`](crate::route!), which checks
//! it while compiling and picks its kind: `route!("/users/:id")`. Its params type then derives
//! [`Params`](crate::Params), and a params type whose field names are not the route's names
//! does not compile. The functions above are for routes made at run time; their names are
//! checked when the contract is built.
//!
//! The kind is part of the contract's type: `.params::<T>()` is only offered on a pattern or a
//! dynamic route, and such a route cannot be built without it.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::error::ConfigError;

mod literal;

#[doc(hidden)]
pub use literal::{__check_names, CheckParams};
pub use literal::{ParamNames, RouteLiteral, Runtime};

/// A fixed path with no params. Made by [`static_path`].
#[derive(Debug, Clone)]
pub struct Static(Cow<'static, str>);

/// A path with `:name` params. Made by [`pattern`], or by [`route!`](crate::route!) with the
/// route's names in `L` ([`Runtime`] for a route made by [`pattern`]).
pub struct Pattern<L = Runtime>(Cow<'static, str>, PhantomData<L>);

/// A path whose last segment is a catch-all `*name`. Made by [`dynamic`], or by
/// [`route!`](crate::route!) with the route's names in `L` ([`Runtime`] for a route made by
/// [`dynamic`]).
pub struct Dynamic<L = Runtime>(Cow<'static, str>, DotSegments, PhantomData<L>);

impl<L> fmt::Debug for Pattern<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.0).finish()
    }
}

impl<L> Clone for Pattern<L> {
    fn clone(&self) -> Self {
        Self(self.0.clone(), PhantomData)
    }
}

impl<L> fmt::Debug for Dynamic<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Dynamic")
            .field(&self.0)
            .field(&self.1)
            .finish()
    }
}

impl<L> Clone for Dynamic<L> {
    fn clone(&self) -> Self {
        Self(self.0.clone(), self.1, PhantomData)
    }
}

impl<L: RouteLiteral> Pattern<L> {
    /// The route of a `route!` literal. Not an API: made by [`route!`](crate::route!).
    #[doc(hidden)]
    pub fn __literal() -> Self {
        Self(Cow::Borrowed(L::PATH), PhantomData)
    }
}

impl<L: RouteLiteral> Dynamic<L> {
    /// The route of a `route!` literal. Not an API: made by [`route!`](crate::route!).
    #[doc(hidden)]
    pub fn __literal() -> Self {
        Self(Cow::Borrowed(L::PATH), DotSegments::Refused, PhantomData)
    }
}

/// Whether a catch-all value may hold empty, `.` and `..` segments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum DotSegments {
    #[default]
    Refused,
    Allowed,
}

/// A fixed path with no params, e.g. `/health`.
///
/// The path is checked when the contract is built: it must start with `/` and hold no
/// `:name` or `*name` segment.
pub fn static_path(path: impl Into<Cow<'static, str>>) -> Static {
    Static(path.into())
}

/// A path with one or more `:name` params, e.g. `/orgs/:org/repos/:repo`.
///
/// Checked when the contract is built: at least one param, unique names, no catch-all.
pub fn pattern(path: impl Into<Cow<'static, str>>) -> Pattern {
    Pattern(path.into(), PhantomData)
}

/// A path whose last segment is a catch-all `*name`, e.g. `/files/*path`; it may also hold
/// `:name` params before it.
///
/// The catch-all captures the rest of the path, slashes included, and does not match an empty
/// rest (`/files/` is not found). Its value is percent-decoded; by default a value with an
/// empty, `.` or `..` segment once decoded (`a//b`, `a/../b`, `%2e%2e`, `a%2F..%2Fb`) is
/// refused with a 400 naming the param, so a handler that maps it to a file path is not open
/// to traversal. [`Dynamic::allow_dot_segments`] lets such values through.
pub fn dynamic(path: impl Into<Cow<'static, str>>) -> Dynamic {
    Dynamic(path.into(), DotSegments::Refused, PhantomData)
}

impl<L> Dynamic<L> {
    /// Lets catch-all values with empty, `.` and `..` segments reach the handler as they are
    /// (a value that is not UTF-8 once decoded is still refused).
    ///
    /// ```
    /// use pactum::{route, Endpoint};
    /// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate, pactum::Params)]
    /// # struct Tail { rest: String }
    /// let raw = Endpoint::get(route!("/raw/*rest").allow_dot_segments())
    ///     .params::<Tail>()
    ///     .build()?;
    /// assert!(raw.route().allows_dot_segments());
    /// # Ok::<(), pactum::ConfigError>(())
    /// ```
    #[must_use]
    pub fn allow_dot_segments(mut self) -> Self {
        self.1 = DotSegments::Allowed;
        self
    }
}

/// Which of the three kinds a route is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteKind {
    /// [`static_path`].
    Static,
    /// [`pattern`].
    Pattern,
    /// [`dynamic`].
    Dynamic,
}

mod sealed {
    pub trait Sealed {}
}

/// A route value a contract can be declared with: [`Static`], [`Pattern`] or [`Dynamic`].
pub trait Route: sealed::Sealed {
    /// The kind of route.
    const KIND: RouteKind;
    #[doc(hidden)]
    fn into_path(self) -> Cow<'static, str>;
    #[doc(hidden)]
    fn allows_dot_segments(&self) -> bool {
        false
    }
}

/// Marks the route kinds that carry params ([`Pattern`], [`Dynamic`]).
#[diagnostic::on_unimplemented(
    message = "a static route has no path parameters: remove `.params::<T>()`",
    label = "this route has no `:name` or `*name` segment",
    note = "a route with params: `route!(\"/users/:id\")`"
)]
pub trait HasParams: Route {}

impl sealed::Sealed for Static {}
impl Route for Static {
    const KIND: RouteKind = RouteKind::Static;
    fn into_path(self) -> Cow<'static, str> {
        self.0
    }
}

impl<L> sealed::Sealed for Pattern<L> {}
impl<L> Route for Pattern<L> {
    const KIND: RouteKind = RouteKind::Pattern;
    fn into_path(self) -> Cow<'static, str> {
        self.0
    }
}

impl<L> sealed::Sealed for Dynamic<L> {}
impl<L> Route for Dynamic<L> {
    const KIND: RouteKind = RouteKind::Dynamic;
    fn into_path(self) -> Cow<'static, str> {
        self.0
    }
    fn allows_dot_segments(&self) -> bool {
        self.1 == DotSegments::Allowed
    }
}
/// The route kinds with params (see [`HasParams`]).
mod with_params {
    pub trait WithParams {}
    impl<L> WithParams for super::Pattern<L> {}
    impl<L> WithParams for super::Dynamic<L> {}
}

// A blanket impl marked `do_not_recommend`: a static route reports `HasParams`'s message alone,
// without a list of the kinds that implement it.
#[diagnostic::do_not_recommend]
impl<K: Route + with_params::WithParams> HasParams for K {}

/// One segment of a route template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// A fixed segment.
    Literal(String),
    /// `:name`.
    Param(String),
    /// `*name`, the last segment of a dynamic route.
    CatchAll(String),
}

/// A parsed, checked route: its segments and the names of its params.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteTemplate {
    raw: Cow<'static, str>,
    kind: RouteKind,
    segments: Vec<Segment>,
    dot_segments: DotSegments,
}

/// What percent-encoding leaves alone in a path segment: RFC 3986 unreserved characters.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

impl RouteTemplate {
    /// Parses and checks `raw` as a route of `kind`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when the path does not start with `/`, a name is empty,
    /// not made of ASCII letters, digits and `_`, or repeated, a catch-all is not last, or the
    /// params do not fit the kind (a static route with params, a pattern without any, a dynamic
    /// route without a final catch-all).
    pub fn parse(raw: Cow<'static, str>, kind: RouteKind) -> Result<Self, ConfigError> {
        let invalid = |reason: &str| ConfigError::InvalidRoute {
            route: raw.to_string(),
            reason: reason.to_owned(),
        };
        let Some(rest) = raw.strip_prefix('/') else {
            return Err(invalid("a route must start with `/`"));
        };
        let mut segments = Vec::new();
        if !rest.is_empty() {
            for piece in rest.split('/') {
                let segment = if let Some(name) = piece.strip_prefix(':') {
                    Segment::Param(name.to_owned())
                } else if let Some(name) = piece.strip_prefix('*') {
                    Segment::CatchAll(name.to_owned())
                } else {
                    Segment::Literal(piece.to_owned())
                };
                segments.push(segment);
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for (index, segment) in segments.iter().enumerate() {
            let name = match segment {
                Segment::Literal(_) => continue,
                Segment::Param(name) => name,
                Segment::CatchAll(name) => {
                    if index + 1 != segments.len() {
                        return Err(invalid("a catch-all `*name` must be the last segment"));
                    }
                    name
                }
            };
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(invalid(
                    "a param name must be non-empty ASCII letters, digits or `_`",
                ));
            }
            if names.contains(&name.as_str()) {
                return Err(invalid(&format!("the param name `{name}` is repeated")));
            }
            names.push(name);
        }
        let has_params = segments.iter().any(|s| matches!(s, Segment::Param(_)));
        let has_catch_all = matches!(segments.last(), Some(Segment::CatchAll(_)));
        match kind {
            RouteKind::Static if has_params || has_catch_all => Err(invalid(
                "a static route cannot hold `:name` or `*name` segments: use `route::pattern` or `route::dynamic`",
            )),
            RouteKind::Pattern if has_catch_all => Err(invalid(
                "a pattern route cannot hold a catch-all: use `route::dynamic`",
            )),
            RouteKind::Pattern if !has_params => Err(invalid(
                "a pattern route needs at least one `:name` segment: use `route::static_path`",
            )),
            RouteKind::Dynamic if !has_catch_all => Err(invalid(
                "a dynamic route must end with a catch-all `*name` segment",
            )),
            _ => Ok(Self {
                raw,
                kind,
                segments,
                dot_segments: DotSegments::Refused,
            }),
        }
    }

    /// The route as written, e.g. `/users/:id`.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// The kind of route.
    pub fn kind(&self) -> RouteKind {
        self.kind
    }

    /// `true` when the catch-all's values may hold empty, `.` and `..` segments
    /// ([`Dynamic::allow_dot_segments`]).
    pub fn allows_dot_segments(&self) -> bool {
        self.dot_segments == DotSegments::Allowed
    }

    pub(crate) fn set_allows_dot_segments(&mut self, allowed: bool) {
        self.dot_segments = if allowed {
            DotSegments::Allowed
        } else {
            DotSegments::Refused
        };
    }

    /// The route ends in a catch-all whose segments are checked.
    pub(crate) fn checks_tail(&self) -> bool {
        self.kind == RouteKind::Dynamic && !self.allows_dot_segments()
    }

    /// The segments after the leading `/`.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The names of the params, in route order (the catch-all last).
    pub fn param_names(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Literal(_) => None,
            Segment::Param(n) | Segment::CatchAll(n) => Some(n.as_str()),
        })
    }

    /// The route in the radix tree's syntax (`/users/{id}`, `/files/{*path}`).
    pub(crate) fn to_matcher_syntax(&self) -> String {
        let mut out = String::with_capacity(self.raw.len() + 4);
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Literal(text) => {
                    out.push_str(&text.replace('{', "{{").replace('}', "}}"));
                }
                Segment::Param(name) => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
                Segment::CatchAll(name) => {
                    out.push_str("{*");
                    out.push_str(name);
                    out.push('}');
                }
            }
        }
        if out.is_empty() {
            out.push('/');
        }
        out
    }

    /// Builds the path for the given param values, percent-encoding each segment: a `/` inside
    /// a `:name` value stays inside its segment (`%2F`); a catch-all value keeps its slashes.
    ///
    /// # Errors
    ///
    /// Returns the name of the first param `value_of` has no value for.
    pub fn render<'a>(
        &self,
        mut value_of: impl FnMut(&str) -> Option<Cow<'a, str>>,
    ) -> Result<String, String> {
        let mut out = String::with_capacity(self.raw.len() + 16);
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Param(name) => {
                    let value = value_of(name).ok_or_else(|| name.clone())?;
                    out.extend(utf8_percent_encode(&value, SEGMENT));
                }
                Segment::CatchAll(name) => {
                    let value = value_of(name).ok_or_else(|| name.clone())?;
                    for (i, piece) in value.split('/').enumerate() {
                        if i > 0 {
                            out.push('/');
                        }
                        out.extend(utf8_percent_encode(piece, SEGMENT));
                    }
                }
            }
        }
        if out.is_empty() {
            out.push('/');
        }
        Ok(out)
    }
}

impl fmt::Display for RouteTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

#[cfg(test)]
mod tests;
