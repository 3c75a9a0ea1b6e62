//! Deserialisation helpers: the deserializers behind the contract's inputs and the pipeline's
//! 400 details, each in the file its job names (none is public). The pipeline's entry points
//! that use them (`decode::params`, `query`, `json`) stay in `decode`: they read bodies and
//! answer errors, a layer above these.
//!
//! - [`collect`]: every shape error of a value, each with its path, not only serde's first
//!   (a deserializer wrapped around the real one, and a key-ordered JSON tree to read again).
//! - [`json_as_schema`]: a JSON body read as its JSON Schema describes it (`4.0` for an
//!   integer, 128-bit integers, `f32` bounds, structs as objects only).
//! - [`from_text`]: a value written as text (a path param, a JSON key, a flat query value)
//!   parsed with the query's coercion rules, and a map of such values.
//! - `flat_query`: a plain `key=value` query split without `serde_qs` (pipeline only).
//! - [`field_names`]: the field names a `Deserialize` struct declares, for a route's params.
//! - `forward`: `forward_deserializer!`, the methods of a deserializer that wraps another one.

// First: its macro is used by the modules below.
#[macro_use]
mod forward;

pub(crate) mod collect;
pub(crate) mod field_names;
#[cfg(feature = "pipeline")]
pub(crate) mod flat_query;
pub(crate) mod from_text;
pub(crate) mod json_as_schema;
