//! Request bodies that are not JSON: a multipart form (an object schema, files as strings of
//! `contentMediaType: application/octet-stream`, 3.0.3's `format: binary`) and a byte stream
//! (such a string), each under its media type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use super::doc;
use crate::openapi::{OpenApi, OpenApiVersion};
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
    let binary = json!({ "type": "string", "contentMediaType": "application/octet-stream" });
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

    // 3.0.3 says "a file" its own way, `format: binary`; 3.2 as 3.1.
    let api = || OpenApi::new("t", "1").endpoint(&upload).endpoint(&blob);
    let v30 = super::doc(api().openapi_version(OpenApiVersion::V3_0_3));
    let binary_30 = json!({ "type": "string", "format": "binary" });
    let schema = &v30["components"]["schemas"]["Upload"];
    assert_eq!(schema["properties"]["file"], binary_30);
    assert_eq!(schema["properties"]["attachments"]["items"], binary_30);
    assert_eq!(
        v30["paths"]["/blob"]["put"]["requestBody"]["content"]["application/octet-stream"]
            ["schema"],
        binary_30
    );
    let v32 = super::doc(api().openapi_version(OpenApiVersion::V3_2_0));
    assert_eq!(
        v32["components"]["schemas"]["Upload"]["properties"]["file"],
        binary
    );
}
