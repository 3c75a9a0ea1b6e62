//! Property tests: generated input, not hand-picked cases, through the real pipeline.
#![allow(missing_docs)]

use std::collections::BTreeMap;

use pactum::{handler, pipeline::Body, route, Ctx, Endpoint, NoBody, NoParams, NoQuery, Pipeline};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

async fn call(pipeline: &Pipeline, request: http::Request<Body>) -> (u16, Value) {
    let response = pipeline.handle(request).await;
    let status = response.status().as_u16();
    let body = serde_json::from_slice(response.body().as_bytes().unwrap()).unwrap_or(Value::Null);
    (status, body)
}

fn get(uri: &str) -> http::Request<Body> {
    http::Request::get(uri)
        .body(Body::empty())
        .expect("valid request")
}

// ----------------------------------------------------------------------------------------
// Query round trip: whatever serde_qs writes (in any of its list formats), the server parses
// back to the same value.
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Inner {
    n: i32,
    flags: Vec<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Query {
    count: u32,
    offset: Option<u64>,
    ratio: Option<f64>,
    flag: Option<bool>,
    name: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    inner: Option<Inner>,
}

/// Strings with any character, reserved ones and non-ASCII included.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{1,8}",
        "[ &=?#%+\\[\\]/;,:@!$'()*~.-]{1,8}",
        "\\PC{1,12}",
    ]
}

fn query() -> impl Strategy<Value = Query> {
    (
        any::<u32>(),
        proptest::option::of(any::<u64>()),
        proptest::option::of(-1.0e9f64..1.0e9),
        proptest::option::of(any::<bool>()),
        proptest::option::of(text()),
        proptest::collection::vec(text(), 0..4),
        proptest::option::of((any::<i32>(), proptest::collection::vec(any::<bool>(), 1..3))),
    )
        .prop_map(|(count, offset, ratio, flag, name, tags, inner)| Query {
            count,
            offset,
            ratio,
            flag,
            name,
            tags,
            inner: inner.map(|(n, flags)| Inner { n, flags }),
        })
}

fn query_echo() -> Pipeline {
    let echo = Endpoint::get(route::static_path("/q"))
        .query::<Query>()
        .response::<Query>()
        .build()
        .expect("valid contract");
    Pipeline::new(vec![handler(
        echo,
        |ctx: Ctx<NoParams, Query>| async move { Ok(ctx.query) },
    )
    .into()])
    .expect("valid pipeline")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn query_round_trips(q in query(), format in 0..3usize) {
        let format = [
            serde_qs::ArrayFormat::Indexed,
            serde_qs::ArrayFormat::EmptyIndexed,
            serde_qs::ArrayFormat::Unindexed,
        ][format];
        let encoded = serde_qs::Config::new().array_format(format).serialize_string(&q).unwrap();
        let pipeline = query_echo();
        let (status, body) = runtime().block_on(call(&pipeline, get(&format!("/q?{encoded}"))));
        prop_assert_eq!(status, 200, "{} -> {}", encoded, body);
        let back: Query = serde_json::from_value(body).unwrap();
        prop_assert_eq!(back, q);
    }
}

/// `encoded` with the brackets of every key percent-encoded, as browsers' `URLSearchParams`,
/// axios and Python's `requests` send them (`tag%5B0%5D=a`), in upper or lower case.
fn brackets_encoded(encoded: &str, lower: bool) -> String {
    let (open, close) = if lower {
        ("%5b", "%5d")
    } else {
        ("%5B", "%5D")
    };
    encoded
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) => {
                format!("{}={value}", key.replace('[', open).replace(']', close))
            }
            None => pair.replace('[', open).replace(']', close),
        })
        .collect::<Vec<_>>()
        .join("&")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every encoding of the same keys — literal brackets, `%5B%5D` (either case), indexed,
    /// empty-indexed, repeated, form-encoded — gives the same value.
    #[test]
    fn every_key_encoding_gives_the_same_value(q in query(), format in 0..3usize, lower: bool) {
        let format = [
            serde_qs::ArrayFormat::Indexed,
            serde_qs::ArrayFormat::EmptyIndexed,
            serde_qs::ArrayFormat::Unindexed,
        ][format];
        let config = serde_qs::Config::new().array_format(format);
        let literal = config.serialize_string(&q).unwrap();
        let form = config.use_form_encoding(true).serialize_string(&q).unwrap();
        let pipeline = query_echo();
        for encoded in [brackets_encoded(&literal, lower), form] {
            let (status, body) =
                runtime().block_on(call(&pipeline, get(&format!("/q?{encoded}"))));
            prop_assert_eq!(status, 200, "{} -> {}", encoded, body);
            let back: Query = serde_json::from_value(body).unwrap();
            prop_assert_eq!(&back, &q, "{}", encoded);
        }
    }
}

// ----------------------------------------------------------------------------------------
// Coercion: numbers and bools written as text arrive typed; anything else is a 400 that names
// the field — never a 500, never a panic.
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Typed {
    small: Option<u8>,
    signed: Option<i16>,
    on: Option<bool>,
    #[validate(range(min = 1, max = 100))]
    bounded: Option<u32>,
}

fn typed_echo() -> Pipeline {
    let echo = Endpoint::get(route::static_path("/t"))
        .query::<Typed>()
        .response::<Typed>()
        .build()
        .expect("valid contract");
    Pipeline::new(vec![handler(
        echo,
        |ctx: Ctx<NoParams, Typed>| async move { Ok(ctx.query) },
    )
    .into()])
    .expect("valid pipeline")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn numbers_and_bools_coerce_or_fail_with_their_path(
        field in prop::sample::select(vec!["small", "signed", "on", "bounded"]),
        raw in prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<bool>().prop_map(|b| b.to_string()),
            "[a-zA-Z0-9.+-]{0,6}",
        ],
    ) {
        let encoded: String = url::form_urlencoded::byte_serialize(raw.as_bytes()).collect();
        let (status, body) = runtime().block_on(call(&typed_echo(), get(&format!("/t?{field}={encoded}"))));
        let expected: Option<Value> = match field {
            "small" => raw.parse::<u8>().ok().map(Value::from),
            "signed" => raw.parse::<i16>().ok().map(Value::from),
            // serde_qs reads a bool key with an empty value as a set flag.
            "on" if raw.is_empty() => Some(Value::from(true)),
            "on" => raw.parse::<bool>().ok().map(Value::from),
            _ => raw.parse::<u32>().ok().filter(|n| (1..=100).contains(n)).map(Value::from),
        };
        match expected {
            Some(value) => {
                prop_assert_eq!(status, 200, "{}={} -> {}", field, raw, body);
                prop_assert_eq!(&body[field], &value);
            }
            None => {
                prop_assert_eq!(status, 400, "{}={} -> {}", field, raw, body);
                prop_assert_eq!(&body["error"], "Validation failed");
                prop_assert_eq!(&body["details"][0]["path"], &serde_json::json!([field]));
            }
        }
    }
}

// ----------------------------------------------------------------------------------------
// Routes: the path built from a contract matches back to the same params; static segments
// win; a catch-all keeps its slashes.
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct RepoPath {
    org: String,
    repo: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct FilePath {
    path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Which {
    route: String,
    value: String,
}

/// The repo and file contracts, and a pipeline serving them beside a static route.
struct Routes {
    repo: Endpoint<RepoPath, NoQuery, NoBody, Which>,
    file: Endpoint<FilePath, NoQuery, NoBody, Which>,
    pipeline: Pipeline,
}

fn routes() -> Routes {
    let repo = Endpoint::get(route::pattern("/orgs/:org/repos/:repo"))
        .params::<RepoPath>()
        .response::<Which>()
        .build()
        .expect("valid contract");
    let file = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<Which>()
        .build()
        .expect("valid contract");
    let fixed = Endpoint::get(route::static_path("/orgs/fixed/repos/static"))
        .response::<Which>()
        .build()
        .expect("valid contract");
    let pipeline = Pipeline::new(vec![
        handler(repo.clone(), |ctx: Ctx<RepoPath>| async move {
            Ok(Which {
                route: "pattern".into(),
                value: format!("{}\u{0}{}", ctx.params.org, ctx.params.repo),
            })
        })
        .into(),
        handler(file.clone(), |ctx: Ctx<FilePath>| async move {
            Ok(Which {
                route: "dynamic".into(),
                value: ctx.params.path,
            })
        })
        .into(),
        handler(fixed, |_| async {
            Ok(Which {
                route: "static".into(),
                value: String::new(),
            })
        })
        .into(),
    ])
    .expect("valid pipeline");
    Routes {
        repo,
        file,
        pipeline,
    }
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z]{1,6}", "\\PC{1,10}", "[ /%?#&+]{1,4}"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn built_paths_match_back(org in segment(), repo in segment()) {
        let Routes { repo: endpoint, pipeline, .. } = routes();
        let params = RepoPath { org: org.clone(), repo: repo.clone() };
        let path = endpoint.path_for(&params).unwrap();
        let (status, body) = runtime().block_on(call(&pipeline, get(&path)));
        prop_assert_eq!(status, 200, "{} -> {}", path, body);
        if org == "fixed" && repo == "static" {
            prop_assert_eq!(&body["route"], "static");
        } else {
            prop_assert_eq!(&body["route"], "pattern");
            prop_assert_eq!(body["value"].as_str().unwrap(), format!("{org}\u{0}{repo}"));
        }
    }

    #[test]
    fn catch_all_keeps_slashes(pieces in proptest::collection::vec(segment(), 1..5)) {
        let tail = pieces.join("/");
        let Routes { file: endpoint, pipeline, .. } = routes();
        let path = endpoint.path_for(&FilePath { path: tail.clone() }).unwrap();
        let (status, body) = runtime().block_on(call(&pipeline, get(&path)));
        if tail.split('/').any(|s| matches!(s, "" | "." | "..")) {
            // Refused by default (path traversal), naming the param.
            prop_assert_eq!(status, 400, "{} -> {}", path, body);
            prop_assert_eq!(&body["details"][0]["path"], &serde_json::json!(["path"]));
        } else {
            prop_assert_eq!(status, 200, "{} -> {}", path, body);
            prop_assert_eq!(&body["route"], "dynamic");
            prop_assert_eq!(body["value"].as_str().unwrap(), tail);
        }
    }
}

#[test]
fn static_route_wins_over_the_pattern() {
    let Routes { pipeline, .. } = routes();
    let (status, body) = runtime().block_on(call(&pipeline, get("/orgs/fixed/repos/static")));
    assert_eq!((status, body["route"].as_str()), (200, Some("static")));
    let (_, body) = runtime().block_on(call(&pipeline, get("/orgs/fixed/repos/other")));
    assert_eq!(body["route"], "pattern");
}

// ----------------------------------------------------------------------------------------
// Validation details: for arbitrary invalid bodies of a nested type, every reported path
// exists in the input (a missing field's parent does).
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Line {
    #[validate(length(min = 1, max = 5))]
    sku: String,
    #[validate(range(min = 1, max = 9))]
    qty: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Order {
    #[validate(length(min = 1, max = 4), nested)]
    lines: Vec<Line>,
    #[validate(email)]
    email: String,
    meta: BTreeMap<String, u8>,
}

fn order_echo() -> Pipeline {
    let echo = Endpoint::post(route::static_path("/orders"))
        .body::<Order>()
        .response::<Order>()
        .build()
        .expect("valid contract");
    Pipeline::new(vec![handler(
        echo,
        |ctx: Ctx<NoParams, NoQuery, Order>| async move { Ok(ctx.body) },
    )
    .into()])
    .expect("valid pipeline")
}

/// Any JSON value, up to a small depth, biased towards the order's own keys.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1.0e6f64..1.0e6).prop_map(Value::from),
        "[a-z@.]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(
                prop::sample::select(vec!["lines", "sku", "qty", "email", "meta", "x"])
                    .prop_map(str::to_owned),
                inner,
                0..4,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn path_exists(input: &Value, path: &[Value]) -> bool {
    let mut at = input;
    for step in path {
        at = match (step, at) {
            (Value::String(key), Value::Object(map)) => match map.get(key) {
                Some(next) => next,
                None => return false,
            },
            (Value::Number(i), Value::Array(items)) => {
                match items.get(i.as_u64().unwrap() as usize) {
                    Some(next) => next,
                    None => return false,
                }
            }
            _ => return false,
        };
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_detail_path_exists_in_the_input(input in json_value()) {
        let request = http::Request::post("/orders")
            .header("content-type", "application/json")
            .body(Body::from(input.to_string()))
            .unwrap();
        let (status, body) = runtime().block_on(call(&order_echo(), request));
        prop_assert!(status == 201 || status == 400, "{} for {}", status, input);
        if status == 400 {
            prop_assert_eq!(&body["error"], "Validation failed");
            let details = body["details"].as_array().unwrap();
            prop_assert!(!details.is_empty());
            for detail in details {
                let path = detail["path"].as_array().unwrap();
                let message = detail["message"].as_str().unwrap();
                // A missing field is named by its own path: its parent is in the input.
                let present = if message.starts_with("missing field") {
                    path_exists(&input, &path[..path.len() - 1])
                } else {
                    path_exists(&input, path)
                };
                prop_assert!(present, "{:?} ({}) not in {}", path, message, input);
                prop_assert!(!message.is_empty());
            }
        }
    }
}
