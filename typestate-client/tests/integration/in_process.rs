//! The in-process mode: the same scenarios through `Pipeline::handle`, no socket.

use std::time::Duration;

use bytes::Bytes;
use pactum::http::StatusCode;
use pactum::Pipeline;
use pactum_client::Client;

use crate::scenarios;
use crate::support::contracts::*;
use crate::support::*;

#[tokio::test]
async fn every_scenario() {
    scenarios::all(&Client::in_process(pipeline())).await;
}

#[tokio::test]
async fn default_headers_and_host() {
    let client = scenarios::with_defaults(
        Client::builder()
            .in_process(pipeline())
            .base_url("https://example.com:8443"),
    );
    assert!(client.is_in_process());
    scenarios::headers_are_sent(&client).await;
    let seen = client.call(&seen()).send().await.unwrap();
    assert_eq!(seen.headers["host"], "example.com:8443");
    assert_eq!(seen.path, "/seen");
}

#[tokio::test]
async fn the_base_path_prefixes_routes() {
    let prefixed = pactum::Endpoint::get(pactum::route::static_path("/api/seen"))
        .response::<Seen>()
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![pactum::handler(
        prefixed,
        |ctx: pactum::Ctx| async move {
            Ok(Seen {
                method: ctx.method.to_string(),
                path: ctx.url().path().to_owned(),
                query: None,
                headers: Default::default(),
            })
        },
    )
    .into()])
    .unwrap();
    for base in ["http://localhost/api", "http://localhost/api/"] {
        let client = Client::builder()
            .in_process(pipeline.clone())
            .base_url(base)
            .build()
            .unwrap();
        let seen = client.call(&seen()).send().await.unwrap();
        assert_eq!(seen.path, "/api/seen");
    }
}

#[tokio::test]
async fn timeouts_apply_in_process() {
    let client = Client::builder()
        .in_process(pipeline())
        .timeout(Duration::from_millis(50))
        .build()
        .unwrap();
    let err = client.call(&slow()).send().await.unwrap_err();
    assert!(err.is_timeout() && err.is_transport(), "{err:?}");
    assert_eq!(err.status(), None);
    // A call's own timeout wins over the client's.
    let client = Client::in_process(pipeline());
    let err = client
        .call(&slow())
        .timeout(Duration::from_millis(20))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout());
}

#[tokio::test]
async fn a_foreign_error_body_falls_back_to_its_text() {
    let pipeline = Pipeline::builder(handlers())
        .error_formatter(|e| {
            let mut response =
                pactum::http::Response::new(Bytes::from(format!("oops: {}", e.status())));
            *response.status_mut() = e.status();
            response
        })
        .build()
        .unwrap();
    let client = Client::in_process(pipeline);
    let err = client.call(&missing()).send().await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
    let body = err.error_body().unwrap();
    assert_eq!(body.error, "oops: 404 Not Found");
    assert!(body.details.is_empty() && body.code.is_none());

    let pipeline = Pipeline::builder(handlers())
        .error_formatter(|e| {
            let mut response = pactum::http::Response::new(Bytes::new());
            *response.status_mut() = e.status();
            response
        })
        .build()
        .unwrap();
    let err = Client::in_process(pipeline)
        .call(&missing())
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.error_body().unwrap().error, "Not Found");
}

#[tokio::test]
async fn calls_can_be_spawned() {
    let client = Client::in_process(pipeline());
    let endpoint = get_user();
    let task = tokio::spawn(async move {
        client
            .call(&endpoint)
            .params(UserPath { id: 5 })
            .send()
            .await
    });
    assert_eq!(task.await.unwrap().unwrap().id, 5);
}

#[test]
fn in_process_rejects_http_settings() {
    let err = Client::builder()
        .in_process(pipeline())
        .add_root_certificate(crate::tls::ca().0)
        .build()
        .unwrap_err();
    assert!(err.is_builder());
}

/// A query type with a `Default` may be left out of a call: its default is sent, so a field
/// the server requires (no `#[serde(default)]`) still arrives.
#[tokio::test]
async fn a_query_left_out_is_sent_as_its_default() {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, validator::Validate)]
    struct Page {
        size: u32,
    }
    impl Default for Page {
        fn default() -> Self {
            Self { size: 25 }
        }
    }
    let page = pactum::Endpoint::get(pactum::route!("/page"))
        .query::<Page>()
        .response::<Page>()
        .build()
        .unwrap();
    let pipeline = Pipeline::new(vec![pactum::handler(
        page.clone(),
        |ctx: pactum::Ctx<pactum::NoParams, Page>| async move { Ok(ctx.query) },
    )
    .into()])
    .unwrap();
    let client = Client::in_process(pipeline);
    assert_eq!(client.call(&page).send().await.unwrap(), Page { size: 25 });
    let given = client.call(&page).query(Page { size: 3 }).send().await;
    assert_eq!(given.unwrap(), Page { size: 3 });
}

/// Header and cookie params of types with a `Default` may be left out too: their defaults are
/// sent (an optional header's `None`: no header).
#[tokio::test]
async fn header_and_cookie_params_left_out_are_sent_as_their_defaults() {
    #[derive(
        Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, validator::Validate,
    )]
    #[serde(rename_all = "kebab-case")]
    struct Conditional {
        if_none_match: Option<String>,
    }
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, validator::Validate)]
    struct Prefs {
        theme: String,
    }
    impl Default for Prefs {
        fn default() -> Self {
            Self {
                theme: "light".into(),
            }
        }
    }
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, validator::Validate)]
    struct Seen {
        if_none_match: Option<String>,
        theme: String,
    }
    let page = pactum::Endpoint::get(pactum::route!("/page"))
        .headers::<Conditional>()
        .cookies::<Prefs>()
        .response::<Seen>()
        .build()
        .unwrap();
    type PageCtx =
        pactum::Ctx<pactum::NoParams, pactum::NoQuery, pactum::NoBody, Conditional, Prefs>;
    let pipeline = Pipeline::new(vec![pactum::handler(
        page.clone(),
        |ctx: PageCtx| async move {
            Ok(Seen {
                if_none_match: ctx.header_params.if_none_match,
                theme: ctx.cookie_params.theme,
            })
        },
    )
    .into()])
    .unwrap();
    let client = Client::in_process(pipeline);
    let defaults = client.call(&page).send().await.unwrap();
    let expected = Seen {
        if_none_match: None,
        theme: "light".into(),
    };
    assert_eq!(defaults, expected);
    let given = client
        .call(&page)
        .header_params(Conditional {
            if_none_match: Some("\"v2\"".into()),
        })
        .cookie_params(Prefs {
            theme: "dark".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(given.if_none_match.as_deref(), Some("\"v2\""));
    assert_eq!(given.theme, "dark");
}
