//! The reader on its own, then through the body reader (`decode::json`): numbers
//! (`numbers`) and what serde buffers before its type reads it (`buffers`).

mod buffers;
mod numbers;

use super::*;

#[derive(Debug, PartialEq, serde::Deserialize)]
struct Item {
    qty: u32,
}

#[derive(Debug, PartialEq, serde::Deserialize)]
struct Order {
    items: Vec<Item>,
    age: Option<u16>,
    ratio: f64,
}

fn parse(json: &str) -> Result<Order, String> {
    let mut de = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(Json(&mut de))
        .map_err(|e| format!("{} at {}", e.inner(), e.path()))
}

#[test]
fn whole_floats_are_integers_at_any_depth() {
    let order = parse(r#"{"items":[{"qty":4.0}],"age":7.0,"ratio":2}"#).unwrap();
    assert_eq!(
        order,
        Order {
            items: vec![Item { qty: 4 }],
            age: Some(7),
            ratio: 2.0
        }
    );
}

#[test]
fn fractions_and_ranges_still_fail_with_their_path() {
    let err = parse(r#"{"items":[{"qty":4.5}],"age":7,"ratio":1}"#).unwrap_err();
    assert!(
        err.starts_with("invalid type: floating point `4.5`") && err.ends_with("at items[0].qty"),
        "{err}"
    );
    let err = parse(r#"{"items":[],"age":70000.0,"ratio":1}"#).unwrap_err();
    assert!(err.contains("70000") && err.ends_with("at age"), "{err}");
    let err = parse(r#"{"items":[],"age":-1.0,"ratio":1}"#).unwrap_err();
    assert!(err.ends_with("at age"), "{err}");
}

#[test]
fn structs_are_objects_only() {
    let err = parse(r#"[[], null, 1.5]"#).unwrap_err();
    assert!(
        err.starts_with("invalid type: sequence, expected struct Order"),
        "{err}"
    );
    let err = parse(r#"{"items":[[4]],"age":null,"ratio":1}"#).unwrap_err();
    assert!(
        err.contains("sequence") && err.ends_with("at items[0]"),
        "{err}"
    );
}

// -------------------------------------------------------------------------------------
// Through the body reader (`decode::json`): the happy path on serde_json, the error path
// on the tree, as the pipeline reads a body.
// -------------------------------------------------------------------------------------

use crate::contract::Slot;
use crate::error::PathSegment;
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationErrors};

/// The value, or the 400's details as `$.path: message`.
fn body<T: Slot>(json: &str) -> Result<T, Vec<String>> {
    crate::decode::json::<T>(json.as_bytes()).map_err(|error| {
        let http = error.as_http().expect("an HTTP error");
        assert_eq!(http.status(), 400, "{json}: {}", http.message());
        http.details()
            .iter()
            .map(|detail| {
                let mut path = String::from("$");
                for segment in &detail.path {
                    match segment {
                        PathSegment::Key(key) => path += &format!(".{key}"),
                        PathSegment::Index(index) => path += &format!("[{index}]"),
                    }
                }
                format!("{path}: {}", detail.message)
            })
            .collect()
    })
}

/// The body read and written back (compact), or the details.
fn echo<T: Slot>(json: &str) -> Result<String, Vec<String>> {
    body::<T>(json).map(|value| serde_json::to_string(&value).expect("serialises"))
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct One<T> {
    v: T,
}
impl<T> Validate for One<T> {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }
}
