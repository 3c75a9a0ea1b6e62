//! What serde buffers before its type reads it: flatten, untagged and tagged enums.

use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{body, echo, One};

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Inner {
    x: u32,
    f: f64,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Flat {
    id: u8,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct FlatWide {
    #[serde(flatten)]
    one: One<i128>,
}

#[test]
fn flatten_reads_through_serde_s_buffer() {
    let json = r#"{"id":1,"x":2,"f":1.5}"#;
    assert_eq!(echo::<Flat>(json).as_deref(), Ok(json));
    assert_eq!(
        body::<Flat>(r#"{"id":300,"x":2,"f":1}"#),
        Err(vec!["$.id: number too large for u8".to_owned()])
    );
    assert_eq!(
        body::<Flat>(r#"{"id":1,"f":1}"#),
        Err(vec!["$: missing field `x`".to_owned()])
    );
    // Beyond the wrapper: the buffered fields refuse a whole float, without their key.
    assert_eq!(
        body::<Flat>(r#"{"id":1,"x":2.0,"f":1}"#),
        Err(vec![
            "$: invalid type: floating point `2.0`, expected u32".to_owned()
        ])
    );
    // serde cannot buffer a 128-bit integer.
    assert_eq!(
        body::<FlatWide>(r#"{"v":1}"#),
        Err(vec!["$: i128 is not supported".to_owned()])
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    Count { n: u32 },
    Name { s: String },
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Internal {
    Count { n: u32 },
    Name { s: String },
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Count { n: u32 },
    Small(u8),
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Enums {
    untagged: Untagged,
    internal: Internal,
    adjacent: Adjacent,
}

#[test]
fn tagged_and_untagged_enums() {
    let json = r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":{"n":3}}}"#;
    assert_eq!(echo::<Enums>(json).as_deref(), Ok(json));
    let other = r#"{"untagged":{"s":"a"},"internal":{"type":"Name","s":"b"},"adjacent":{"t":"Small","c":4}}"#;
    assert_eq!(echo::<Enums>(other).as_deref(), Ok(other));
    // The adjacent tag may come after its content.
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"s":"a"},"internal":{"type":"Name","s":"b"},"adjacent":{"c":4,"t":"Small"}}"#
        )
        .map(|e| e.adjacent),
        Ok(Adjacent::Small(4))
    );
    // Content read after its tag goes through the wrapper: whole floats, paths, ranges.
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":{"n":3.0}}}"#
        )
        .map(|e| e.adjacent),
        Ok(Adjacent::Count { n: 3 })
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Small","c":300}}"#
        ),
        Err(vec!["$.adjacent.c: number too large for u8".to_owned()])
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"t":"Count","c":[3]}}"#
        ),
        Err(vec![
            "$.adjacent.c: invalid type: sequence, expected struct variant Adjacent::Count"
                .to_owned()
        ])
    );
    // Unknown tags and shapes that fit no variant are named at the enum.
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"m":1},"internal":{"type":"Other"},"adjacent":{"t":"Nope","c":1}}"#
        ),
        Err(vec![
            "$.untagged: data did not match any variant of untagged enum Untagged".to_owned()
        ])
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Other"},"adjacent":{"t":"Small","c":1}}"#
        ),
        Err(vec![
            "$.internal.type: unknown variant `Other`, expected `Count` or `Name`".to_owned()
        ])
    );
    // Buffered content (untagged, internally tagged, content before its tag) is beyond
    // the wrapper: an internally tagged enum reads from an array too, and serde refuses
    // whole floats there.
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":["Count",2],"adjacent":{"t":"Small","c":1}}"#
        )
        .map(|e| e.internal),
        Ok(Internal::Count { n: 2 })
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1.0},"internal":{"type":"Count","n":2},"adjacent":{"t":"Small","c":1}}"#
        ),
        Err(vec![
            "$.untagged: data did not match any variant of untagged enum Untagged".to_owned()
        ])
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2.0},"adjacent":{"t":"Small","c":1}}"#
        ),
        Err(vec![
            "$.internal: invalid type: floating point `2.0`, expected u32".to_owned()
        ])
    );
    assert_eq!(
        body::<Enums>(
            r#"{"untagged":{"n":1},"internal":{"type":"Count","n":2},"adjacent":{"c":{"n":3.0},"t":"Count"}}"#
        ),
        Err(vec![
            "$.adjacent: invalid type: floating point `3.0`, expected u32".to_owned()
        ])
    );
}
