//! A contract's declared credentials ([`Security`]): the pipeline answers a request without
//! them 401 before the contract's middleware and before the body is read, on every adapter;
//! and a pipeline whose declared schemes nothing verifies does not start (fails closed).

use pactum::http::HeaderValue;
use pactum::{
    handler, handler::AnyHandler, middleware, route, Endpoint, NoBody, NoParams, NoQuery, Pipeline,
    Security,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::support::TestServer;

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Reply {
    ok: bool,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct NewItem {
    #[validate(length(min = 1))]
    name: String,
}

fn reports() -> Endpoint<NoParams, NoQuery, NoBody, Reply> {
    Endpoint::get(route!("/reports"))
        .response::<Reply>()
        .security(Security::api_key_header("x-api-key"))
        .build()
        .unwrap()
}

fn create_item() -> Endpoint<NoParams, NoQuery, NewItem, Reply> {
    Endpoint::post(route!("/items"))
        .body::<NewItem>()
        .response::<Reply>()
        .security(Security::bearer())
        // Reached only with a bearer token: it marks the answer.
        .middleware(middleware::from_fn(|req, next| async move {
            let mut response = next.run(req).await?;
            let seen = HeaderValue::from_static("yes");
            response.headers_mut().insert("x-contract-middleware", seen);
            Ok(response)
        }))
        .build()
        .unwrap()
}

fn either() -> Endpoint<NoParams, NoQuery, NoBody, Reply> {
    Endpoint::get(route!("/either"))
        .response::<Reply>()
        .security(Security::bearer())
        .security(Security::api_key_header("x-api-key"))
        .build()
        .unwrap()
}

fn open() -> Endpoint<NoParams, NoQuery, NoBody, Reply> {
    Endpoint::get(route!("/open"))
        .response::<Reply>()
        .build()
        .unwrap()
}

/// The handlers, behind a server-wide middleware that stamps the answers it gets from `next`
/// and an error formatter that names the pipeline's rejections. The credentials are said to be
/// verified elsewhere (a gateway, say): these cases pin the pipeline's own 401 check, which
/// runs all the same.
fn app() -> Pipeline {
    let ok = || async { Ok(Reply { ok: true }) };
    let handlers: Vec<AnyHandler> = vec![
        handler(reports(), move |_| ok()).into(),
        handler(create_item(), move |_| ok()).into(),
        handler(either(), move |_| ok()).into(),
        handler(open(), move |_| ok()).into(),
    ];
    Pipeline::builder(handlers)
        .security_verified_elsewhere(Security::bearer())
        .security_verified_elsewhere(Security::api_key_header("x-api-key"))
        .middleware(middleware::from_fn(|req, next| async move {
            let mut response = next.run(req).await?;
            let seen = HeaderValue::from_static("yes");
            response.headers_mut().insert("x-server-middleware", seen);
            Ok(response)
        }))
        .error_formatter(|error| {
            let rejection = error
                .rejection()
                .map(|r| format!("{r:?}"))
                .unwrap_or_default();
            let mut response = error.to_response();
            let rejection = HeaderValue::from_str(&rejection).unwrap();
            response.headers_mut().insert("x-rejection", rejection);
            response
        })
        .build()
        .unwrap()
}

async fn a_missing_bearer_token_is_the_pipeline_401(app: &TestServer) {
    // The body is not read: an invalid one changes nothing.
    for auth in [
        None,
        Some("Basic YWxpY2U6"),
        Some("Bearer"),
        Some("Token abc"),
    ] {
        let mut request = app
            .client
            .post(app.url("/items"))
            .header("content-type", "application/json")
            .body("{not json");
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        let answer = app.send(request).await;
        answer.assert(401, json!({ "error": "Unauthorized" }));
        assert_eq!(answer.header("www-authenticate"), "Bearer", "{auth:?}");
        assert_eq!(answer.header("x-rejection"), "Unauthorized", "{auth:?}");
        assert!(
            answer.headers.get("x-contract-middleware").is_none(),
            "{auth:?}"
        );
    }
}

async fn a_bearer_token_of_any_case_goes_through(app: &TestServer) {
    for auth in ["Bearer t0ken", "bearer t0ken", "BEARER t0ken"] {
        let request = app
            .client
            .post(app.url("/items"))
            .header("authorization", auth)
            .json(&json!({ "name": "pen" }));
        let answer = app.send(request).await;
        answer.assert(201, json!({ "ok": true }));
        assert_eq!(answer.header("x-contract-middleware"), "yes");
        assert_eq!(answer.header("x-server-middleware"), "yes");
    }
    // Past the check, the body is read and validated as usual.
    let request = app
        .client
        .post(app.url("/items"))
        .header("authorization", "Bearer t0ken")
        .json(&json!({ "name": "" }));
    assert_eq!(app.send(request).await.status, 400);
}

async fn an_api_key_goes_in_its_header_and_has_no_challenge(app: &TestServer) {
    let answer = app.get("/reports").await;
    answer.assert(401, json!({ "error": "Unauthorized" }));
    assert!(answer.headers.get("www-authenticate").is_none());
    let empty = app.client.get(app.url("/reports")).header("x-api-key", "");
    assert_eq!(app.send(empty).await.status, 401);
    // A bearer token is not this contract's credential.
    let bearer = app
        .client
        .get(app.url("/reports"))
        .header("authorization", "Bearer t");
    assert_eq!(app.send(bearer).await.status, 401);
    let keyed = app.client.get(app.url("/reports")).header("x-api-key", "k");
    app.send(keyed).await.assert(200, json!({ "ok": true }));
    // HEAD is the GET contract's: checked alike.
    let head = app.send(app.client.head(app.url("/reports"))).await;
    assert_eq!(head.status, 401);
}

async fn any_one_of_the_alternatives_is_enough(app: &TestServer) {
    let answer = app.get("/either").await;
    answer.assert(401, json!({ "error": "Unauthorized" }));
    assert_eq!(answer.header("www-authenticate"), "Bearer");
    for (name, value) in [("authorization", "Bearer t"), ("x-api-key", "k")] {
        let request = app.client.get(app.url("/either")).header(name, value);
        app.send(request).await.assert(200, json!({ "ok": true }));
    }
}

async fn the_check_runs_inside_server_middleware_and_not_on_options(app: &TestServer) {
    // Server-wide middleware wraps the check: it gets the rejection from `next` as an error.
    let answer = app.get("/reports").await;
    assert_eq!(answer.status, 401);
    assert!(answer.headers.get("x-server-middleware").is_none());
    // OPTIONS (a CORS preflight) is answered by the pipeline, without credentials.
    let options = app
        .send(
            app.client
                .request(reqwest::Method::OPTIONS, app.url("/reports")),
        )
        .await;
    assert_eq!(options.status, 204);
    let open = app.get("/open").await;
    open.assert(200, json!({ "ok": true }));
    assert_eq!(open.header("x-server-middleware"), "yes");
}

/// Each case on the native server and on the warp adapter, each on a fresh server.
macro_rules! on_both_adapters {
    ($($case:ident),* $(,)?) => {
        mod native {
            $(
                #[tokio::test]
                async fn $case() {
                    let options = crate::support::options();
                    let app = crate::support::native_with(super::app(), options).await;
                    super::$case(&app).await;
                }
            )*
        }
        mod warp {
            $(
                #[tokio::test]
                async fn $case() {
                    let app = crate::support::warp_with(super::app()).await;
                    super::$case(&app).await;
                }
            )*
        }
    };
}

on_both_adapters!(
    a_missing_bearer_token_is_the_pipeline_401,
    a_bearer_token_of_any_case_goes_through,
    an_api_key_goes_in_its_header_and_has_no_challenge,
    any_one_of_the_alternatives_is_enough,
    the_check_runs_inside_server_middleware_and_not_on_options,
);

/// Start-up: a declared scheme must be verified by something around its handler.
mod fails_closed {
    use pactum::error::ConfigError;
    use pactum::http::Method;
    use pactum::middleware::{Middleware, Request};
    use pactum::pipeline::Body;
    use pactum::server::ServeError;
    use pactum::{
        bind, handler, middleware, route, Ctx, Endpoint, HttpError, NoParams, NoQuery, Pipeline,
        Security,
    };

    use super::{create_item, either, reports, Reply};

    async fn ok<B>(_ctx: Ctx<NoParams, NoQuery, B>) -> Result<Reply, pactum::Error> {
        Ok(Reply { ok: true })
    }

    async fn bound_ok<B, V>(
        _ctx: Ctx<NoParams, NoQuery, B>,
        _values: V,
    ) -> Result<Reply, pactum::Error> {
        Ok(Reply { ok: true })
    }

    /// A middleware that lets only `s3cret` in, marked as verifying `security`.
    fn verifying(security: Security) -> Middleware {
        middleware::from_fn(|req, next| async move {
            if req.bearer_token() != Some("s3cret") && req.api_key("x-api-key") != Some("s3cret") {
                return Err(HttpError::unauthorized("Invalid token").into());
            }
            next.run(req).await
        })
        .verifies(security)
    }

    fn assert_unverified(error: &ConfigError, method: Method, route: &str, scheme: &str) {
        assert_eq!(
            *error,
            ConfigError::UnverifiedSecurity {
                method: method.clone(),
                route: route.to_owned(),
                scheme: scheme.to_owned(),
            }
        );
        let message = error.to_string();
        assert!(
            message.contains(&format!("`{method} {route}`")),
            "{message}"
        );
        assert!(message.contains(&format!("`{scheme}`")), "{message}");
        assert!(message.contains(".verifies(..)"), "{message}");
        assert!(message.contains("security_verified_elsewhere"), "{message}");
    }

    #[test]
    fn the_in_process_pipeline_refuses_an_unverified_bearer_scheme() {
        let error = Pipeline::new(vec![handler(create_item(), ok).into()]).unwrap_err();
        assert_unverified(&error, Method::POST, "/items", "bearer");
        // The builder too, server-wide middleware that verifies nothing changes nothing.
        let error = Pipeline::builder(vec![handler(reports(), ok).into()])
            .middleware(middleware::from_fn(|req, next| next.run(req)))
            .build()
            .unwrap_err();
        assert_unverified(&error, Method::GET, "/reports", "x-api-key");
    }

    #[tokio::test]
    async fn the_native_server_does_not_start() {
        let refused = pactum::serve(
            vec![handler(create_item(), ok).into()],
            crate::support::options(),
        )
        .await
        .expect_err("the server must not start");
        let ServeError::Config(error) = &refused else {
            panic!("a config error, not {refused}");
        };
        assert_unverified(error, Method::POST, "/items", "bearer");
        assert!(refused.to_string().contains("`POST /items`"), "{refused}");
    }

    #[test]
    fn the_warp_filter_is_not_made() {
        let error = pactum_warp::filter(vec![handler(reports(), ok).into()])
            .err()
            .expect("the filter must not be made");
        assert_unverified(&error, Method::GET, "/reports", "x-api-key");
        let error = pactum_warp::Options::new()
            .filter(vec![handler(create_item(), ok).into()])
            .err()
            .expect("the filter must not be made");
        assert_unverified(&error, Method::POST, "/items", "bearer");
    }

    #[test]
    fn each_alternative_needs_its_own_verifier() {
        // `/either` takes a bearer token or an API key: verifying one leaves the other open.
        let bound = bind(either())
            .middleware(verifying(Security::bearer()))
            .to(bound_ok);
        let error = Pipeline::new(vec![bound.into()]).unwrap_err();
        assert_unverified(&error, Method::GET, "/either", "x-api-key");
        // A verifier of another header's key is not this scheme's.
        let bound = bind(reports())
            .middleware(verifying(Security::api_key_header("x-other-key")))
            .to(bound_ok);
        let error = Pipeline::new(vec![bound.into()]).unwrap_err();
        assert_unverified(&error, Method::GET, "/reports", "x-api-key");
        // Saying one scheme is verified elsewhere says nothing of another.
        let error = Pipeline::builder(vec![handler(either(), ok).into()])
            .security_verified_elsewhere(Security::api_key_header("x-api-key"))
            .build()
            .unwrap_err();
        assert_unverified(&error, Method::GET, "/either", "bearer");
        // Both verified: it starts.
        let bound = bind(either())
            .middleware(
                verifying(Security::bearer()).verifies(Security::api_key_header("x-api-key")),
            )
            .to(bound_ok);
        Pipeline::new(vec![bound.into()]).expect("both schemes are verified");
    }

    #[test]
    fn a_verifier_counts_wherever_it_wraps_the_handler() {
        // Bound to the handler: a provider, or a plain middleware.
        let provider = middleware::provide(|req: &Request| {
            let user = req.bearer_token().map(str::to_owned);
            async move { user.ok_or_else(|| HttpError::unauthorized("Invalid token").into()) }
        })
        .verifies(Security::bearer());
        let bound = bind(create_item()).provide(provider).to(bound_ok);
        Pipeline::new(vec![bound.into()]).expect("the provider verifies");
        let bound = bind(create_item())
            .middleware(verifying(Security::bearer()))
            .to(bound_ok);
        Pipeline::new(vec![bound.into()]).expect("the middleware verifies");
        // On the contract.
        let guarded = Endpoint::get(route!("/guarded"))
            .response::<Reply>()
            .security(Security::bearer())
            .middleware(verifying(Security::bearer()))
            .build()
            .unwrap();
        Pipeline::new(vec![handler(guarded, ok).into()])
            .expect("the contract's middleware verifies");
        // Server-wide; the scheme is matched by how it travels, not by its name.
        let renamed = Endpoint::get(route!("/renamed"))
            .response::<Reply>()
            .security(Security::bearer().named("userToken"))
            .build()
            .unwrap();
        Pipeline::builder(vec![
            handler(renamed, ok).into(),
            handler(create_item(), ok).into(),
        ])
        .middleware(verifying(Security::bearer()))
        .build()
        .expect("the server-wide middleware verifies");
        // The opt-out: verified before the pipeline sees the request.
        Pipeline::builder(vec![handler(create_item(), ok).into()])
            .security_verified_elsewhere(Security::bearer())
            .build()
            .expect("verified elsewhere");
    }

    #[tokio::test]
    async fn the_conformance_check_takes_the_scheme_in_any_case() {
        let pipeline = Pipeline::new(crate::api::handlers()).expect("the example starts");
        for (auth, status) in [
            ("Bearer secret-token", 200),
            ("bearer secret-token", 200),
            ("BEARER   secret-token", 200),
            ("bearer s3cret", 401),
            ("Bearer", 401),
        ] {
            let request = pactum::http::Request::get("/me")
                .header("authorization", auth)
                .body(Body::empty())
                .unwrap();
            let answer = pipeline.handle(request).await;
            assert_eq!(answer.status(), status, "{auth}");
            if status == 200 {
                assert_eq!(answer.body(), r#"{"user":"alice"}"#, "{auth}");
            }
        }
    }
}
