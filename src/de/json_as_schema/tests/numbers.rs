//! Integers of every width, wide integers at any depth, floats.

use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{body, echo, One};

const U128_PAST_MAX: &str = "340282366920938463463374607431768211456";

/// Every check of one integer type: its bounds, one past them, whole and fractional
/// floats, a string.
fn integer_width<T>(name: &str, min: i128, max: u128)
where
    T: Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
{
    let wide = name.ends_with("128");
    let v = |text: &str| format!(r#"{{"v":{text}}}"#);
    let one = |text: &str| echo::<One<T>>(&v(text));
    let refused = |message: String| Err(vec![format!("$.v: {message}")]);

    assert_eq!(one(&min.to_string()), Ok(v(&min.to_string())), "{name} min");
    assert_eq!(one(&max.to_string()), Ok(v(&max.to_string())), "{name} max");
    assert_eq!(one("0"), Ok(v("0")), "{name}");
    assert_eq!(one("7"), Ok(v("7")), "{name}");
    assert_eq!(
        one(&max
            .checked_add(1)
            .map_or(U128_PAST_MAX.to_owned(), |n| n.to_string())),
        refused(format!("number too large for {name}")),
        "{name} max + 1"
    );
    if min < 0 {
        assert_eq!(
            one(&format!("-{}", min.unsigned_abs() + 1)),
            refused(format!("number too small for {name}")),
            "{name} min - 1"
        );
        assert_eq!(one("-7"), Ok(v("-7")), "{name}");
    } else {
        assert_eq!(
            one("-1"),
            refused(format!(
                "expected a non-negative integer ({name}), found -1"
            )),
            "{name} -1"
        );
    }
    if wide {
        // serde_json reads 128-bit integers from their digits: no float reaches them.
        assert_eq!(
            one("4.0"),
            refused(format!(
                "invalid type: floating point `4.0`, expected {name}"
            ))
        );
        assert_eq!(
            one("1e2"),
            refused(format!(
                "invalid type: floating point `100.0`, expected {name}"
            ))
        );
    } else {
        assert_eq!(one("4.0"), Ok(v("4")), "{name} 4.0");
        assert_eq!(one("1e2"), Ok(v("100")), "{name} 1e2");
        if min < 0 {
            assert_eq!(one("-4.0"), Ok(v("-4")), "{name} -4.0");
        }
    }
    assert_eq!(
        one("4.5"),
        refused(format!(
            "invalid type: floating point `4.5`, expected {name}"
        ))
    );
    assert_eq!(
        one(r#""four""#),
        refused(format!(r#"invalid type: string "four", expected {name}"#))
    );
    assert_eq!(
        one("null"),
        // (serde's name for `null` on the error path)
        refused(format!("invalid type: null, expected {name}"))
    );
}

macro_rules! integer_widths {
    ($($ty:ident),*) => {$(
        #[test]
        fn $ty() {
            integer_width::<$ty>(stringify!($ty), $ty::MIN as i128, $ty::MAX as u128);
        }
    )*};
}
mod width {
    use super::integer_width;
    integer_widths!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Wide {
    a: i128,
    b: u128,
    list: Vec<i128>,
    maybe: Option<u128>,
}

#[test]
fn wide_integers_at_any_depth_and_beside_other_errors() {
    let json = r#"{"a":-170141183460469231731687303715884105728,"b":340282366920938463463374607431768211455,"list":[18446744073709551616,-9223372036854775809],"maybe":null}"#;
    assert_eq!(echo::<Wide>(json).as_deref(), Ok(json));
    let some = r#"{"a":1,"b":2,"list":[],"maybe":36893488147419103232}"#;
    assert_eq!(echo::<Wide>(some).as_deref(), Ok(some));
    // Beside another error, big values well inside the range are not reported (the
    // error path's tree holds them as floats).
    assert_eq!(
        body::<Wide>(
            r#"{"a":-1267650600228229401496703205376,"b":1267650600228229401496703205376,"list":[4.5,1180591620717411303424],"maybe":"x"}"#
        ),
        Err(vec![
            "$.list[0]: invalid type: floating point `4.5`, expected i128".to_owned(),
            r#"$.maybe: invalid type: string "x", expected u128"#.to_owned(),
        ])
    );
    assert_eq!(
        body::<Wide>(r#"{"a":0,"b":-5,"list":[1e40]}"#),
        Err(vec![
            "$.b: expected a non-negative integer (u128), found -5".to_owned(),
            "$.list[0]: number too large for i128".to_owned(),
        ])
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Floats {
    single: f32,
    double: f64,
}

#[test]
fn floats_take_integers_and_refuse_what_they_cannot_hold() {
    assert_eq!(
        echo::<Floats>(r#"{"single":1,"double":-2}"#).as_deref(),
        Ok(r#"{"single":1.0,"double":-2.0}"#)
    );
    assert_eq!(
        echo::<Floats>(r#"{"single":1.5,"double":1e308}"#).as_deref(),
        Ok(r#"{"single":1.5,"double":1e+308}"#)
    );
    assert_eq!(
        echo::<Floats>(r#"{"single":3.4028235e38,"double":18446744073709551616}"#).as_deref(),
        Ok(r#"{"single":3.4028235e+38,"double":1.8446744073709552e+19}"#)
    );
    assert_eq!(
        body::<Floats>(r#"{"single":3.5e38,"double":1}"#),
        Err(vec!["$.single: number too large for f32".to_owned()])
    );
    assert_eq!(
        body::<Floats>(r#"{"single":-1e39,"double":"1"}"#),
        Err(vec![
            "$.single: number too small for f32".to_owned(),
            r#"$.double: invalid type: string "1", expected f64"#.to_owned(),
        ])
    );
    // Beyond f64, the document is not JSON serde_json can read.
    let error = crate::decode::json::<Floats>(br#"{"single":1,"double":1e400}"#).unwrap_err();
    assert_eq!(error.as_http().unwrap().message(), "Invalid JSON");
}
