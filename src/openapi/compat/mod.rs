//! Breaking changes between two OpenAPI documents: [`compare`] classifies every difference
//! as breaking or compatible for clients of the old one, and [`assert_compatible`] checks a
//! committed snapshot of your document in your own test suite.
//!
//! The rules, and why each is breaking or not, are in the
//! [compatibility guide](crate::guide::compatibility). In short: an operation, status,
//! media type or response field that clients rely on must stay; a request may not need
//! more than before (new required fields, parameters or credentials, stricter limits, fewer
//! enum values), and an answer may not hold more than before (new enum values, `null`, a
//! looser type). Additions clients do not have to know about are compatible.
//!
//! ```
//! use pactum::openapi::compat::{compare, ChangeKind};
//! use pactum::openapi::OpenApi;
//! use pactum::schemars::JsonSchema;
//! use pactum::{route, Endpoint};
//! use serde::{Deserialize, Serialize};
//! use validator::Validate;
//! # use pactum::schemars;
//!
//! #[derive(Serialize, Deserialize, Validate, JsonSchema)]
//! struct NewUser {
//!     name: String,
//! }
//!
//! #[derive(Serialize, Deserialize, Validate, JsonSchema)]
//! #[schemars(rename = "NewUser")]
//! struct NewUserV2 {
//!     name: String,
//!     email: String, // a new required field
//! }
//!
//! let v1 = Endpoint::post(route!("/users")).body::<NewUser>().build()?;
//! let v2 = Endpoint::post(route!("/users")).body::<NewUserV2>().build()?;
//! let old = OpenApi::new("Users", "1.0.0").endpoint(&v1).build();
//! let new = OpenApi::new("Users", "2.0.0").endpoint(&v2).build();
//!
//! let report = compare(old.as_value(), new.as_value());
//! assert!(!report.is_compatible());
//! let change = report.breaking().next().unwrap();
//! assert_eq!(change.kind(), ChangeKind::RequiredPropertyAdded);
//! assert_eq!(change.location(), "POST /users → request → body.email");
//! # Ok::<(), pactum::error::ConfigError>(())
//! ```

mod content;
mod diff;
mod kind;
mod operations;
mod parameters;
mod report;
mod responses;
mod schema;
mod security;
mod shape;
mod snapshot;

use serde_json::Value;

pub use kind::ChangeKind;
pub use report::{Change, Report};
pub use snapshot::{
    assert_compatible, check_snapshot, update_snapshot, SnapshotCheck, SnapshotError,
    UPDATE_SNAPSHOTS,
};

/// Compares the OpenAPI document `old` (the committed snapshot) with `new` (the current
/// build) and classifies every difference for clients written against `old`.
///
/// Operations are matched by method and path shape (`/users/{id}` and `/users/{user_id}`
/// are one path, renamed); parameters by where they are and their name (headers in any
/// case, path parameters by position); `$ref`s are followed in each document; `null` is read
/// from OpenAPI 3.1's `type` lists and `anyOf`, and 3.0's `nullable`. Descriptions,
/// examples, tags, operation ids and other prose are not compared.
///
/// ```
/// use pactum::openapi::compat::{compare, ChangeKind};
/// use serde_json::json;
///
/// let limit = |max| json!({"paths": {"/users": {"get": {
///     "parameters": [{"in": "query", "name": "limit", "schema": {"type": "integer", "maximum": max}}],
///     "responses": {"200": {}},
/// }}}});
/// let report = compare(&limit(100), &limit(50));
/// let change = &report.changes()[0];
/// assert_eq!(change.kind(), ChangeKind::ConstraintTightened);
/// assert!(change.is_breaking());
/// assert_eq!(change.location(), "GET /users → request → query.limit");
/// assert_eq!(
///     report.to_string(),
///     "BREAKING   GET /users → request → query.limit: constraint-tightened \
///      (maximum 100 → 50: requests that were valid are refused)\n",
/// );
/// ```
pub fn compare(old: &Value, new: &Value) -> Report {
    let mut diff = diff::Diff::new(old, new);
    operations::compare_paths(&mut diff);
    Report::new(diff.into_changes())
}
