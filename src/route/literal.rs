//! The compile-time check of a literal route's names against its params type's fields:
//! [`route!`](crate::route!) puts the route's names in the route's type ([`RouteLiteral`]),
//! [`Params`](crate::Params) lists a struct's fields ([`ParamNames`]), and `.params::<T>()`
//! compares the two in a constant, so a mismatch stops the build with a message naming the
//! route, its names and the type's fields. Nothing of it runs when the program does.

use super::{Dynamic, Pattern, Static};

/// The names of a route written as a literal. Implemented by [`route!`](crate::route!) for a
/// type of its own per route; not meant to be implemented by hand.
pub trait RouteLiteral: 'static {
    /// The route as written, e.g. `/users/:id`.
    const PATH: &'static str;
    /// The names of its `:name` and `*name` segments, in route order.
    const NAMES: &'static [&'static str];
}

/// The `L` of a [`Pattern`] or [`Dynamic`] route made at run time ([`pattern`](super::pattern),
/// [`dynamic`](super::dynamic)): its names are checked by `build()`, not while compiling.
#[derive(Debug)]
pub enum Runtime {}

/// A params type's field names, as serde deserialises them. Derive it with
/// [`#[derive(pactum::Params)]`](crate::Params).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not list its field names for the route check",
    label = "add `#[derive(pactum::Params)]` to `{Self}`",
    note = "a `route!(..)` route compares its names with the params type's fields while compiling"
)]
pub trait ParamNames {
    /// The type's name, for the message of a mismatch.
    const TYPE_NAME: &'static str;
    /// The field names serde reads (after `rename` and `rename_all`; skipped fields left out).
    const FIELDS: &'static [&'static str];
}

/// How a route checks the params type `T` while compiling: against its literal's names for a
/// `route!` route, not at all for a route made at run time. Not an API: a bound of
/// [`EndpointBuilder::params`](crate::contract::EndpointBuilder::params).
#[doc(hidden)]
pub trait CheckParams<T> {
    /// Evaluating it fails the build when the names differ.
    const CHECK: ();
}

// `do_not_recommend`: a params type without `#[derive(Params)]` on a `route!` route reports
// `ParamNames`'s message without a list of these impls.
#[diagnostic::do_not_recommend]
impl<T> CheckParams<T> for Static {
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl<T> CheckParams<T> for Pattern<Runtime> {
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl<T> CheckParams<T> for Dynamic<Runtime> {
    const CHECK: () = ();
}
impl<T: ParamNames, L: RouteLiteral> CheckParams<T> for Pattern<L> {
    const CHECK: () = __check_names(L::PATH, L::NAMES, T::TYPE_NAME, T::FIELDS);
}
impl<T: ParamNames, L: RouteLiteral> CheckParams<T> for Dynamic<L> {
    const CHECK: () = __check_names(L::PATH, L::NAMES, T::TYPE_NAME, T::FIELDS);
}

/// Panics — in a constant, so the build stops with this message — when `fields` are not the
/// route's `names` (in any order). Not an API.
#[doc(hidden)]
pub const fn __check_names(route: &str, names: &[&str], type_name: &str, fields: &[&str]) {
    if all_in(names, fields) && all_in(fields, names) {
        return;
    }
    let mut msg = Message::new();
    msg.push("params type `");
    msg.push(type_name);
    msg.push("` does not fit route `");
    msg.push(route);
    msg.push("`: the route names ");
    msg.list(names, &[]);
    msg.push(", the type has ");
    msg.list(fields, &[]);
    if !all_in(names, fields) {
        msg.push("; missing ");
        msg.list(names, fields);
    }
    if !all_in(fields, names) {
        msg.push("; extra ");
        msg.list(fields, names);
    }
    msg.push(". Give the type one field per route name (`#[serde(rename = \"..\")]` counts)");
    panic!("{}", msg.as_str());
}

/// Every name of `these` is in `those`.
const fn all_in(these: &[&str], those: &[&str]) -> bool {
    let mut i = 0;
    while i < these.len() {
        if !contains(those, these[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(names: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < names.len() {
        if eq(names[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A message written in a constant: a fixed buffer, cut (at a character boundary, with `…`)
/// when it is full.
struct Message {
    bytes: [u8; 1024],
    len: usize,
    cut: bool,
}

impl Message {
    const ROOM: usize = 1024 - "…".len();

    const fn new() -> Self {
        Self {
            bytes: [0; 1024],
            len: 0,
            cut: false,
        }
    }

    const fn push(&mut self, text: &str) {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && !self.cut {
            if self.len == Self::ROOM {
                // Back off to a character boundary, then mark the cut.
                let mut next = text[i];
                while self.len > 0 && next & 0xC0 == 0x80 {
                    self.len -= 1;
                    next = self.bytes[self.len];
                }
                self.cut = true;
                let ellipsis = "…".as_bytes();
                let mut j = 0;
                while j < ellipsis.len() {
                    self.bytes[self.len] = ellipsis[j];
                    self.len += 1;
                    j += 1;
                }
                return;
            }
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
    }

    /// `` `a`, `b` `` for the names of `names` not in `except` (`nothing` when none).
    const fn list(&mut self, names: &[&str], except: &[&str]) {
        let mut first = true;
        let mut i = 0;
        while i < names.len() {
            if !contains(except, names[i]) {
                if !first {
                    self.push(", ");
                }
                self.push("`");
                self.push(names[i]);
                self.push("`");
                first = false;
            }
            i += 1;
        }
        if first {
            self.push("nothing");
        }
    }

    const fn as_str(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(_) => "the params type's fields are not the route's names",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_sets_pass_in_any_order() {
        __check_names("/a/:x/:y", &["x", "y"], "T", &["y", "x"]);
        __check_names("/a/:x", &["x"], "T", &["x"]);
    }

    #[test]
    #[should_panic(
        expected = "params type `UserPath` does not fit route `/users/:id`: the route names `id`, \
                    the type has `user_id`, `org`; missing `id`; extra `user_id`, `org`"
    )]
    fn a_mismatch_names_route_fields_missing_and_extra() {
        __check_names("/users/:id", &["id"], "UserPath", &["user_id", "org"]);
    }

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary() {
        let mut msg = Message::new();
        let mut i = 0;
        while i < 600 {
            msg.push("é");
            i += 1;
        }
        assert!(msg.as_str().ends_with('…'));
        assert!(msg.as_str().len() <= 1024);
    }
}
