//! Request bodies that are not JSON: a multipart form (an object schema, files as binary
//! strings) and a byte stream (a binary string), each under its media type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use super::doc;
use crate::openapi::OpenApi;
use crate::{route, upload::ByteStream, upload::FilePart, upload::Multipart, Endpoint};

#[derive(Serialize, Deserialize, Validate, JsonSchema)]
struct Upload {
    #[validate(length(min = 1, max = 100))]
    title: String,
    file: FilePart,
    #[serde(default)]
    attachments: Vec<FilePart>,
}

#[test]
fn a_multipart_form_and_a_byte_stream_have_their_media_types() {
    let upload = Endpoint::post(route::static_path("/uploads"))
        .body::<Multipart<Upload>>()
        .field_limit("file", 1 << 20)
        .build()
        .unwrap();
    let blob = Endpoint::put(route::static_path("/blob"))
        .body::<ByteStream>()
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&upload).endpoint(&blob));
    let form = &doc["paths"]["/uploads"]["post"];
    assert_eq!(
        form["requestBody"],
        json!({
            "required": true,
            "content": { "multipart/form-data": { "schema": { "$ref": "#/components/schemas/Upload" } } }
        })
    );
    let schema = &doc["components"]["schemas"]["Upload"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["title", "file"]));
    let binary = json!({ "type": "string", "format": "binary" });
    assert_eq!(schema["properties"]["file"], binary);
    assert_eq!(schema["properties"]["attachments"]["items"], binary);
    assert_eq!(schema["properties"]["title"]["maxLength"], 100);
    assert!(form["responses"]["413"].is_object());
    assert!(form["responses"]["415"].is_object());

    let stream = &doc["paths"]["/blob"]["put"];
    assert_eq!(
        stream["requestBody"]["content"],
        json!({ "application/octet-stream": { "schema": binary } })
    );
    assert!(stream["responses"]["413"].is_object());
    // Any content type is taken: no 415.
    assert!(stream["responses"].get("415").is_none());
}
