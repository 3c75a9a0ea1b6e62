//! Answers that are not JSON: text, bytes and redirects, each with its media type or header;
//! their errors stay JSON.

use http::StatusCode;
use serde_json::{json, Value};

use super::doc;
use crate::openapi::{OpenApi, OpenApiVersion};
use crate::{contract::Binary, contract::Redirect, contract::Text, route, Endpoint};

#[test]
fn text_bytes_and_redirects_have_their_media_types() {
    let hello = Endpoint::get(route::static_path("/hello.txt"))
        .response::<Text>()
        .build()
        .unwrap();
    let logo = Endpoint::get(route::static_path("/logo"))
        .response::<Binary>()
        .build()
        .unwrap();
    let old = Endpoint::get(route::static_path("/old"))
        .response::<Redirect>()
        .build()
        .unwrap();
    let moved = Endpoint::get(route::static_path("/moved"))
        .response::<Redirect>()
        .status(StatusCode::PERMANENT_REDIRECT)
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint(&hello)
        .endpoint(&logo)
        .endpoint(&old)
        .endpoint(&moved));
    let answers = |path: &str| doc["paths"][path]["get"]["responses"].clone();
    assert_eq!(
        answers("/hello.txt")["200"]["content"],
        json!({ "text/plain": { "schema": { "type": "string" } } })
    );
    assert_eq!(
        answers("/logo")["200"]["content"],
        json!({ "application/octet-stream": { "schema": { "type": "string", "contentMediaType": "application/octet-stream" } } })
    );
    let see_other = &answers("/old")["303"];
    assert_eq!(see_other["description"], "See Other");
    assert!(see_other.get("content").is_none());
    assert_eq!(see_other["headers"]["Location"]["required"], true);
    assert_eq!(
        see_other["headers"]["Location"]["schema"],
        json!({ "type": "string", "format": "uri-reference" })
    );
    assert!(answers("/moved")["308"]["headers"]["Location"].is_object());
    assert!(doc["components"]["schemas"].get("Text").is_none());
}

#[test]
fn a_redirect_needs_a_redirect_status() {
    let err = Endpoint::get(route::static_path("/old"))
        .response::<Redirect>()
        .status(StatusCode::OK)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "route `/old` answers a redirect with status 200 OK: use 301, 302, 303, 307 or 308"
    );
}

#[test]
fn a_stream_of_events_gives_each_event_s_schema() {
    #[derive(serde::Serialize, serde::Deserialize, validator::Validate, schemars::JsonSchema)]
    struct Tick {
        n: u32,
    }
    let ticks = Endpoint::get(route::static_path("/ticks"))
        .response::<crate::sse::Events<Tick>>()
        .build()
        .unwrap();
    let api = || OpenApi::new("t", "1").endpoint(&ticks);
    let content =
        |doc: &Value| doc["paths"]["/ticks"]["get"]["responses"]["200"]["content"].clone();

    // 3.2: `itemSchema`, one event, `data` the JSON of a `Tick`.
    let v32 = doc(api().openapi_version(OpenApiVersion::V3_2_0));
    assert_eq!(v32["openapi"], "3.2.0");
    let media = content(&v32)["text/event-stream"].clone();
    assert_eq!(media.as_object().unwrap().len(), 1, "{media}");
    let event = &media["itemSchema"];
    assert_eq!(event["type"], "object");
    assert_eq!(event["required"], json!(["data"]));
    let data = &event["properties"]["data"];
    assert_eq!(data["contentMediaType"], "application/json");
    assert_eq!(data["contentSchema"]["$ref"], "#/components/schemas/Tick");
    assert_eq!(
        v32["components"]["schemas"]["Tick"]["properties"]["n"]["type"],
        "integer"
    );

    // 3.1: the body is text; the event is in `x-itemSchema`, `Tick` inlined (no `$ref` in an
    // extension), and no component left that only the extension used.
    let v31 = doc(api());
    let media = content(&v31)["text/event-stream"].clone();
    let body = &media["schema"];
    assert_eq!(body["type"], "string");
    assert_eq!(body["contentMediaType"], "text/event-stream");
    assert!(
        body["description"].as_str().unwrap().contains("a `Tick`"),
        "{body}"
    );
    assert!(media.get("itemSchema").is_none());
    let inlined = &media["x-itemSchema"];
    assert_eq!(
        inlined["properties"]["data"]["contentSchema"]["properties"]["n"]["type"],
        "integer"
    );
    assert!(!inlined.to_string().contains("$ref"), "{inlined}");
    assert!(v31["components"]["schemas"].get("Tick").is_none());
    assert_eq!(content(&v31).as_object().unwrap().len(), 1);

    // 3.0.3: the same, in 3.0's dialect.
    let v30 = doc(api().openapi_version(OpenApiVersion::V3_0_3));
    let media = content(&v30)["text/event-stream"].clone();
    assert_eq!(media["schema"]["type"], "string");
    let data = &media["x-itemSchema"]["properties"]["data"];
    assert_eq!(data["x-contentMediaType"], "application/json");
    assert_eq!(
        data["x-contentSchema"]["properties"]["n"]["type"],
        "integer"
    );
    assert!(!media.to_string().contains("$ref"), "{media}");
    assert!(v30["components"]["schemas"].get("Tick").is_none());
}

#[test]
fn a_type_used_elsewhere_keeps_its_component_and_a_recursive_one_its_ref() {
    #[derive(serde::Serialize, serde::Deserialize, validator::Validate, schemars::JsonSchema)]
    struct Node {
        children: Vec<Node>,
    }
    let stream = Endpoint::get(route::static_path("/nodes"))
        .response::<crate::sse::Events<Node>>()
        .build()
        .unwrap();
    let one = Endpoint::get(route::static_path("/node"))
        .response::<Node>()
        .build()
        .unwrap();
    let v31 = doc(OpenApi::new("t", "1").endpoint(&stream).endpoint(&one));
    let item = &v31["paths"]["/nodes"]["get"]["responses"]["200"]["content"]["text/event-stream"]
        ["x-itemSchema"];
    let node = &item["properties"]["data"]["contentSchema"];
    assert_eq!(
        node["properties"]["children"]["items"]["$ref"],
        "#/components/schemas/Node"
    );
    assert!(v31["components"]["schemas"]["Node"].is_object());
}

#[test]
fn a_download_is_a_binary_string_in_every_version() {
    let export = Endpoint::get(route::static_path("/export"))
        .response::<crate::contract::Download>()
        .build()
        .unwrap();
    let api = || OpenApi::new("t", "1").endpoint(&export);
    let content =
        |doc: Value| doc["paths"]["/export"]["get"]["responses"]["200"]["content"].clone();
    let file = json!({ "type": "string", "contentMediaType": "application/octet-stream" });
    for version in [OpenApiVersion::V3_1_0, OpenApiVersion::V3_2_0] {
        assert_eq!(
            content(doc(api().openapi_version(version))),
            json!({ "application/octet-stream": { "schema": file } }),
            "{version:?}"
        );
    }
    assert_eq!(
        content(doc(api().openapi_version(OpenApiVersion::V3_0_3))),
        json!({ "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } })
    );
}
