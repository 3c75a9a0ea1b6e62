//! Robustness over real sockets, on the native server and the warp adapter: 128-bit and
//! narrow integers in a JSON body, and panics in the synchronous parts of middleware and
//! handlers, each answered 500 on a connection that then serves the next request.

use std::time::Duration;

use pactum::http::Method;
use pactum::{
    handler, handler::AnyHandler, middleware, route, Ctx, Endpoint, NoBody, NoParams, NoQuery,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use validator::Validate;

use crate::support::{self, TestServer};

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Wide {
    big: i128,
    huge: u128,
    small: i8,
    count: u64,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Status {
    ok: bool,
}

fn built<P, Q, B, R>(
    result: Result<Endpoint<P, Q, B, R>, pactum::error::ConfigError>,
) -> Endpoint<P, Q, B, R> {
    result.unwrap_or_else(|e| panic!("invalid contract: {e}"))
}

/// A middleware that panics in its synchronous part, before its future is built.
fn panics_before_its_future(who: &'static str) -> middleware::Middleware {
    middleware::from_fn(move |req, next| {
        if req.method() == Method::GET {
            panic!("{who} middleware panicked before its future");
        }
        async move { next.run(req).await }
    })
}

/// A middleware that only passes the request on.
fn passes() -> middleware::Middleware {
    middleware::from_fn(|req, next| async move { next.run(req).await })
}

async fn ok(_: Ctx) -> Result<Status, pactum::Error> {
    Ok(Status { ok: true })
}

fn handlers() -> Vec<AnyHandler> {
    let wide = built(
        Endpoint::post(route::static_path("/wide"))
            .body::<Wide>()
            .response::<Wide>()
            .build(),
    );
    let fine = built(
        Endpoint::get(route::static_path("/ok"))
            .response::<Status>()
            .build(),
    );
    let outer = built(
        Endpoint::get(route::static_path("/panic/outer"))
            .response::<Status>()
            .middleware(panics_before_its_future("outer"))
            .middleware(passes())
            .build(),
    );
    let inner = built(
        Endpoint::get(route::static_path("/panic/inner"))
            .response::<Status>()
            .middleware(passes())
            .middleware(panics_before_its_future("inner"))
            .build(),
    );
    let in_handler = built(
        Endpoint::get(route::static_path("/panic/handler"))
            .response::<Status>()
            .middleware(passes())
            .build(),
    );
    let bare_handler = built(
        Endpoint::get(route::static_path("/panic/bare-handler"))
            .response::<Status>()
            .build(),
    );
    vec![
        handler(wide, |ctx: Ctx<NoParams, NoQuery, Wide>| async move {
            Ok(ctx.body)
        })
        .into(),
        handler(fine, ok).into(),
        handler(outer, ok).into(),
        handler(inner, ok).into(),
        handler(in_handler, panics_before_its_async_block).into(),
        handler(bare_handler, panics_before_its_async_block).into(),
    ]
}

/// A handler function that panics before its async block.
fn panics_before_its_async_block(
    ctx: Ctx<NoParams, NoQuery, NoBody>,
) -> impl std::future::Future<Output = Result<Status, pactum::Error>> {
    if ctx.method == Method::GET {
        panic!("handler panicked before its async block");
    }
    async { Ok(Status { ok: false }) }
}

async fn native() -> TestServer {
    support::native_with(handlers(), support::options()).await
}

/// The handler list through the warp adapter on pactum's server, as `support::warp`.
async fn warp_adapter() -> TestServer {
    use ::warp::Filter;
    let app = pactum_warp::filter(handlers())
        .expect("valid handler list")
        .or(pactum_warp::not_found());
    let server = pactum_warp::serve(app, support::options())
        .await
        .expect("server starts");
    TestServer {
        addr: server.local_addr(),
        running: support::Running::Server(server),
        client: support::client(),
    }
}

/// One HTTP/1.1 response read from a kept-alive connection: status, headers (lower-case
/// names), body.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

async fn read_response(stream: &mut TcpStream) -> Raw {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let read = async {
        loop {
            let n = stream.read(&mut chunk).await.expect("read");
            assert!(
                n > 0,
                "connection closed before a whole response: {:?}",
                String::from_utf8_lossy(&buf)
            );
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).into_owned();
            let Some(end) = text.find("\r\n\r\n") else {
                continue;
            };
            let mut lines = text[..end].lines();
            let status = lines.next().expect("status line")[9..12]
                .parse()
                .expect("status code");
            let headers: Vec<(String, String)> = lines
                .filter_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    Some((name.trim().to_ascii_lowercase(), value.trim().to_owned()))
                })
                .collect();
            let length: usize = headers
                .iter()
                .find(|(n, _)| n == "content-length")
                .map_or(0, |(_, v)| v.parse().expect("content-length"));
            if buf.len() >= end + 4 + length {
                return Raw {
                    status,
                    headers,
                    body: text[end + 4..end + 4 + length].to_owned(),
                };
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("a response within 10 s")
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n").into_bytes()
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Sends `first` then `second` on one kept-alive connection, reading each answer in turn.
async fn two_on_one_connection(app: &TestServer, first: &[u8], second: &[u8]) -> (Raw, Raw) {
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    stream.write_all(first).await.expect("write the first");
    let one = read_response(&mut stream).await;
    stream.write_all(second).await.expect("write the second");
    let two = read_response(&mut stream).await;
    (one, two)
}

const WIDE: &str = r#"{"big":-170141183460469231731687303715884105728,"huge":340282366920938463463374607431768211455,"small":-128,"count":18446744073709551615}"#;

/// The 500 every panic becomes, then a following request served on the same connection.
async fn panic_is_a_500_and_the_connection_lives(app: &TestServer, path: &str) {
    let (panicked, next) = two_on_one_connection(app, &get(path), &get("/ok")).await;
    assert_eq!(panicked.status, 500, "{path}: {:?}", panicked.body);
    assert_eq!(
        panicked.header("content-type"),
        Some("application/json"),
        "{path}"
    );
    assert_eq!(
        panicked.json(),
        json!({"error": "Internal server error"}),
        "{path}"
    );
    assert_ne!(panicked.header("connection"), Some("close"), "{path}");
    assert_eq!(next.status, 200, "after {path}: {:?}", next.body);
    assert_eq!(next.json(), json!({"ok": true}), "after {path}");
}

pub async fn wide_integers_are_echoed(app: &TestServer) {
    let answer = app
        .send(
            app.client
                .post(app.url("/wide"))
                .header("content-type", "application/json")
                .body(WIDE),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    assert_eq!(answer.header("content-type"), "application/json");
    // Compared as text: a JSON value would round the 128-bit numbers.
    assert_eq!(answer.text, WIDE);
    let whole = app
        .send(
            app.client
                .post(app.url("/wide"))
                .header("content-type", "application/json")
                .body(r#"{"big":1,"huge":2,"small":3.0,"count":4.0}"#),
        )
        .await;
    assert_eq!(whole.status, 201, "{}", whole.text);
    assert_eq!(whole.text, r#"{"big":1,"huge":2,"small":3,"count":4}"#);
}

pub async fn out_of_range_integers_are_a_400_with_their_path(app: &TestServer) {
    let send = |body: &'static str| {
        app.send(
            app.client
                .post(app.url("/wide"))
                .header("content-type", "application/json")
                .body(body),
        )
    };
    send(r#"{"big":0,"huge":0,"small":128,"count":0}"#)
        .await
        .assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["small"], "message": "number too large for i8"},
            ]}),
        );
    send(r#"{"big":170141183460469231731687303715884105728,"huge":-1,"small":0,"count":18446744073709551616}"#)
        .await
        .assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["big"], "message": "number too large for i128"},
                {"path": ["huge"], "message": "expected a non-negative integer (u128), found -1"},
                {"path": ["count"], "message": "number too large for u64"},
            ]}),
        );
    send(r#"{"big":-170141183460469231731687303715884105729,"huge":340282366920938463463374607431768211456,"small":-129,"count":4.5}"#)
        .await
        .assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["big"], "message": "number too small for i128"},
                {"path": ["huge"], "message": "number too large for u128"},
                {"path": ["small"], "message": "number too small for i8"},
                {"path": ["count"], "message": "invalid type: floating point `4.5`, expected u64"},
            ]}),
        );
    // A 128-bit integer is read from its digits: a float is refused.
    send(r#"{"big":4.0,"huge":0,"small":0,"count":0}"#)
        .await
        .assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["big"], "message": "invalid type: floating point `4.0`, expected i128"},
            ]}),
        );
}

pub async fn a_refused_body_leaves_the_connection_open(app: &TestServer) {
    let (refused, echoed) = two_on_one_connection(
        app,
        &post("/wide", r#"{"big":0,"huge":0,"small":300,"count":0}"#),
        &post("/wide", WIDE),
    )
    .await;
    assert_eq!(refused.status, 400, "{:?}", refused.body);
    assert_eq!(refused.json()["details"][0]["path"], json!(["small"]));
    assert_eq!(echoed.status, 201, "{:?}", echoed.body);
    assert_eq!(echoed.body, WIDE);
}

pub async fn outer_middleware_panicking_before_its_future(app: &TestServer) {
    panic_is_a_500_and_the_connection_lives(app, "/panic/outer").await;
}

pub async fn inner_middleware_panicking_before_its_future(app: &TestServer) {
    panic_is_a_500_and_the_connection_lives(app, "/panic/inner").await;
}

pub async fn handler_panicking_before_its_async_block(app: &TestServer) {
    panic_is_a_500_and_the_connection_lives(app, "/panic/handler").await;
    panic_is_a_500_and_the_connection_lives(app, "/panic/bare-handler").await;
}

pub async fn panics_one_after_another_on_one_connection(app: &TestServer) {
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    for path in ["/panic/outer", "/panic/inner", "/panic/handler", "/ok"] {
        stream.write_all(&get(path)).await.expect("write");
        let answer = read_response(&mut stream).await;
        let expected = if path == "/ok" { 200 } else { 500 };
        assert_eq!(answer.status, expected, "{path}: {:?}", answer.body);
    }
    // A keep-alive client pool sees the same.
    for path in ["/panic/outer", "/ok", "/panic/handler", "/ok"] {
        let answer = app.get(path).await;
        let expected = if path == "/ok" { 200 } else { 500 };
        assert_eq!(answer.status, expected, "{path}: {:?}", answer.text);
    }
}

macro_rules! adapter_cases {
    ($($case:ident),* $(,)?) => {
        mod native {
            $(
                #[tokio::test]
                async fn $case() {
                    super::$case(&super::native().await).await;
                }
            )*
        }
        mod warp {
            $(
                #[tokio::test]
                async fn $case() {
                    super::$case(&super::warp_adapter().await).await;
                }
            )*
        }
    };
}

adapter_cases!(
    wide_integers_are_echoed,
    out_of_range_integers_are_a_400_with_their_path,
    a_refused_body_leaves_the_connection_open,
    outer_middleware_panicking_before_its_future,
    inner_middleware_panicking_before_its_future,
    handler_panicking_before_its_async_block,
    panics_one_after_another_on_one_connection,
);
