//! Row 24 of the conformance fixture on every adapter, `POST /uploads`: a multipart form with
//! a text field and a file, its limits (the file's own, answered before the rest is read) and
//! its malformed bodies; and a streamed `ByteStream` body on both adapters, with its limit.

use std::time::Duration;

use pactum::{handler, route, upload::ByteStream, Ctx, Endpoint, NoParams, NoQuery};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::api::MAX_UPLOAD;
use crate::support::{Answer, TestServer};

const BOUNDARY: &str = "XyZzYboundary42";

/// A file's bytes: every byte value, in a pattern that does not repeat early.
fn file_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A form of `fields` (name, value) and `files` (name, file name, bytes), framed by hand.
fn form(fields: &[(&str, &str)], files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in fields {
        out.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    for (name, filename, bytes) in files {
        out.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"; \
                 filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        out.extend_from_slice(bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    out
}

async fn post(app: &TestServer, content_type: &str, body: Vec<u8>) -> Answer {
    let request = app.client.post(app.url("/uploads"));
    app.send(request.header("content-type", content_type).body(body))
        .await
}

async fn post_form(app: &TestServer, body: Vec<u8>) -> Answer {
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    post(app, &content_type, body).await
}

async fn still_serving(app: &TestServer) {
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

pub async fn an_upload_answers_with_the_files_digest(app: &TestServer) {
    let bytes = file_bytes(100_000);
    let body = form(&[("title", "Holiday")], &[("file", "beach.jpg", &bytes)]);
    post_form(app, body).await.assert(
        201,
        json!({
            "title": "Holiday",
            "filename": "beach.jpg",
            "size": 100_000,
            "sha256": hex_sha256(&bytes),
        }),
    );
    // The text field may come after the file; an empty file is a file.
    let body = form(&[], &[("file", "empty.txt", b"")]);
    let mut body = body[..body.len() - format!("--{BOUNDARY}--\r\n").len()].to_vec();
    body.extend_from_slice(form(&[("title", "Late")], &[]).as_slice());
    post_form(app, body).await.assert(
        201,
        json!({"title": "Late", "filename": "empty.txt", "size": 0, "sha256": hex_sha256(b"")}),
    );
}

pub async fn a_file_of_exactly_one_mib_is_accepted(app: &TestServer) {
    let bytes = file_bytes(MAX_UPLOAD);
    let body = form(&[("title", "Big")], &[("file", "big.bin", &bytes)]);
    // The framing around the file does not count towards its limit.
    assert!(body.len() > MAX_UPLOAD);
    post_form(app, body).await.assert(
        201,
        json!({"title": "Big", "filename": "big.bin", "size": MAX_UPLOAD, "sha256": hex_sha256(&bytes)}),
    );
    still_serving(app).await;
}

pub async fn a_file_one_byte_over_is_413_naming_it(app: &TestServer) {
    let bytes = file_bytes(MAX_UPLOAD + 1);
    let body = form(&[("title", "Big")], &[("file", "big.bin", &bytes)]);
    post_form(app, body).await.assert(
        413,
        json!({
            "error": "Payload too large",
            "details": [{"path": ["file"], "message": "must be at most 1048576 bytes"}]
        }),
    );
    still_serving(app).await;
}

/// A client sends a 1 MiB + 64 KiB file of a body announced as chunked (no length to refuse
/// up front), then stops sending, with 16 MiB more to come: the 413 arrives all the same —
/// the server answered from what it had, without waiting for (or reading) the rest.
pub async fn an_oversized_file_is_refused_before_the_rest_is_read(app: &TestServer) {
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    let head = format!(
        "POST /uploads HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.expect("write head");
    let start = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nBig\r\n\
         --{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n"
    );
    let mut sent = start.into_bytes();
    sent.extend_from_slice(&file_bytes(MAX_UPLOAD + 64 * 1024));
    let (mut reader, mut writer) = stream.into_split();
    // Written beside the reading: a server that stops reading must not stall the test.
    let writing = tokio::spawn(async move {
        for chunk in sent.chunks(16 * 1024) {
            let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), chunk, b"\r\n"].concat();
            if writer.write_all(&framed).await.is_err() {
                return; // the server answered and closed: fine, its answer is read below
            }
        }
        // Held open, the body unfinished, until the test ends: the stalled client under test,
        // not a wait for the server.
        tokio::time::sleep(Duration::from_secs(30)).await;
        drop(writer);
    });
    // Nothing more is sent: the answer must come without the rest of the body.
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buffer[..n]),
            }
            let text = String::from_utf8_lossy(&answer);
            if text.contains("\r\n\r\n") && text.ends_with('}') {
                break;
            }
        }
    })
    .await;
    assert!(
        read.is_ok(),
        "no answer while the body was unfinished: {answer:?}"
    );
    writing.abort();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(
        text.ends_with(r#"{"error":"Payload too large","details":[{"path":["file"],"message":"must be at most 1048576 bytes"}]}"#),
        "{text}"
    );
    still_serving(app).await;
}

pub async fn a_declared_length_over_the_body_limit_is_413_at_once(app: &TestServer) {
    let head = format!(
        "POST /uploads HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\r\n"
    );
    let answer = app.raw(head.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"Payload too large"}"#),
        "{answer}"
    );
    still_serving(app).await;
}

pub async fn a_missing_field_is_400_naming_it(app: &TestServer) {
    let body = form(&[], &[("file", "a.txt", b"hi")]);
    post_form(app, body).await.assert(
        400,
        json!({"error": "Validation failed", "details": [{"path": ["title"], "message": "missing field `title`"}]}),
    );
    post_form(app, form(&[("title", "x")], &[])).await.assert(
        400,
        json!({"error": "Validation failed", "details": [{"path": ["file"], "message": "missing field `file`"}]}),
    );
    let body = form(&[("title", "")], &[("file", "a.txt", b"hi")]);
    post_form(app, body).await.assert(
        400,
        json!({"error": "Validation failed", "details": [{"path": ["title"], "message": "length must be between 1 and 100"}]}),
    );
    still_serving(app).await;
}

pub async fn a_malformed_body_is_400(app: &TestServer) {
    let body = form(&[("title", "x")], &[("file", "a.txt", b"hi")]);
    // No boundary in the content type.
    post(app, "multipart/form-data", body.clone()).await.assert(
        400,
        json!({"error": "Invalid multipart body", "details": [{"path": [], "message": "multipart boundary not found in Content-Type"}]}),
    );
    // Broken framing: the body ends inside the file.
    let cut = body[..body.len() - 20].to_vec();
    let answer = post_form(app, cut).await;
    assert_eq!(answer.status, 400, "{}", answer.text);
    assert_eq!(answer.json()["error"], "Invalid multipart body");
    assert_eq!(answer.json()["details"][0]["path"], json!(["file"]));
    // Not a form at all.
    let answer = post_form(app, b"just some text".to_vec()).await;
    assert_eq!(answer.status, 400, "{}", answer.text);
    assert_eq!(answer.json()["error"], "Invalid multipart body");
    still_serving(app).await;
}

pub async fn another_content_type_is_415(app: &TestServer) {
    let unsupported = json!({"error": "Unsupported media type"});
    post(app, "application/json", br#"{"title":"x"}"#.to_vec())
        .await
        .assert(415, unsupported.clone());
    post(
        app,
        "multipart/mixed; boundary=x",
        form(&[("title", "x")], &[]),
    )
    .await
    .assert(415, unsupported.clone());
    let request = app.client.post(app.url("/uploads")).body("title=x");
    app.send(request).await.assert(415, unsupported);
    still_serving(app).await;
}

pub async fn a_file_name_that_is_not_utf8_is_400_naming_the_part(app: &TestServer) {
    let mut body = form(&[("title", "Bytes")], &[("file", "a\u{1}.txt", b"x")]);
    // The name's `\x01` becomes a byte that is not UTF-8.
    let at = body
        .windows(6)
        .position(|w| w == b"a\x01.txt")
        .expect("the name is in the body");
    body[at + 1] = 0xff;
    post_form(app, body).await.assert(
        400,
        json!({
            "error": "Invalid multipart body",
            "details": [{"path": ["file"], "message": "the file name is not UTF-8"}]
        }),
    );
    still_serving(app).await;
}

on_every_adapter!(
    an_upload_answers_with_the_files_digest,
    a_file_name_that_is_not_utf8_is_400_naming_the_part,
    a_file_of_exactly_one_mib_is_accepted,
    a_file_one_byte_over_is_413_naming_it,
    an_oversized_file_is_refused_before_the_rest_is_read,
    a_declared_length_over_the_body_limit_is_413_at_once,
    a_missing_field_is_400_naming_it,
    a_malformed_body_is_400,
    another_content_type_is_415,
);

/// What the streaming handler saw.
#[derive(Debug, Serialize, Deserialize, validator::Validate)]
struct Counted {
    chunks: usize,
    bytes: usize,
}

/// `PUT /blob`: a `ByteStream` body of at most 64 KiB, counted chunk by chunk.
fn streaming_app() -> Vec<pactum::handler::AnyHandler> {
    let blob = Endpoint::put(route!("/blob"))
        .body::<ByteStream>()
        .body_limit(64 * 1024)
        .response::<Counted>()
        .build()
        .expect("valid contract");
    let count = |mut ctx: Ctx<NoParams, NoQuery, ByteStream>| async move {
        let (mut chunks, mut bytes) = (0, 0);
        while let Some(chunk) = ctx.body.next_chunk().await {
            chunks += 1;
            bytes += chunk?.len();
        }
        Ok(Counted { chunks, bytes })
    };
    vec![handler(blob, count).into()]
}

/// Sends `PUT /blob` chunked, `chunks` chunks of `size` bytes 50 ms apart, and reads the
/// answer.
async fn put_chunked(app: &TestServer, chunks: usize, size: usize) -> String {
    let mut stream = TcpStream::connect(app.addr).await.expect("connect");
    let head = "PUT /blob HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\
                Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes()).await.expect("write head");
    for _ in 0..chunks {
        let chunk = [
            format!("{size:x}\r\n").as_bytes(),
            &vec![b'a'; size],
            b"\r\n",
        ]
        .concat();
        if stream.write_all(&chunk).await.is_err() {
            break;
        }
        stream.flush().await.expect("flush");
        // The trickling client under test (chunks apart), not a wait for the server.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    crate::support::read_to_close(&mut stream, Duration::from_secs(10)).await
}

async fn byte_stream_is_streamed_and_limited(app: TestServer) {
    // Each chunk reaches the handler as it is sent: more than one chunk, every byte.
    let answer = put_chunked(&app, 4, 1000).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let counted: serde_json::Value = serde_json::from_str(body).expect("JSON answer");
    assert_eq!(counted["bytes"], 4000, "{answer}");
    assert!(counted["chunks"].as_u64().unwrap() > 1, "{answer}");
    // Past the limit while streaming: the handler's `?` answers 413.
    let answer = put_chunked(&app, 3, 30 * 1024).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"Payload too large"}"#),
        "{answer}"
    );
    // A declared length over it: 413 before the handler runs.
    let head = "PUT /blob HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n";
    let answer = app.raw(head.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // Any content type, and still serving.
    let request = app.client.put(app.url("/blob")).body(vec![1u8; 10]);
    let answer = app.send(request.header("content-type", "image/png")).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert_eq!(answer.json()["bytes"], 10);
}

#[tokio::test]
async fn byte_stream_native() {
    let app = crate::support::native_with(streaming_app(), crate::support::options()).await;
    byte_stream_is_streamed_and_limited(app).await;
}

#[tokio::test]
async fn byte_stream_warp() {
    byte_stream_is_streamed_and_limited(crate::support::warp_with(streaming_app()).await).await;
}
