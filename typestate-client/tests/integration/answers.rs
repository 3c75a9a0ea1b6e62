//! Answers that are not JSON: text, bytes with their content type, and a redirect that is
//! handed back, not followed — in-process and over a socket; errors stay JSON.

use pactum::http::{HeaderValue, StatusCode};
use pactum::{
    contract::Binary, contract::Redirect, contract::Text, handler, route, Ctx, Endpoint, HttpError,
    NoParams, Pipeline,
};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Default, Serialize, Deserialize, Validate)]
struct Hello {
    #[validate(length(min = 1, max = 50))]
    name: Option<String>,
}

fn hello() -> Endpoint<NoParams, Hello, pactum::NoBody, Text> {
    Endpoint::get(route::static_path("/hello.txt"))
        .query::<Hello>()
        .response::<Text>()
        .build()
        .unwrap()
}

fn logo() -> Endpoint<NoParams, pactum::NoQuery, pactum::NoBody, Binary> {
    Endpoint::get(route::static_path("/logo.png"))
        .response::<Binary>()
        .build()
        .unwrap()
}

fn old() -> Endpoint<NoParams, pactum::NoQuery, pactum::NoBody, Redirect> {
    Endpoint::get(route::static_path("/old"))
        .response::<Redirect>()
        .status(StatusCode::TEMPORARY_REDIRECT)
        .build()
        .unwrap()
}

fn gone() -> Endpoint<NoParams, pactum::NoQuery, pactum::NoBody, Text> {
    Endpoint::get(route::static_path("/gone.txt"))
        .response::<Text>()
        .build()
        .unwrap()
}

fn handlers() -> Vec<pactum::handler::AnyHandler> {
    vec![
        handler(hello(), |ctx: Ctx<NoParams, Hello>| async move {
            let name = ctx.query.name.as_deref().unwrap_or("world");
            Ok(Text::new(format!("hello {name}")))
        })
        .into(),
        handler(logo(), |_| async {
            Ok(Binary::new(&b"\x89PNG\0"[..])
                .with_content_type(HeaderValue::from_static("image/png")))
        })
        .into(),
        handler(old(), |_| async { Ok(Redirect::to("/hello.txt?name=old")) }).into(),
        handler(gone(), |_| async {
            Err(HttpError::not_found("Gone").into())
        })
        .into(),
    ]
}

async fn every_answer(client: &Client) {
    let text = client.call(&hello()).send().await.unwrap();
    assert_eq!(text.as_str(), "hello world");
    let named = client
        .call(&hello())
        .query(Hello {
            name: Some("Ada".into()),
        })
        .send_full()
        .await
        .unwrap();
    assert_eq!(named.headers()["content-type"], "text/plain; charset=utf-8");
    assert_eq!(named.into_value().into_string(), "hello Ada");

    let logo = client.call(&logo()).send().await.unwrap();
    assert_eq!(logo.bytes().as_ref(), b"\x89PNG\0");
    assert_eq!(logo.content_type(), "image/png");

    let moved = client.call(&old()).send_full().await.unwrap();
    assert_eq!(moved.status(), StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(moved.value().location(), "/hello.txt?name=old");

    let error = client.call(&gone()).send().await.unwrap_err();
    assert_eq!(error.status(), Some(StatusCode::NOT_FOUND));
    assert_eq!(error.error_body().unwrap().error, "Gone");
    // The client checks the query before sending, as the server would.
    let bad = Hello {
        name: Some(String::new()),
    };
    assert!(client
        .call(&hello())
        .query(bad)
        .send()
        .await
        .unwrap_err()
        .is_validation());
}

#[tokio::test]
async fn in_process() {
    every_answer(&Client::in_process(Pipeline::new(handlers()).unwrap())).await;
}

#[tokio::test]
async fn over_http_redirects_are_not_followed() {
    let server = pactum::serve(handlers(), pactum_test_kit::options())
        .await
        .unwrap();
    let client = Client::new(format!("http://{}", server.local_addr()).as_str()).unwrap();
    every_answer(&client).await;
}
