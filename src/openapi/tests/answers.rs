//! Answers that are not JSON: text, bytes and redirects, each with its media type or header;
//! their errors stay JSON.

use http::StatusCode;
use serde_json::json;

use super::doc;
use crate::openapi::OpenApi;
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
        json!({ "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } })
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
    let doc = doc(OpenApi::new("t", "1").endpoint(&ticks));
    let content = &doc["paths"]["/ticks"]["get"]["responses"]["200"]["content"];
    let event = &content["text/event-stream"]["schema"];
    assert_eq!(event["type"], "object");
    assert_eq!(event["required"], serde_json::json!(["data"]));
    let data = &event["properties"]["data"];
    assert_eq!(data["contentMediaType"], "application/json");
    assert_eq!(data["contentSchema"]["$ref"], "#/components/schemas/Tick");
    assert_eq!(
        doc["components"]["schemas"]["Tick"]["properties"]["n"]["type"],
        "integer"
    );
    assert_eq!(content.as_object().unwrap().len(), 1);
}
