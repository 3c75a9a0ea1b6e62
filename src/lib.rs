#![doc = include_str!("docs/crate.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Items that exist with the `pipeline` feature (the router, handlers, middleware, the request
/// pipeline): each gets the feature's `cfg` and, on docs.rs, its badge.
macro_rules! cfg_pipeline {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "pipeline")]
            #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
            $item
        )*
    };
}

// The contract: compiled in every configuration. `de` reads a value's every shape error: the
// pipeline's 400 details, and the typed client's decode errors (`Detail::from_json`).
pub mod contract;
mod de;
pub mod error;
pub mod patch;
pub mod route;
mod security;
pub mod sse;
pub mod upload;
mod validation;

// The pipeline: routing, parsing, handlers, middleware, answers.
cfg_pipeline! {
    mod body;
    mod context;
    mod decode;
    pub mod handler;
    pub mod middleware;
    pub mod pipeline;
    mod request;
    mod response;
}

#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod server;

#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;

/// The user guide, one chapter a page: from the first contract to a server behind a load
/// balancer.
pub mod guide;

// The root: what the quickstart uses. Everything else is in the modules above.
pub use contract::{Endpoint, NoBody, NoCookies, NoHeaders, NoParams, NoQuery, Security};
pub use error::{Error, HttpError};
cfg_pipeline! {
    pub use handler::{bind, handler, Ctx};
    pub use pipeline::Pipeline;
}

/// A route written as a literal, checked while compiling: `route!("/users/:id")`.
///
/// The literal is parsed with the rules of [`route::pattern`] and friends (a leading `/`,
/// names of ASCII letters, digits and `_`, no repeated name, a catch-all `*name` last only),
/// and a malformed route does not compile. Its kind follows from its segments: no params
/// gives a [`route::Static`], `:name` segments a [`route::Pattern`], a final `*name` a
/// [`route::Dynamic`]. A param may also be written `{name}` and a catch-all `{*name}`, as in
/// axum 0.8 and OpenAPI: `route!("/users/{id}")` is `route!("/users/:id")`; a brace that is
/// not a whole segment (`/users/{id}.json`) does not compile.
///
/// A route with params carries its names in its type: `.params::<T>()` then needs a `T` that
/// derives [`Params`], whose field names must be the route's names, in any order. A mismatch
/// is a type error:
///
/// ```text
/// error[E0277]: params type `UserPath` does not fit this route: its field names are not the
///               route's `:name` segments
///   = note: give `UserPath` one field per route name, spelt as in the route
///           (`#[serde(rename = "..")]` and `rename_all` count, the order does not), and no
///           other field (`#[serde(skip)]` leaves one out)
/// ```
///
/// The two macros write the names as types and `.params::<T>()` requires them to be the same
/// type, so `cargo check` and rust-analyzer report a mismatch too; nothing runs at run time.
/// `build()` still parses the route and checks the names, as for a route made at run time.
///
/// ```
/// use pactum::{route, Endpoint, Params};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate, Params)]
/// struct RepoPath {
///     org: String,
///     #[serde(rename = "repo")]
///     name: String,
/// }
///
/// let health = Endpoint::get(route!("/health")).build()?;
/// let repo = Endpoint::get(route!("/orgs/:org/repos/:repo"))
///     .params::<RepoPath>()
///     .build()?;
/// assert_eq!(repo.route().as_str(), "/orgs/:org/repos/:repo");
/// # let _ = health;
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
///
/// ```compile_fail
/// // error: invalid route `/users/:id/:id`: the param name `id` is repeated
/// let bad = pactum::route!("/users/:id/:id");
/// ```
#[doc(inline)]
pub use pactum_macros::route;

/// Lists a params struct's field names, as serde deserialises them, for the compile-time check
/// of a [`route!`] route (it implements [`route::ParamNames`]).
///
/// `#[serde(rename = "..")]`, `#[serde(rename_all = "..")]` (and their `deserialize = ".."`
/// forms) and `#[serde(skip)]` / `#[serde(skip_deserializing)]` are read; `alias`es are not
/// route names. A `#[serde(flatten)]` field is refused: its names are not known while
/// compiling, so declare such a route with [`route::pattern`], checked by `build()`.
///
/// ```
/// use pactum::{route, Endpoint, Params};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate, Params)]
/// #[serde(rename_all = "camelCase")]
/// struct ItemPath {
///     user_id: u64,
///     item_id: u64,
/// }
///
/// let item = Endpoint::get(route!("/users/:userId/items/:itemId"))
///     .params::<ItemPath>()
///     .build()?;
/// # let _ = item;
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[doc(inline)]
pub use pactum_macros::Params;

#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub use server::{serve, ServerOptions};

#[doc(no_inline)]
pub use http;
/// schemars, which the `openapi` feature generates schemas with: derive
/// `pactum::schemars::JsonSchema` with `use pactum::schemars;` in scope, or depend on it.
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
#[doc(no_inline)]
pub use schemars;
#[doc(no_inline)]
pub use validator;

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
