//! Registered handlers, the served document, and types with or without a schema.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::FilePath;
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
async fn registered_handlers_are_documented_and_the_document_is_served() {
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
    let mut api = OpenApi::new("t", "1");
    let mut handlers =
        vec![api.register(handler(
            get,
            |ctx: Ctx<FilePath>| async move { Ok(ctx.params) },
        ))];
    let doc = api.build();
    handlers.push(doc.handler("/openapi.json").unwrap());
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
