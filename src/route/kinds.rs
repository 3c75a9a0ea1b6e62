//! The three route kinds ([`Static`], [`Pattern`], [`Dynamic`]), the functions that make them
//! at run time, and the [`Route`] trait a contract's route kind implements.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use super::literal::{RouteLiteral, Runtime};

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
pub(super) enum DotSegments {
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
    /// # Ok::<(), pactum::error::ConfigError>(())
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
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a route: write the path as `route!(\"/path\")`",
    label = "use `route!(..)` here",
    note = "for a path known only at run time: `route::static_path(..)`, `route::pattern(..)` or `route::dynamic(..)`"
)]
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
