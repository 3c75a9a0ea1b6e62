//! The document of the served list, the served document, and types with or without a schema.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::FilePath;
use crate::error::ConfigError;
use crate::handler::nest;
use crate::openapi::{Document, OpenApi};
use crate::{
    contract::NoContent, handler, route, Ctx, Endpoint, NoBody, NoParams, NoQuery, Pipeline,
};

#[test]
fn markers_have_schemas() {
    fn name<T: JsonSchema>() -> String {
        T::schema_name().into_owned()
    }
    assert_eq!(
        [
            name::<NoParams>(),
            name::<NoQuery>(),
            name::<NoBody>(),
            name::<NoContent>()
        ],
        ["NoParams", "NoQuery", "NoBody", "NoContent"]
    );
}

#[tokio::test]
async fn the_served_list_is_documented_and_the_document_is_served() {
    let get = Endpoint::get(route::pattern("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build();
    // A dynamic route needs `route::dynamic`: the pattern above is refused.
    assert!(get.is_err());
    let get = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build()
        .unwrap();
    let mut handlers =
        vec![handler(get, |ctx: Ctx<FilePath>| async move { Ok(ctx.params) }).documented()];
    let doc = OpenApi::new("t", "1").handlers(&handlers).unwrap().build();
    handlers.push(doc.handler("/openapi.json").unwrap());
    // The document's own route is left out of a document of the served list.
    let again = OpenApi::new("t", "1").handlers(&handlers).unwrap().build();
    assert_eq!(again, doc);
    let pipeline = Pipeline::new(handlers).unwrap();

    let response = pipeline
        .handle(
            http::Request::get("/openapi.json")
                .body(crate::pipeline::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = response.body().as_bytes().unwrap();
    assert!(body.starts_with(br#"{"openapi":"3.1.0","info":"#));
    let served: Document = serde_json::from_slice(body).unwrap();
    assert_eq!(served, doc);
    assert!(served.as_value()["paths"].get("/openapi.json").is_none());
    assert!(served.as_value()["paths"]["/files/{path}"]["get"].is_object());
}

/// A contract type without `JsonSchema` still works everywhere but in a document.
#[derive(Serialize, Deserialize, Validate)]
struct Undocumented {
    value: u8,
}

#[tokio::test]
async fn types_without_a_schema_still_serve() {
    let echo = Endpoint::post(route::static_path("/echo"))
        .body::<Undocumented>()
        .response::<Undocumented>()
        .build()
        .unwrap();
    let h = handler(
        echo,
        |ctx: Ctx<NoParams, NoQuery, Undocumented>| async move { Ok(ctx.body) },
    );
    let pipeline = Pipeline::new(vec![h.into()]).unwrap();
    let request = http::Request::post("/echo")
        .header("content-type", "application/json")
        .body(crate::pipeline::Body::from(r#"{"value":7}"#))
        .unwrap();
    let response = pipeline.handle(request).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.body(), r#"{"value":7}"#);
}

#[test]
fn a_handler_the_document_cannot_describe_fails_the_document() {
    let ping = || Endpoint::get(route::static_path("/ping")).build().unwrap();
    let echo = |echo| {
        handler(
            echo,
            |ctx: Ctx<NoParams, NoQuery, Undocumented>| async move { Ok(ctx.body) },
        )
    };
    let handlers = vec![
        handler(ping(), |_| async { Ok(NoContent) }).documented(),
        echo(echo_contract()).into(),
        handler(
            Endpoint::get(route::static_path("/pong")).build().unwrap(),
            |_| async { Ok(NoContent) },
        )
        .into(),
    ];
    let refused = OpenApi::new("t", "1").handlers(&handlers).unwrap_err();
    assert_eq!(
        refused,
        ConfigError::Undocumented {
            handlers: vec!["`POST /echo`".to_owned(), "`GET /pong`".to_owned()],
        }
    );
    assert_eq!(
        refused.to_string(),
        "the OpenAPI document cannot describe `POST /echo`, `GET /pong`: make each with \
         `.documented()` instead of `.into()` (or `.undocumented()` to leave it out)"
    );

    // Left out on purpose: a type without a schema serves, and the document skips it.
    let handlers = vec![
        handler(ping(), |_| async { Ok(NoContent) }).documented(),
        echo(echo_contract()).undocumented(),
    ];
    let doc = OpenApi::new("t", "1").handlers(&handlers).unwrap().build();
    let paths: Vec<&String> = doc.as_value()["paths"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(paths, ["/ping"]);
}

fn echo_contract() -> crate::contract::Endpoint<NoParams, NoQuery, Undocumented, Undocumented> {
    Endpoint::post(route::static_path("/echo"))
        .body::<Undocumented>()
        .response::<Undocumented>()
        .build()
        .unwrap()
}

#[test]
fn a_nested_handler_is_documented_at_its_served_route() {
    let get = Endpoint::get(route::dynamic("/files/*path"))
        .params::<FilePath>()
        .response::<FilePath>()
        .build()
        .unwrap();
    let handlers = nest(
        "/api/v1",
        [handler(get, |ctx: Ctx<FilePath>| async move { Ok(ctx.params) }).documented()],
    )
    .unwrap();
    let doc = OpenApi::new("t", "1").handlers(&handlers).unwrap().build();
    let paths: Vec<&String> = doc.as_value()["paths"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(paths, ["/api/v1/files/{path}"]);
}
