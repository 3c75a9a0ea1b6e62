//! [`PathIndex`]: from a request path to its route, in about the same time however many
//! routes there are.
//!
//! Three lookups, each falling back to the next: a route without params by its exact path
//! (one hash); a route with params among the routes that share its first segment, when that
//! segment is literal (one hash, then a radix tree of a few routes); the radix tree of every
//! route. The first two are shortcuts to what the last would find — matchit prefers literal
//! segments to params, so the routes under a literal first segment are searched first there
//! too — and a miss in them always goes on to it.

use matchit::{InsertError, Params, Router};
use rustc_hash::FxHashMap;

use crate::route::{RouteTemplate, Segment};

/// Route indices by path. (Fx: a fast hash; its keys are the server's own routes, which a
/// client can only probe.)
#[derive(Default)]
pub(super) struct PathIndex {
    exact: FxHashMap<Box<str>, usize>,
    by_first_segment: FxHashMap<Box<str>, Router<usize>>,
    all: Router<usize>,
}

impl PathIndex {
    /// Adds the route `template` (`key`: in the radix tree's syntax) as route `index`.
    pub(super) fn insert(
        &mut self,
        template: &RouteTemplate,
        key: &str,
        index: usize,
    ) -> Result<(), InsertError> {
        self.all.insert(key, index)?;
        if template.param_names().next().is_none() {
            self.exact.insert(Box::from(template.as_str()), index);
        } else if let Some(Segment::Literal(first)) = template.segments().first() {
            // Inserted in the whole tree already: no conflict here either.
            self.by_first_segment
                .entry(Box::from(first.as_str()))
                .or_default()
                .insert(key, index)?;
        }
        Ok(())
    }

    /// The route of `path`, with its params when it has some.
    pub(super) fn at<'p>(&'p self, path: &'p str) -> Option<(usize, Option<Params<'p, 'p>>)> {
        if let Some(&index) = self.exact.get(path) {
            return Some((index, None));
        }
        // The first segment: a byte scan (segments are short; `split` costs more here).
        let first = path.strip_prefix('/').map(|rest| {
            let end = rest.bytes().position(|b| b == b'/').unwrap_or(rest.len());
            &rest[..end]
        });
        let group = first.and_then(|first| self.by_first_segment.get(first));
        let found = group
            .and_then(|routes| routes.at(path).ok())
            .or_else(|| self.all.at(path).ok())?;
        Some((*found.value, Some(found.params)))
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::route::RouteKind;

    fn template(raw: &'static str) -> RouteTemplate {
        let kind = if raw.contains('*') {
            RouteKind::Dynamic
        } else if raw.contains(':') {
            RouteKind::Pattern
        } else {
            RouteKind::Static
        };
        RouteTemplate::parse(Cow::Borrowed(raw), kind).unwrap()
    }

    /// Every shortcut finds what the whole radix tree finds, params included.
    #[test]
    fn the_shortcuts_agree_with_the_whole_tree() {
        let templates = [
            template("/users/me"),
            template("/users/:id"),
            template("/users/:id/posts"),
            template("/:tenant/items"),
            template("/:tenant/items/:item"),
            template("/files/*path"),
            template("/files"),
            template("/"),
        ];
        let mut index = PathIndex::default();
        let mut whole = Router::new();
        for (i, template) in templates.iter().enumerate() {
            let key = template.to_matcher_syntax();
            index.insert(template, &key, i).unwrap();
            whole.insert(key, i).unwrap();
        }
        let paths = [
            "/",
            "/users",
            "/users/",
            "/users/me",
            "/users/5",
            "/users/items",
            "/users/5/posts",
            "/users/me/posts",
            "/acme/items",
            "/acme/items/3",
            "/users/items/3",
            "/files",
            "/files/",
            "/files/a/b",
            "/filesx/items",
            "//items",
            "",
            "/x/y/z",
        ];
        for path in paths {
            let found = index.at(path).map(|(route, params)| {
                let params: Vec<(String, String)> = params
                    .iter()
                    .flat_map(|p| p.iter())
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
                (route, params)
            });
            let expected = whole.at(path).ok().map(|m| {
                let params: Vec<(String, String)> = m
                    .params
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
                (*m.value, params)
            });
            assert_eq!(found, expected, "{path}");
        }
    }
}
