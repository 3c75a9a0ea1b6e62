//! The answers hyper writes by itself — to HTTP/1.1 heads it cannot parse (400), over its
//! limits (431) or with a target too long (414) — carry the JSON error body like every other
//! answer: status line kept, `content-type: application/json`, the right `content-length`,
//! `connection: close`. Raw requests over TCP, on the native server and on the warp adapter
//! served by `pactum_warp::serve`; through the pipeline's error formatter where the server
//! has the pipeline.

use std::time::Duration;

use pactum::{error::Rejection, Pipeline};
use serde_json::{json, Value};

use crate::support::{self, native_with, options, read_to_close, TestServer};

/// One HTTP/1.1 answer, parsed from raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct RawAnswer {
    /// The status line says `HTTP/1.0` (the server closes after it).
    pub version_1_0: bool,
    pub status: u16,
    /// Header names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawAnswer {
    /// Parses the answer at the start of `raw`; `None` unless its head is complete and its
    /// body has its `content-length`. Returns the answer and the bytes it took.
    pub fn parse(raw: &[u8]) -> Option<(Self, usize)> {
        let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
        let head = std::str::from_utf8(&raw[..end]).ok()?;
        let mut lines = head.split("\r\n");
        let status_line = lines.next()?;
        let status = status_line.get(9..12)?.parse().ok()?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map_or(Some(0), |(_, v)| v.parse().ok())?;
        let body = raw.get(end + 4..end + 4 + length)?.to_vec();
        let answer = Self {
            version_1_0: status_line.starts_with("HTTP/1.0"),
            status,
            headers,
            body,
        };
        Some((answer, end + 4 + length))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, if it is JSON with a JSON content type.
    pub fn json(&self) -> Option<Value> {
        if self.header("content-type") != Some("application/json") {
            return None;
        }
        serde_json::from_slice(&self.body).ok()
    }
}

/// Sends `request` on a new connection and parses what comes back before the server closes.
async fn answer(app: &TestServer, request: &[u8]) -> RawAnswer {
    let mut stream = tokio::net::TcpStream::connect(app.addr)
        .await
        .expect("connect");
    tokio::io::AsyncWriteExt::write_all(&mut stream, request)
        .await
        .expect("write");
    let raw = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let (answer, used) =
        RawAnswer::parse(raw.as_bytes()).unwrap_or_else(|| panic!("no whole answer: {raw:?}"));
    assert_eq!(used, raw.len(), "one answer, then the close: {raw:?}");
    answer
}

/// The bare-head cases: what hyper refuses itself, with the status it answers.
fn refused_heads() -> Vec<(&'static str, Vec<u8>, u16)> {
    let mut cases: Vec<(&'static str, Vec<u8>, u16)> =
        vec![
        ("bad request line", b"GARBAGE\r\n\r\n".to_vec(), 400),
        ("no target", b"GET HTTP/1.1\r\n\r\n".to_vec(), 400),
        ("bad version", b"GET / HTTP/9.9\r\nhost: x\r\n\r\n".to_vec(), 400),
        ("space in target", b"GET /a b HTTP/1.1\r\n\r\n".to_vec(), 400),
        ("bad method byte", b"G\x01T / HTTP/1.1\r\n\r\n".to_vec(), 400),
        ("header without colon", b"GET / HTTP/1.1\r\nbad header\r\n\r\n".to_vec(), 400),
        ("control byte in value", b"GET / HTTP/1.1\r\nx: a\x01b\r\n\r\n".to_vec(), 400),
        ("space before colon", b"GET / HTTP/1.1\r\nhost : x\r\n\r\n".to_vec(), 400),
        (
            "bad content-length",
            b"POST /users HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n".to_vec(),
            400,
        ),
        (
            "two content-lengths",
            b"POST /users HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}"
                .to_vec(),
            400,
        ),
        (
            "negative content-length",
            b"POST /users HTTP/1.1\r\nhost: x\r\ncontent-length: -1\r\n\r\n".to_vec(),
            400,
        ),
        (
            "transfer-encoding not chunked",
            b"POST /users HTTP/1.1\r\nhost: x\r\ntransfer-encoding: gzip\r\n\r\n".to_vec(),
            400,
        ),
        (
            "transfer-encoding on HTTP/1.0",
            b"POST /users HTTP/1.0\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n"
                .to_vec(),
            400,
        ),
    ];
    let mut many = b"GET /health HTTP/1.1\r\nhost: x\r\n".to_vec();
    for i in 0..101 {
        many.extend_from_slice(format!("x-h{i}: v\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    cases.push(("101 headers", many, 431));
    let mut big = b"GET /health HTTP/1.1\r\nhost: x\r\nx-big: ".to_vec();
    big.extend(std::iter::repeat_n(b'a', 70 * 1024));
    big.extend_from_slice(b"\r\n\r\n");
    cases.push(("70 KiB head", big, 431));
    cases
}

/// `{"error": message}` for each status hyper answers itself.
fn message(status: u16) -> &'static str {
    match status {
        400 => Rejection::MalformedRequest.message(),
        414 => Rejection::UriTooLong.message(),
        431 => Rejection::HeadTooLarge.message(),
        _ => panic!("hyper does not answer {status} itself"),
    }
}

#[track_caller]
fn assert_json_answer(name: &str, answer: &RawAnswer, status: u16, body: &Value) {
    assert_eq!(answer.status, status, "{name}: {answer:?}");
    assert_eq!(
        answer.header("content-type"),
        Some("application/json"),
        "{name}"
    );
    assert_eq!(answer.header("connection"), Some("close"), "{name}");
    assert!(answer.header("date").is_some(), "{name}: hyper's date kept");
    assert_eq!(answer.json().as_ref(), Some(body), "{name}: {answer:?}");
}

async fn heads_hyper_refuses_get_the_json_body(app: &TestServer) {
    for (name, request, status) in refused_heads() {
        let answer = answer(app, &request).await;
        assert_json_answer(name, &answer, status, &json!({"error": message(status)}));
    }
    // A valid request, then one hyper refuses, on one connection: the first answer is
    // pactum's, the second the JSON 400.
    let pipelined = b"GET /health HTTP/1.1\r\nhost: x\r\n\r\nGARBAGE\r\n\r\n";
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, pipelined)
        .await
        .unwrap();
    let raw = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let (first, used) = RawAnswer::parse(raw.as_bytes()).expect("first answer");
    assert_eq!(first.status, 200, "{raw:?}");
    assert_eq!(first.json(), Some(json!({"status": "ok"})));
    let (second, _) = RawAnswer::parse(&raw.as_bytes()[used..]).expect("second answer");
    assert_json_answer("pipelined", &second, 400, &json!({"error": "Bad request"}));
    // Both framing headers: hyper reads the chunked body and drops `content-length`; the
    // pipeline answers (here: the chunked body is not JSON).
    let both = b"POST /users HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                 content-length: 4\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    let answer = answer(app, both).await;
    assert_eq!(answer.status, 400, "{answer:?}");
    assert_eq!(answer.json().expect("JSON")["error"], "Invalid JSON");
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

#[tokio::test]
async fn native() {
    heads_hyper_refuses_get_the_json_body(&support::native().await).await;
}

#[tokio::test]
async fn warp_on_pactum_serve() {
    heads_hyper_refuses_get_the_json_body(&support::warp().await).await;
}

#[tokio::test]
async fn fixture_native() {
    heads_hyper_refuses_get_the_json_body(&support::fixture_native().await).await;
}

#[tokio::test]
async fn fixture_warp() {
    heads_hyper_refuses_get_the_json_body(&support::fixture_warp().await).await;
}

#[tokio::test]
async fn a_target_over_hypers_uri_limit_is_a_json_414() {
    let app = native_with(crate::api::handlers(), options().max_head_bytes(256 * 1024)).await;
    let target = format!("/{}", "a".repeat(70 * 1024));
    let request = format!("GET {target} HTTP/1.1\r\nhost: x\r\n\r\n");
    let answer = answer(&app, request.as_bytes()).await;
    assert_json_answer(
        "long target",
        &answer,
        414,
        &json!({"error": "URI too long"}),
    );
}

#[tokio::test]
async fn the_pipelines_error_formatter_shapes_them() {
    let app = Pipeline::builder(crate::api::handlers()).error_formatter(|error| {
        let body = json!({
            "message": error.to_body().error,
            "rejection": format!("{:?}", error.rejection()),
            "status": error.status().as_u16(),
        });
        let mut response = http::Response::new(bytes::Bytes::from(body.to_string()));
        *response.status_mut() = error.status();
        response.headers_mut().insert(
            "content-type",
            http::HeaderValue::from_static("application/json"),
        );
        response
            .headers_mut()
            .insert("x-formatted", http::HeaderValue::from_static("yes"));
        response
    });
    let app = native_with(app, options()).await;
    for (name, request, status) in refused_heads() {
        let answer = answer(&app, &request).await;
        let rejection = match status {
            400 => "Some(MalformedRequest)",
            _ => "Some(HeadTooLarge)",
        };
        let body = json!({"message": message(status), "rejection": rejection, "status": status});
        assert_json_answer(name, &answer, status, &body);
        assert_eq!(answer.header("x-formatted"), Some("yes"), "{name}");
    }
    // The pipeline's own errors go through it too, as before.
    let answer = app.get("/nowhere").await;
    assert_eq!(answer.status, 404);
    assert_eq!(answer.json()["rejection"], "Some(NotFound)");
}

/// A service's own answer is never taken for hyper's, even one written exactly as hyper
/// writes its own (a bare 400, `connection: close`, no body); on `serve_service` hyper's own
/// answers get the built-in body.
#[tokio::test]
async fn a_services_bare_answer_is_left_alone() {
    let service = tower::service_fn(|request: http::Request<hyper::body::Incoming>| async move {
        let mut response = http::Response::new(http_body_util::Empty::<bytes::Bytes>::new());
        if request.uri().path() == "/bare" {
            *response.status_mut() = http::StatusCode::BAD_REQUEST;
            response
                .headers_mut()
                .insert("connection", http::HeaderValue::from_static("close"));
        }
        Ok::<_, std::convert::Infallible>(response)
    });
    let server = pactum::server::serve_service(service, options())
        .await
        .expect("server starts");
    let app = TestServer {
        addr: server.local_addr(),
        running: support::Running::Server(server),
        client: support::client(),
    };
    for _ in 0..2 {
        let bare = answer(&app, b"GET /bare HTTP/1.1\r\nhost: x\r\n\r\n").await;
        assert_eq!(bare.status, 400);
        assert_eq!(bare.header("content-type"), None, "{bare:?}");
        assert!(bare.body.is_empty(), "{bare:?}");
    }
    // On a kept-alive connection, after an answer: still the service's.
    let two = b"GET /ok HTTP/1.1\r\nhost: x\r\n\r\nGET /bare HTTP/1.1\r\nhost: x\r\n\r\n";
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, two)
        .await
        .unwrap();
    let raw = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let (first, used) = RawAnswer::parse(raw.as_bytes()).expect("first answer");
    assert_eq!(first.status, 200, "{raw:?}");
    let (second, _) = RawAnswer::parse(&raw.as_bytes()[used..]).expect("second answer");
    assert_eq!((second.status, second.body.len()), (400, 0), "{raw:?}");
    // hyper's own answer on this server: the built-in body.
    let own = answer(&app, b"GARBAGE\r\n\r\n").await;
    assert_json_answer("serve_service", &own, 400, &json!({"error": "Bad request"}));
}

/// What cannot carry the body: over HTTP/2, a header list past `max_head_bytes` is refused by
/// h2 itself, inside its stream state, before hyper or the service sees a request — a HEADERS
/// frame with `:status 431` and END_STREAM, no content type, no body (h2 0.4
/// `Streams::recv_headers`, `RecvHeaderBlockError::Oversize`). Pinned here;
/// CONTRIBUTING.md ("How some things work") says so.
#[tokio::test]
async fn the_http2_431_has_no_body() {
    for app in [support::native().await, support::warp().await] {
        let tcp = tokio::net::TcpStream::connect(app.addr).await.unwrap();
        let (client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        tokio::spawn(connection);
        let mut client = client.ready().await.expect("ready");
        let mut request = http::Request::get(format!("http://{}/health", app.addr));
        for i in 0..70 {
            request = request.header(format!("x-h{i}"), "a".repeat(1000));
        }
        let (response, _) = client
            .send_request(request.body(()).unwrap(), true)
            .expect("sent");
        let response = response.await.expect("an answer");
        assert_eq!(response.status(), 431);
        assert!(response.headers().get("content-type").is_none());
        assert!(response.body().is_end_stream(), "HEADERS with END_STREAM");
        // The connection keeps serving.
        let mut client = client.ready().await.expect("still serving");
        let health = http::Request::get(format!("http://{}/health", app.addr));
        let (response, _) = client
            .send_request(health.body(()).unwrap(), true)
            .expect("sent");
        assert_eq!(response.await.expect("answered").status(), 200);
    }
}
