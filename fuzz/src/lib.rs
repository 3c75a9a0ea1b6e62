//! The application every fuzz target drives, and the invariants they check.

use std::cell::RefCell;

use pactum::{
    contract::NoContent, error::ErrorBody, handler, handler::AnyHandler, pipeline::Body, route,
    Ctx, Endpoint, NoBody, NoParams, NoQuery, Pipeline,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Item {
    #[validate(length(min = 1, max = 20))]
    pub sku: String,
    #[validate(range(min = 1, max = 99))]
    pub qty: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Echo {
    #[validate(length(min = 1, max = 50), nested)]
    pub items: Vec<Item>,
    #[validate(length(max = 200))]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Search {
    #[serde(default)]
    #[validate(range(min = 1, max = 100))]
    pub limit: Option<u32>,
    pub offset: Option<u64>,
    pub active: Option<bool>,
    #[serde(default)]
    pub tag: Vec<String>,
    pub ratio: Option<f64>,
    pub nested: Option<Item>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct RepoPath {
    pub org: String,
    pub repo: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct FilePath {
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct IdPath {
    pub id: u64,
}

/// The contracts: static, pattern and dynamic routes, query, body, several methods.
pub fn handlers() -> Vec<AnyHandler> {
    let echo = Endpoint::post(route::static_path("/echo"))
        .body::<Echo>()
        .response::<Echo>();
    let search = Endpoint::get(route::static_path("/search"))
        .query::<Search>()
        .response::<Search>();
    let repo = Endpoint::get(route::pattern("/orgs/:org/repos/:repo"))
        .params::<RepoPath>()
        .response::<RepoPath>();
    let file = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>();
    let item = Endpoint::put(route::pattern("/items/:id"))
        .params::<IdPath>()
        .body::<Item>()
        .response::<Item>();
    let delete = Endpoint::delete(route::pattern("/items/:id")).params::<IdPath>();
    let fixed = Endpoint::get(route::static_path("/items/fixed")).response::<IdPath>();
    vec![
        handler(
            echo.build().unwrap(),
            |ctx: Ctx<NoParams, NoQuery, Echo>| async move { Ok(ctx.body) },
        )
        .into(),
        handler(
            search.build().unwrap(),
            |ctx: Ctx<NoParams, Search>| async move { Ok(ctx.query) },
        )
        .into(),
        handler(repo.build().unwrap(), |ctx: Ctx<RepoPath>| async move {
            Ok(ctx.params)
        })
        .into(),
        handler(file.build().unwrap(), |ctx: Ctx<FilePath>| async move {
            Ok(ctx.params)
        })
        .into(),
        handler(
            item.build().unwrap(),
            |ctx: Ctx<IdPath, NoQuery, Item>| async move { Ok(ctx.body) },
        )
        .into(),
        handler(
            delete.build().unwrap(),
            |_: Ctx<IdPath, NoQuery, NoBody>| async { Ok(NoContent) },
        )
        .into(),
        handler(fixed.build().unwrap(), |_| async { Ok(IdPath { id: 0 }) }).into(),
    ]
}

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    static PIPELINE: RefCell<Option<Pipeline>> = const { RefCell::new(None) };
}

/// The fuzzed pipeline, built once per thread.
pub fn pipeline() -> Pipeline {
    PIPELINE.with(|p| {
        p.borrow_mut()
            .get_or_insert_with(|| Pipeline::new(handlers()).unwrap())
            .clone()
    })
}

/// Runs a future on the thread's runtime.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    RUNTIME.with(|rt| rt.block_on(future))
}

/// Sends one request through the pipeline.
pub fn handle(request: http::Request<Body>) -> pactum::pipeline::Response {
    let pipeline = pipeline();
    block_on(pipeline.handle(request))
}

/// The invariant of every answer: never a 5xx; every error is a JSON [`ErrorBody`]; every
/// success body is JSON.
pub fn check_answer(response: &pactum::pipeline::Response) {
    let status = response.status().as_u16();
    assert!(status < 500, "server error {status}: {:?}", response.body());
    // The fuzzed routes answer JSON or nothing, never a stream of events.
    let body = response.body().as_bytes().expect("a whole body");
    if body.is_empty() {
        return;
    }
    assert_eq!(response.headers()["content-type"], "application/json");
    if status >= 400 {
        let body: ErrorBody = serde_json::from_slice(body).expect("error body is an ErrorBody");
        assert!(!body.error.is_empty());
        if body.error == "Validation failed" || body.error == "Invalid JSON" {
            assert!(!body.details.is_empty(), "{body:?}");
        }
    } else {
        serde_json::from_slice::<serde_json::Value>(body).expect("success body is JSON");
    }
}

/// 2^53: every whole `f64` up to it in magnitude is the integer it was written as.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// `value` with every exactly representable whole float (`1.0`, `-3e2`; |v| ≤ 2^53) made the
/// equal integer, at any depth: the pipeline reads an integer the way JSON Schema's `integer`
/// does, and `4.0` is 4 there (plain serde_json refuses `4.0` for a Rust integer).
pub fn whole_floats_as_integers(value: Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() <= EXACT => {
                if f < 0.0 {
                    Value::from(f as i64)
                } else {
                    Value::from(f as u64)
                }
            }
            _ => Value::Number(n),
        },
        Value::Array(items) => {
            Value::Array(items.into_iter().map(whole_floats_as_integers).collect())
        }
        Value::Object(entries) => Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k, whole_floats_as_integers(v)))
                .collect(),
        ),
        other => other,
    }
}

/// The JSON document `data` read as a `T` the way the pipeline reads a body (numbers as
/// JSON Schema reads them), independently of pactum: `None` when it is not JSON or does not
/// read as a `T`.
///
/// The oracle of an accepted body: what the pipeline echoes must be this. (Only in that
/// direction: this reading is laxer elsewhere, e.g. it keeps the last of duplicate keys and
/// reads a struct from an array, where the pipeline refuses both.)
pub fn read_as_pipeline<T: DeserializeOwned>(data: &[u8]) -> Option<T> {
    let value: Value = serde_json::from_slice(data).ok()?;
    serde_json::from_value(whole_floats_as_integers(value)).ok()
}
