//! The form's round trip (the typed client's writer, multer's reading, the form reader) and
//! its refusals, without a socket.

use std::borrow::Cow;

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue};
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{parse, read_parts, BodyInput, RequestChunks};
use crate::body::Body;
use crate::contract::Slot;
use crate::upload::form_ser::encode;
use crate::upload::{ByteStream, FilePart};

#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Form {
    #[validate(length(min = 1, max = 10))]
    title: String,
    count: u32,
    public: bool,
    #[serde(default)]
    tags: Vec<String>,
    note: Option<String>,
    file: FilePart,
    #[serde(default)]
    more: Vec<FilePart>,
}

fn form() -> Form {
    Form {
        title: "Hi".into(),
        count: 3,
        public: true,
        tags: vec!["a".into(), "b".into()],
        note: None,
        file: FilePart::new(vec![0u8, 255, 13, 10])
            .with_filename("a.bin")
            .with_content_type("image/png"),
        more: vec![
            FilePart::new("x"),
            FilePart::new("y").with_filename("y.txt"),
        ],
    }
}

fn input(content_type: &str, body: impl Into<Body>, limits: &[(&'static str, usize)]) -> BodyInput {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
    let limits: Vec<(Cow<'static, str>, usize)> = limits
        .iter()
        .map(|(n, l)| (Cow::Borrowed(*n), *l))
        .collect();
    BodyInput::new(&headers, body.into(), 1 << 20, &limits)
}

async fn read(content_type: &str, body: impl Into<Body>) -> Result<Form, crate::Error> {
    let parts = read_parts(input(content_type, body, &[])).await?;
    parse::<Form>(&parts)
}

#[tokio::test]
async fn a_form_round_trips() {
    let encoded = encode(&form()).unwrap();
    let content_type = encoded.content_type.to_str().unwrap().to_owned();
    assert!(content_type.starts_with("multipart/form-data; boundary=pactum-"));
    let mut expected = form();
    // A file sent without a content type goes as `application/octet-stream`.
    for file in &mut expected.more {
        *file = file.clone().with_content_type("application/octet-stream");
    }
    assert_eq!(read(&content_type, encoded.bytes).await.unwrap(), expected);
}

#[tokio::test]
async fn every_failing_field_is_named() {
    let body = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\r\n\
                --b\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\nmany\r\n\
                --b\r\nContent-Disposition: form-data; name=\"public\"\r\n\r\ntrue\r\n\
                --b\r\nContent-Disposition: form-data; name=\"public\"\r\n\r\nfalse\r\n--b--\r\n";
    let error = read("multipart/form-data; boundary=b", body)
        .await
        .unwrap_err();
    let body = error.to_body();
    assert_eq!(body.error, "Validation failed");
    let details: Vec<(String, &str)> = body
        .details
        .iter()
        .map(|d| (format!("{:?}", d.path), d.message.as_str()))
        .collect();
    let key = |name: &str| format!("[Key({name:?})]");
    assert_eq!(
        details,
        [
            (key("count"), "invalid type: string \"many\", expected u32"),
            (key("public"), "is given more than once"),
            (key("file"), "missing field `file`"),
            // The rule of a field that parsed, beside the shape errors.
            (key("title"), "length must be between 1 and 10"),
        ]
    );
}

#[tokio::test]
async fn limits_and_media_types_are_checked() {
    let encoded = encode(&form()).unwrap();
    let content_type = encoded.content_type.to_str().unwrap().to_owned();
    let limited = input(&content_type, encoded.bytes.clone(), &[("file", 3)]);
    let error = read_parts(limited).await.unwrap_err();
    assert_eq!(error.status(), 413);
    assert_eq!(error.to_body().details[0].path, vec!["file".into()]);
    let exact = input(&content_type, encoded.bytes.clone(), &[("file", 4)]);
    assert!(read_parts(exact).await.is_ok());
    let error = read("application/json", "{}").await.unwrap_err();
    assert_eq!(error.status(), 415);
    let error = read("multipart/form-data", "").await.unwrap_err();
    assert_eq!(error.to_body().error, "Invalid multipart body");
}

#[tokio::test]
async fn a_file_name_that_is_not_utf8_is_refused_naming_the_part() {
    let body = [
        &b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\xff.txt\"\r\n\r\nx\r\n--b--\r\n"[..],
    ]
    .concat();
    let error = read_parts(input("multipart/form-data; boundary=b", body, &[]))
        .await
        .unwrap_err();
    let body = error.to_body();
    assert_eq!(error.status(), 400);
    assert_eq!(body.error, "Invalid multipart body");
    assert_eq!(body.details[0].path, vec!["file".into()]);
    assert_eq!(body.details[0].message, "the file name is not UTF-8");
    // A UTF-8 name is read as it is.
    let body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"caf\u{e9}.txt\"\r\n\r\nx\r\n--b--\r\n";
    let parts = read_parts(input("multipart/form-data; boundary=b", body, &[]))
        .await
        .unwrap();
    assert_eq!(parts[0].filename.as_deref(), Some("caf\u{e9}.txt"));
}

#[test]
fn only_forms_of_text_and_files_are_written() {
    #[derive(Serialize)]
    struct Nested {
        inner: Form,
    }
    let error = encode(&Nested { inner: form() }).unwrap_err();
    assert!(error.contains("not a nested struct"), "{error}");
    assert!(encode(&"text").is_err());
}

#[tokio::test]
async fn a_byte_stream_yields_its_chunks_within_its_limit() {
    let stream = ByteStream::from("hello");
    assert_eq!(stream.encode_body().unwrap().bytes, "hello");
    assert_eq!(stream.collect_bytes().await.unwrap(), "hello");
    let limited = ByteStream::of_chunks(Box::pin(RequestChunks::new(Body::from("hello"), 3)));
    assert_eq!(limited.collect_bytes().await.unwrap_err().status(), 413);
    assert!(ByteStream::new(Body::empty()).encode_body().is_err());
}
