//! The compile-time check of a literal route's names against its params type's fields:
//! [`route!`](crate::route!) puts the route's names in the route's type ([`RouteLiteral`]),
//! [`Params`](crate::Params) puts a struct's field names in its own ([`ParamNames`]), each as
//! a type, and `.params::<T>()` requires the two to be the same type ([`FitsRoute`]). A
//! mismatch is a type error — `cargo check` and rust-analyzer report it — whose message names
//! the params type and the fix. Nothing of it runs when the program does.
//!
//! How a name is a type: each character is a [`Ch`], a name is a list of them nested in pairs
//! ending with `()`, and a route's names are a list of names the same way, sorted by the two
//! macros so that their order does not matter: `/users/:id` has
//! `((Ch<'i'>, (Ch<'d'>, ())), ())`.

use super::{Dynamic, Pattern, Static};

/// The names of a route written as a literal. Implemented by [`route!`](crate::route!) for a
/// type of its own per route; not meant to be implemented by hand.
pub trait RouteLiteral: 'static {
    /// The route as written, e.g. `/users/:id`.
    const PATH: &'static str;
    /// The names of its `:name` and `*name` segments, sorted, as a type (see [`Ch`]). Not an
    /// API: written by [`route!`](crate::route!) and compared by `.params::<T>()`.
    #[doc(hidden)]
    type Names;
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
    /// The field names serde reads (after `rename` and `rename_all`; skipped fields left out),
    /// sorted, as a type (see [`Ch`]). Not an API: written by [`Params`](crate::Params) and
    /// compared by `.params::<T>()`.
    #[doc(hidden)]
    type Names;
}

/// One character of a name spelt as a type: `"id"` is `(Ch<'i'>, (Ch<'d'>, ()))`. Not an API:
/// written by [`route!`](crate::route!) and [`Params`](crate::Params).
#[doc(hidden)]
#[derive(Debug)]
pub enum Ch<const C: char> {}

/// How a route checks the params type `T` while compiling: a `route!` route needs `T`'s field
/// names to be its names, a route made at run time takes any `T` (`build()` checks it). Not an
/// API: a bound of [`EndpointBuilder::params`](crate::contract::EndpointBuilder::params).
#[doc(hidden)]
pub trait FitsRoute<T> {}

impl<T, K: LiteralOf> FitsRoute<T> for K where K::Literal: LiteralFits<T> {}

/// A route kind's literal: the `route!` type in `L` of `Pattern<L>` / `Dynamic<L>`, [`Runtime`]
/// for a route made at run time. Not an API.
#[doc(hidden)]
pub trait LiteralOf {
    /// `L`, or [`Runtime`].
    type Literal;
}

impl LiteralOf for Static {
    type Literal = Runtime;
}
impl<L> LiteralOf for Pattern<L> {
    type Literal = L;
}
impl<L> LiteralOf for Dynamic<L> {
    type Literal = L;
}

/// A route's literal takes the params type `T`. Not an API.
///
/// Its impl for a `route!` literal bounds `T` by [`ParamNames`] and [`NamesMatch`] directly,
/// and no impl on the way there is `do_not_recommend`: rustc then reports the first of the two
/// that fails with that trait's own message (a type without the derive, or a mismatch). rustc
/// moves a failed bound up to the parent of the outermost `do_not_recommend` impl on its way,
/// so one here would report `FitsRoute` for both. And [`FitsRoute`] has one blanket impl (over
/// [`LiteralOf`]) rather than one per route kind, so that rustc lists none of them ("but it is
/// implemented for `Pattern<Runtime>`").
#[doc(hidden)]
pub trait LiteralFits<T> {}

impl<T> LiteralFits<T> for Runtime {}
impl<T: ParamNames + NamesMatch<L>, L: RouteLiteral> LiteralFits<T> for L {}

/// The params type's names are the route literal `L`'s. Not an API: its message is the one a
/// mismatch reports.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "params type `{Self}` does not fit this route: its field names are not the route's `:name` segments",
    label = "this route's `:name` / `*name` segments are not the field names of `{Self}`",
    note = "give `{Self}` one field per route name, spelt as in the route (`#[serde(rename = \"..\")]` and `rename_all` count, the order does not), and no other field (`#[serde(skip)]` leaves one out)"
)]
pub trait NamesMatch<L> {}

// `do_not_recommend`: a mismatch reports `NamesMatch`'s message, not the `SameNames` bound
// on the two name lists (types no one should read).
#[diagnostic::do_not_recommend]
impl<T: ParamNames, L: RouteLiteral> NamesMatch<L> for T where (L::Names, T::Names): SameNames {}

/// Holds for a pair of the same type: two name lists that are equal. Not an API.
#[doc(hidden)]
pub trait SameNames {}

impl<X> SameNames for (X, X) {}
