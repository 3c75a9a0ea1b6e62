use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use super::{non_null, Nullable};
use crate::error::{Detail, PathSegment};

#[derive(Debug, Clone, Default, PartialEq, Validate, Serialize, Deserialize)]
struct Inner {
    #[validate(range(min = 1))]
    qty: u32,
}

/// Every rule `Nullable` implements, and a field that cannot be cleared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
struct UserPatch {
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(range(min = 0, max = 150))]
    age: Nullable<u16>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(length(min = 1, max = 5))]
    nick: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(email)]
    backup_email: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(url)]
    homepage: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[validate(nested)]
    #[cfg_attr(feature = "openapi", schemars(skip))]
    inner: Nullable<Inner>,
    #[serde(
        default,
        deserialize_with = "non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schemars(with = "String"))]
    #[validate(length(min = 1, max = 50))]
    name: Option<String>,
}

fn read(json: &str) -> UserPatch {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn absent_null_and_a_value_read_as_three_states() {
    assert_eq!(read("{}").age, Nullable::Absent);
    assert_eq!(read(r#"{"age":null}"#).age, Nullable::Null);
    assert_eq!(read(r#"{"age":37}"#).age, Nullable::Value(37));
    assert_eq!(
        read(r#"{"nick":"ann"}"#).nick,
        Nullable::Value("ann".to_owned())
    );
    assert_eq!(
        read(r#"{"inner":{"qty":2}}"#).inner,
        Nullable::Value(Inner { qty: 2 })
    );
    // A value of the wrong type is still an error.
    assert!(serde_json::from_str::<UserPatch>(r#"{"age":"x"}"#).is_err());
    assert!(serde_json::from_str::<UserPatch>(r#"{"age":-1}"#).is_err());
}

#[test]
fn each_state_is_written_back_as_it_was_read() {
    for json in [
        json!({}),
        json!({"age": null}),
        json!({"age": 37}),
        json!({"age": null, "nick": "ann", "name": "Ann"}),
    ] {
        let patch: UserPatch = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(serde_json::to_value(&patch).unwrap(), json);
    }
    // Without `skip_serializing_if`, absent is written `null` (as documented).
    assert_eq!(
        serde_json::to_value(Nullable::<u8>::Absent).unwrap(),
        json!(null)
    );
    assert_eq!(serde_json::to_value(Nullable::Value(3)).unwrap(), json!(3));
}

#[test]
fn non_null_refuses_null_and_keeps_absent_and_values() {
    assert_eq!(read("{}").name, None);
    assert_eq!(read(r#"{"name":"Ann"}"#).name.as_deref(), Some("Ann"));
    let error = serde_json::from_str::<UserPatch>(r#"{"name":null}"#).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("invalid type: null, expected a string"),
        "{error}"
    );
}

#[test]
fn the_pipelines_details_name_a_refused_null() {
    let details = Detail::from_json::<UserPatch>(br#"{"age":null,"name":null}"#);
    assert_eq!(details.len(), 1, "{details:?}");
    assert_eq!(details[0].path, vec![PathSegment::from("name")]);
    assert_eq!(details[0].message, "invalid type: null, expected a string");
    assert!(Detail::from_json::<UserPatch>(br#"{"age":null}"#).is_empty());
}

#[test]
fn rules_check_a_value_only() {
    let absent_and_null = UserPatch {
        age: Nullable::Null,
        nick: Nullable::Null,
        backup_email: Nullable::Null,
        homepage: Nullable::Null,
        inner: Nullable::Null,
        name: None,
    };
    assert!(absent_and_null.validate().is_ok());
    assert!(UserPatch::default().validate().is_ok());

    let valid = read(
        r#"{"age":150,"nick":"ann","backup_email":"a@example.com",
            "homepage":"https://example.com","inner":{"qty":1},"name":"Ann"}"#,
    );
    assert!(valid.validate().is_ok(), "{:?}", valid.validate());

    let invalid = read(
        r#"{"age":151,"nick":"annabel","backup_email":"nope",
            "homepage":"not a url","inner":{"qty":0},"name":""}"#,
    );
    let details = Detail::from_validation(&invalid.validate().unwrap_err());
    let found: Vec<_> = details
        .iter()
        .map(|d| (d.path.clone(), d.message.as_str()))
        .collect();
    let path = |p: &[&str]| p.iter().map(|s| PathSegment::from(*s)).collect::<Vec<_>>();
    assert_eq!(
        found,
        [
            (path(&["age"]), "must be between 0 and 150"),
            (path(&["backup_email"]), "must be a valid email address"),
            (path(&["homepage"]), "must be a valid URL"),
            (path(&["inner", "qty"]), "must be at least 1"),
            (path(&["name"]), "length must be between 1 and 50"),
            (path(&["nick"]), "length must be between 1 and 5"),
        ]
    );
}

#[test]
fn a_regex_rule_checks_a_value_only() {
    #[derive(Validate)]
    struct Code {
        #[validate(regex(path = *DIGITS))]
        code: Nullable<String>,
    }
    static DIGITS: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new("^[0-9]+$").unwrap());
    let code = |code| Code { code }.validate().is_ok();
    assert!(code(Nullable::Absent));
    assert!(code(Nullable::Null));
    assert!(code(Nullable::Value("42".into())));
    assert!(!code(Nullable::Value("4x".into())));
}

#[test]
fn apply_merges_as_rfc_7396_does() {
    let mut stored = Some(1);
    Nullable::Absent.apply(&mut stored);
    assert_eq!(stored, Some(1));
    Nullable::Value(2).apply(&mut stored);
    assert_eq!(stored, Some(2));
    Nullable::Null.apply(&mut stored);
    assert_eq!(stored, None);
    assert_eq!(Nullable::<u8>::Absent.into_change(), None);
    assert_eq!(Nullable::<u8>::Null.into_change(), Some(None));
    assert_eq!(Nullable::Value(3).into_change(), Some(Some(3)));
    assert_eq!(Nullable::from(None::<u8>), Nullable::Null);
    assert_eq!(Nullable::from(Some(4)).into_value(), Some(4));
}

#[cfg(feature = "openapi")]
#[test]
fn the_schema_allows_null_where_it_can_be_cleared_and_nowhere_else() {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    let schema = generator.into_root_schema_for::<UserPatch>().to_value();
    let properties = &schema["properties"];
    assert_eq!(properties["age"]["type"], json!(["integer", "null"]));
    assert_eq!(
        (&properties["age"]["minimum"], &properties["age"]["maximum"]),
        (&json!(0), &json!(150))
    );
    assert_eq!(properties["nick"]["type"], json!(["string", "null"]));
    assert_eq!(properties["name"]["type"], json!("string"));
    assert_eq!(properties["name"]["maxLength"], json!(50));
    assert!(schema.get("required").is_none(), "{schema:#}");
}
