//! What the collecting reading finds, through the pipeline's three decoders.

use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::decode;
use crate::request::RawParams;

fn details(error: crate::Error) -> serde_json::Value {
    let body = error.to_body();
    assert_eq!(body.error, "Validation failed");
    serde_json::to_value(&body.details).unwrap()
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Item {
    #[validate(length(min = 1, max = 20))]
    sku: String,
    #[validate(range(min = 1, max = 99))]
    qty: u32,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Order {
    #[validate(length(min = 1), nested)]
    items: Vec<Item>,
    #[validate(length(max = 10))]
    note: Option<String>,
    #[validate(email)]
    email: String,
    #[serde(default)]
    tags: Vec<String>,
}

#[test]
fn every_shape_error_of_a_body_in_document_order() {
    let body = br#"{"email":5,"items":[{"sku":"a","qty":"x"},{"sku":7,"qty":-1}],"note":[]}"#;
    let err = decode::json::<Order>(body).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["email"], "message": "invalid type: integer `5`, expected a string"},
            {"path": ["items", 0, "qty"], "message": "invalid type: string \"x\", expected u32"},
            {"path": ["items", 1, "sku"], "message": "invalid type: integer `7`, expected a string"},
            {"path": ["items", 1, "qty"], "message": "expected a non-negative integer (u32), found -1"},
            {"path": ["note"], "message": "invalid type: sequence, expected a string"},
        ])
    );
}

#[test]
fn missing_fields_are_named_by_their_own_path() {
    let err = decode::json::<Order>(br#"{"items":[{"sku":"a"},{"qty":2}]}"#).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["items", 0, "qty"], "message": "missing field `qty`"},
            {"path": ["items", 1, "sku"], "message": "missing field `sku`"},
            {"path": ["email"], "message": "missing field `email`"},
        ])
    );
}

#[test]
fn rules_run_on_the_fields_that_parsed() {
    let body = br#"{"email":"nope","items":[{"sku":"","qty":"x"}],"note":"far too long a note"}"#;
    let err = decode::json::<Order>(body).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["items", 0, "qty"], "message": "invalid type: string \"x\", expected u32"},
            {"path": ["email"], "message": "must be a valid email address"},
            {"path": ["items", 0, "sku"], "message": "length must be between 1 and 20"},
            {"path": ["note"], "message": "length must be at most 10"},
        ])
    );
}

#[test]
fn a_struct_given_as_something_else() {
    let err = decode::json::<Order>(br#"{"email":"a@b.co","items":[[1,2],"x"]}"#).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["items", 0], "message": "invalid type: sequence, expected struct Item"},
            {"path": ["items", 1], "message": "invalid type: string \"x\", expected struct Item"},
        ])
    );
    let err = decode::json::<Order>(b"[]").unwrap_err();
    assert_eq!(
        details(err),
        json!([{"path": [], "message": "invalid type: sequence, expected struct Order"}])
    );
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Widths {
    a: u8,
    b: i8,
    c: u64,
    d: i32,
}

#[test]
fn numbers_out_of_range_say_so() {
    let body = br#"{"a":256,"b":-129,"c":18446744073709552000,"d":4.5}"#;
    assert_eq!(
        details(decode::json::<Widths>(body).unwrap_err()),
        json!([
            {"path": ["a"], "message": "number too large for u8"},
            {"path": ["b"], "message": "number too small for i8"},
            {"path": ["c"], "message": "number too large for u64"},
            {"path": ["d"], "message": "invalid type: floating point `4.5`, expected i32"},
        ])
    );
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Filters {
    #[validate(range(min = 1, max = 100))]
    #[serde(default = "ten")]
    limit: u32,
    offset: Option<u32>,
    ms: u64,
    active: Option<bool>,
}

fn ten() -> u32 {
    10
}

#[test]
fn query_errors_all_with_their_paths() {
    let err = decode::query::<Filters>(Some("limit=abc&active=maybe")).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["limit"], "message": "invalid type: string \"abc\", expected u32"},
            {"path": ["active"], "message": "invalid type: string \"maybe\", expected a boolean"},
            {"path": ["ms"], "message": "missing field `ms`"},
        ])
    );
    let err = decode::query::<Filters>(Some("ms=-1&limit=500")).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["ms"], "message": "expected a non-negative integer (u64), found -1"},
            {"path": ["limit"], "message": "must be between 1 and 100"},
        ])
    );
    let err = decode::query::<Filters>(Some("ms=1&limit=5&limit=6")).unwrap_err();
    assert_eq!(
        details(err),
        json!([{"path": ["limit"], "message": "multiple values provided for non-sequence field"}])
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Tagged {
    #[serde(default)]
    tag: Vec<String>,
}

#[test]
fn encoded_brackets_in_query_keys() {
    let want = Tagged {
        tag: vec!["red".into(), "blue".into()],
    };
    for query in [
        "tag=red&tag=blue",
        "tag[]=red&tag[]=blue",
        "tag%5B%5D=red&tag%5B%5D=blue",
        "tag%5b%5d=red&tag%5b%5d=blue",
        "tag[0]=red&tag[1]=blue",
        "tag%5B0%5D=red&tag%5B1%5D=blue",
    ] {
        assert_eq!(
            decode::query::<Tagged>(Some(query)).unwrap(),
            want,
            "{query}"
        );
    }
}

#[test]
fn one_key_in_two_forms_is_named() {
    for query in [
        "tag=a&tag%5B%5D=b",
        "tag=a&tag[]=b",
        "tag[]=a&tag[0]=b",
        "x=1&tag[a]=1&tag[]=b",
    ] {
        let err = match decode::query::<Tagged>(Some(query)) {
            Ok(read) => panic!("{query}: read as {read:?}"),
            Err(error) => error.to_body(),
        };
        assert_eq!(err.error, "Validation failed", "{query}");
        assert_eq!(err.details.len(), 1, "{query}: {err:?}");
        assert_eq!(err.details[0].path, vec!["tag".into()], "{query}: {err:?}");
        assert!(
            err.details[0].message.starts_with("is given in two forms"),
            "{query}: {err:?}"
        );
    }
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct UserPath {
    id: u64,
    org: String,
}

fn raw(pairs: &[(&str, &str)]) -> RawParams {
    RawParams {
        pairs: pairs
            .iter()
            .map(|(n, v)| ((*n).into(), (*v).to_owned()))
            .collect(),
        refused: None,
    }
}

#[test]
fn params_errors_name_the_param() {
    let err = decode::params::<UserPath>(&raw(&[("org", "x"), ("id", "18446744073709552000")]));
    assert_eq!(
        details(err.unwrap_err()),
        json!([{"path": ["id"], "message": "number too large for u64"}])
    );
    let err = decode::params::<UserPath>(&raw(&[("org", "x"), ("id", "-1")]));
    assert_eq!(
        details(err.unwrap_err()),
        json!([{"path": ["id"], "message": "expected a non-negative integer (u64), found -1"}])
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u32,
    b: u32,
}

#[test]
fn an_error_the_type_raises_itself_stops_the_reading_at_its_path() {
    let err = decode::json::<Strict>(br#"{"a":"x","zzz":1,"b":"y"}"#).unwrap_err();
    let found = details(err);
    assert_eq!(
        found[0],
        json!({"path": ["a"], "message": "invalid type: string \"x\", expected u32"})
    );
    assert_eq!(found[1]["path"], json!(["zzz"]));
    assert!(found[1]["message"]
        .as_str()
        .unwrap()
        .starts_with("unknown field `zzz`"));
    assert_eq!(found.as_array().unwrap().len(), 2);
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Small {
    a: u8,
    b: u8,
    c: u8,
}

#[test]
fn a_number_written_as_a_string_or_null_in_json() {
    let err = decode::json::<Small>(br#"{"a":"4","b":null,"c":"300"}"#).unwrap_err();
    assert_eq!(
        details(err),
        json!([
            {"path": ["a"], "message": "invalid type: string \"4\", expected u8"},
            {"path": ["b"], "message": "invalid type: null, expected u8"},
            {"path": ["c"], "message": "number too large for u8"},
        ])
    );
}

#[test]
fn a_body_that_is_not_utf8_is_invalid_json_even_in_an_ignored_field() {
    // Found by the json_body fuzz target: serde_json skips an unknown field's string unread.
    let body = b"{\"items\":[{\"sku\":\"a\",\"qty\":1}],\"$note\":\"\xee\"}";
    let err = decode::json::<Order>(body).unwrap_err().to_body();
    assert_eq!(err.error, "Invalid JSON");
    assert!(err.details[0].message.starts_with("not UTF-8"), "{err:?}");
}
