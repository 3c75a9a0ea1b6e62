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

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::error::ConfigError;

mod kinds;
mod literal;
mod missing_param;
// How a request carries its route: the pipeline's only.
#[cfg(feature = "pipeline")]
mod name;

use kinds::DotSegments;
pub use kinds::{
    dynamic, pattern, static_path, Dynamic, HasParams, Pattern, Route, RouteKind, Static,
};
#[cfg(feature = "pipeline")]
pub(crate) use name::RouteName;

#[doc(hidden)]
pub use literal::{Ch, FitsRoute, LiteralFits, LiteralOf, NamesMatch, SameNames};
pub use literal::{ParamNames, RouteLiteral, Runtime};
pub use missing_param::MissingParam;

/// One segment of a route template.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Segment {
    /// A fixed segment.
    Literal(String),
    /// `:name` (or `{name}`).
    Param(String),
    /// `*name` (or `{*name}`), the last segment of a dynamic route.
    CatchAll(String),
}

impl Segment {
    /// One segment as written: `:name` or `{name}` a param, `*name` or `{*name}` a catch-all
    /// (pactum's spelling, and axum 0.8's and OpenAPI's), anything else fixed text. A brace
    /// anywhere else is refused rather than read as text: `/users/{id}.json` would otherwise
    /// be a fixed route that never matches what its writer meant.
    fn parse(piece: &str) -> Result<Self, &'static str> {
        let braced = piece
            .strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'));
        Ok(match braced {
            Some(inner) => match inner.strip_prefix('*') {
                Some(name) => Self::CatchAll(name.to_owned()),
                None => Self::Param(inner.to_owned()),
            },
            None if piece.contains(['{', '}']) => {
                return Err("a param in braces is a whole segment: `{name}` or `{*name}`")
            }
            None => match (piece.strip_prefix(':'), piece.strip_prefix('*')) {
                (Some(name), _) => Self::Param(name.to_owned()),
                (None, Some(name)) => Self::CatchAll(name.to_owned()),
                (None, None) => Self::Literal(piece.to_owned()),
            },
        })
    }
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
    /// Parses and checks `raw` as a route of `kind`. A param is written `:name` or `{name}`,
    /// a catch-all `*name` or `{*name}`: both spellings make the same route.
    ///
    /// ```
    /// use pactum::route::{RouteKind, RouteTemplate};
    ///
    /// let colon = RouteTemplate::parse("/users/:id".into(), RouteKind::Pattern)?;
    /// let braces = RouteTemplate::parse("/users/{id}".into(), RouteKind::Pattern)?;
    /// assert_eq!(colon.segments(), braces.segments());
    /// assert!(RouteTemplate::parse("/users/{id}".into(), RouteKind::Static).is_err());
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when the path does not start with `/`, a brace is not a
    /// whole `{name}` segment, a name is empty, not made of ASCII letters, digits and `_`, or
    /// repeated, a catch-all is not last, or the params do not fit the kind (a static route
    /// with params, a pattern without any, a dynamic route without a final catch-all).
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
                segments.push(Segment::parse(piece).map_err(invalid)?);
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

    /// The route as its requests carry it.
    #[cfg(feature = "pipeline")]
    pub(crate) fn name(&self) -> RouteName {
        RouteName::new(&self.raw)
    }

    /// The names of its params, in route order, as its requests carry them.
    #[cfg(feature = "pipeline")]
    pub(crate) fn param_route_names(&self) -> Vec<RouteName> {
        self.param_names()
            .map(|name| RouteName::part_of(&self.raw, name))
            .collect()
    }

    /// This route under `prefix` (`/api/v1` + `/users/:id` = `/api/v1/users/:id`; the route
    /// `/` becomes the prefix itself), same kind and settings.
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when `prefix` does not start with `/`, ends with `/`, has
    /// an empty segment, or holds a `:name` or `*name` segment (a prefix is literal).
    #[cfg(feature = "pipeline")]
    pub(crate) fn prefixed(&self, prefix: &str) -> Result<Self, ConfigError> {
        let invalid = |reason: &str| ConfigError::InvalidRoute {
            route: format!("{prefix}{}", self.raw),
            reason: reason.to_owned(),
        };
        let Some(rest) = prefix.strip_prefix('/') else {
            return Err(invalid("a prefix must start with `/`"));
        };
        if rest.is_empty() || rest.ends_with('/') || rest.split('/').any(str::is_empty) {
            return Err(invalid(
                "a prefix must be `/` and non-empty segments, without a trailing `/`",
            ));
        }
        if rest
            .split('/')
            .any(|s| s.starts_with(':') || s.starts_with('*'))
        {
            return Err(invalid("a prefix cannot hold `:name` or `*name` segments"));
        }
        let raw = if self.raw == "/" {
            prefix.to_owned()
        } else {
            format!("{prefix}{}", self.raw)
        };
        let mut prefixed = Self::parse(Cow::Owned(raw), self.kind)?;
        prefixed.dot_segments = self.dot_segments;
        Ok(prefixed)
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
    #[cfg(feature = "pipeline")]
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
    #[cfg(feature = "pipeline")]
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
    /// [`MissingParam`], naming the first param `value_of` has no value for.
    pub fn render<'a>(
        &self,
        mut value_of: impl FnMut(&str) -> Option<Cow<'a, str>>,
    ) -> Result<String, MissingParam> {
        let mut out = String::with_capacity(self.raw.len() + 16);
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Param(name) => {
                    let value = value_of(name).ok_or_else(|| MissingParam::new(name))?;
                    out.extend(utf8_percent_encode(&value, SEGMENT));
                }
                Segment::CatchAll(name) => {
                    let value = value_of(name).ok_or_else(|| MissingParam::new(name))?;
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

    /// [`render`](RouteTemplate::render) with the values of a JSON object, the params as
    /// serde writes them (`serde_json::to_value`): a string as it is, a number or a bool as
    /// JSON writes it; another shape counts as no value.
    ///
    /// ```
    /// use pactum::route::{RouteKind, RouteTemplate};
    ///
    /// let route = RouteTemplate::parse("/users/:id/files/*path".into(), RouteKind::Dynamic)?;
    /// let params = serde_json::json!({ "id": 7, "path": "a b/c.txt" });
    /// assert_eq!(route.render_json(&params).unwrap(), "/users/7/files/a%20b/c.txt");
    /// let missing = route.render_json(&serde_json::json!({ "id": 7 })).unwrap_err();
    /// assert_eq!(missing.name(), "path");
    /// assert_eq!(missing.to_string(), "no value for route param `path`");
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MissingParam`], naming the first param `params` has no scalar value for.
    pub fn render_json(&self, params: &serde_json::Value) -> Result<String, MissingParam> {
        self.render(|name| match params.get(name)? {
            serde_json::Value::String(s) => Some(Cow::Borrowed(s.as_str())),
            serde_json::Value::Number(n) => Some(Cow::Owned(n.to_string())),
            serde_json::Value::Bool(b) => Some(Cow::Owned(b.to_string())),
            _ => None,
        })
    }
}

impl fmt::Display for RouteTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

#[cfg(test)]
mod tests;
