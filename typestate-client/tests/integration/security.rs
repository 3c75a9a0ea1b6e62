//! Credentials: the client attaches its bearer token or API key to the calls whose contract
//! declares the scheme, and to no other; a declared call without one fails before sending —
//! in-process and over a socket.

use pactum::http::header::AUTHORIZATION;
use pactum::http::{HeaderMap, StatusCode};
use pactum::{handler, route, Ctx, Endpoint, NoBody, NoParams, NoQuery, Pipeline, Security};
use pactum_client::Client;
use serde::{Deserialize, Serialize};
use validator::Validate;

/// The credential headers the server saw.
#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Seen {
    authorization: Option<String>,
    api_key: Option<String>,
}

type Probe = Endpoint<NoParams, NoQuery, NoBody, Seen>;

fn probe(path: &'static str, security: &[Security]) -> Probe {
    let mut builder = Endpoint::get(route::static_path(path)).response::<Seen>();
    for scheme in security {
        builder = builder.security(scheme.clone());
    }
    builder.build().unwrap()
}

fn bearer() -> Probe {
    probe("/bearer", &[Security::bearer()])
}

fn keyed() -> Probe {
    probe("/keyed", &[Security::api_key_header("x-api-key")])
}

fn open() -> Probe {
    probe("/open", &[])
}

fn either() -> Probe {
    probe(
        "/either",
        &[Security::bearer(), Security::api_key_header("x-api-key")],
    )
}

fn seen(headers: &HeaderMap) -> Seen {
    let text = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    Seen {
        authorization: text("authorization"),
        api_key: text("x-api-key"),
    }
}

/// The probes echo what they were sent. Nothing here checks the credentials — that is what
/// is tested — so the pipeline is told they are verified elsewhere (it would not start
/// otherwise).
fn pipeline() -> Pipeline {
    let echo = |ctx: Ctx| async move { Ok(seen(&ctx.headers)) };
    Pipeline::builder(vec![
        handler(bearer(), echo).into(),
        handler(keyed(), echo).into(),
        handler(open(), echo).into(),
        handler(either(), echo).into(),
    ])
    .security_verified_elsewhere(Security::bearer())
    .security_verified_elsewhere(Security::api_key_header("x-api-key"))
    .build()
    .unwrap()
}

fn both(builder: pactum_client::ClientBuilder) -> Client {
    builder
        .bearer_token("t0ken")
        .api_key("k3y")
        .build()
        .unwrap()
}

fn seen_as(authorization: Option<&str>, api_key: Option<&str>) -> Seen {
    Seen {
        authorization: authorization.map(str::to_owned),
        api_key: api_key.map(str::to_owned),
    }
}

/// `client` holds a bearer token `t0ken` and an API key `k3y`; `bare` holds neither.
async fn credentials_go_where_the_contract_says(client: &Client, bare: &Client) {
    let got = client.call(&bearer()).send().await.unwrap();
    assert_eq!(got, seen_as(Some("Bearer t0ken"), None));
    let got = client.call(&keyed()).send().await.unwrap();
    assert_eq!(got, seen_as(None, Some("k3y")));
    // A contract that declares nothing gets no credential.
    let got = client.call(&open()).send().await.unwrap();
    assert_eq!(got, seen_as(None, None));
    // Alternatives: every credential the client holds for them.
    let got = client.call(&either()).send().await.unwrap();
    assert_eq!(got, seen_as(Some("Bearer t0ken"), Some("k3y")));

    // A call's own credential wins over the client's; a header set by hand wins over both.
    let got = client
        .call(&bearer())
        .bearer_token("other")
        .send()
        .await
        .unwrap();
    assert_eq!(got.authorization.as_deref(), Some("Bearer other"));
    let got = client
        .call(&keyed())
        .api_key("per-call")
        .send()
        .await
        .unwrap();
    assert_eq!(got.api_key.as_deref(), Some("per-call"));
    let got = client
        .call(&bearer())
        .header(AUTHORIZATION, "Bearer by-hand")
        .send()
        .await
        .unwrap();
    assert_eq!(got.authorization.as_deref(), Some("Bearer by-hand"));
    // A per-call credential is still attached only where the contract declares it.
    let got = client
        .call(&open())
        .bearer_token("other")
        .send()
        .await
        .unwrap();
    assert_eq!(got, seen_as(None, None));

    // Without any credential the call fails before anything is sent.
    let error = bare.call(&bearer()).send().await.unwrap_err();
    assert!(error.is_missing_credential(), "{error:?}");
    assert_eq!(error.status(), None);
    assert!(error.to_string().contains("bearer"), "{error}");
    let error = bare.call(&either()).send().await.unwrap_err();
    assert!(error.is_missing_credential());
    assert!(bare.call(&open()).send().await.is_ok());
    // A per-call credential is enough.
    let got = bare.call(&keyed()).api_key("k").send().await.unwrap();
    assert_eq!(got.api_key.as_deref(), Some("k"));
    let got = bare.call(&either()).api_key("k").send().await.unwrap();
    assert_eq!(got, seen_as(None, Some("k")));
    // A header set by hand also counts: the server then decides.
    let got = bare
        .call(&keyed())
        .header("x-api-key", "raw")
        .send()
        .await
        .unwrap();
    assert_eq!(got.api_key.as_deref(), Some("raw"));
    // `bearer_auth` is a default header on every call; it satisfies the contract too.
    let everywhere = Client::builder()
        .base_url(bare.base_url().as_str())
        .bearer_auth("all");
    let everywhere = match bare.is_in_process() {
        true => everywhere.in_process(pipeline()),
        false => everywhere,
    }
    .build()
    .unwrap();
    let got = everywhere.call(&open()).send().await.unwrap();
    assert_eq!(got.authorization.as_deref(), Some("Bearer all"));
    let got = everywhere.call(&bearer()).send().await.unwrap();
    assert_eq!(got.authorization.as_deref(), Some("Bearer all"));
}

/// The server's own 401 reaches a client that sends a header of the wrong scheme by hand.
async fn the_server_401_is_a_status_error(client: &Client) {
    let error = client
        .call(&bearer())
        .header(AUTHORIZATION, "Basic YWxpY2U6")
        .send()
        .await
        .unwrap_err();
    assert!(error.is_status());
    assert_eq!(error.status(), Some(StatusCode::UNAUTHORIZED));
    assert_eq!(error.error_body().unwrap().error, "Unauthorized");
}

#[tokio::test]
async fn in_process() {
    let client = both(Client::builder().in_process(pipeline()));
    let bare = Client::in_process(pipeline());
    credentials_go_where_the_contract_says(&client, &bare).await;
    the_server_401_is_a_status_error(&client).await;
}

#[tokio::test]
async fn over_http() {
    let server = pactum::serve(
        pipeline(),
        pactum::ServerOptions::new().port(0).hostname("127.0.0.1"),
    )
    .await
    .unwrap();
    let base = format!("http://{}", server.local_addr());
    let client = both(Client::builder().base_url(base.as_str()));
    let bare = Client::new(base.as_str()).unwrap();
    credentials_go_where_the_contract_says(&client, &bare).await;
    the_server_401_is_a_status_error(&client).await;
}

#[test]
fn credentials_are_hidden_from_debug() {
    let client = both(Client::builder().base_url("http://localhost"));
    let debug = format!("{client:?}");
    assert!(
        !debug.contains("t0ken") && !debug.contains("k3y"),
        "{debug}"
    );
    let builder = Client::builder().bearer_token("t0ken").api_key("k3y");
    let debug = format!("{builder:?}");
    assert!(
        !debug.contains("t0ken") && !debug.contains("k3y"),
        "{debug}"
    );
    let bad = Client::builder()
        .base_url("http://localhost")
        .bearer_token("line\nbreak")
        .build()
        .unwrap_err();
    assert!(bad.is_builder());
}
