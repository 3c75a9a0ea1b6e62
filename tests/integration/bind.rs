//! `bind`: typed state, providers and middleware bound to a handler, over real sockets on the
//! native server and the warp adapter. State reaches the function; a provider's value reaches
//! it typed, or the provider's error answers and the function does not run; the handler's own
//! middleware runs inside server-wide and contract middleware, in the order bound; handlers
//! bound to different state types share one server.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use pactum::middleware::{self, Middleware, Provider, Request};
use pactum::{
    bind, handler, handler::nest, handler::AnyHandler, pipeline::PipelineBuilder, route, Ctx,
    Endpoint, HttpError, NoBody, NoParams, NoQuery, Pipeline,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::support::{native_with, options, warp_with, TestServer};

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Greeting {
    text: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct NewGreeting {
    #[validate(length(min = 1))]
    text: String,
}

/// One application state type: a prefix for greetings, shared.
#[derive(Clone)]
struct Prefix(Arc<str>);

/// Another: a counter of the calls of the function it is bound to.
#[derive(Clone, Default)]
struct Calls(Arc<AtomicUsize>);

/// What the auth provider makes.
#[derive(Debug, Clone)]
struct User {
    name: String,
}

/// `Authorization: Bearer <name>` gives `User { name }`; `Bearer nobody` and no header are
/// refused with 401 — each refusal counted in `refused`.
fn auth(refused: Arc<AtomicUsize>) -> Provider<User> {
    middleware::provide(move |req: &Request| {
        let name = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .filter(|name| *name != "nobody")
            .map(str::to_owned);
        let refused = Arc::clone(&refused);
        async move {
            match name {
                Some(name) => Ok(User { name }),
                None => {
                    refused.fetch_add(1, Ordering::SeqCst);
                    Err(HttpError::unauthorized("Unauthorized")
                        .with_www_authenticate("Bearer")
                        .into())
                }
            }
        }
    })
}

/// A middleware that writes `name:before` and `name:after` into `log`.
fn recorder(log: &Arc<Mutex<Vec<String>>>, name: &'static str) -> Middleware {
    let log = Arc::clone(log);
    middleware::from_fn(move |req, next| {
        let log = Arc::clone(&log);
        async move {
            push(&log, format!("{name}:before"));
            let result = next.run(req).await;
            push(&log, format!("{name}:after"));
            result
        }
    })
}

fn push(log: &Mutex<Vec<String>>, entry: String) {
    log.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(entry);
}

/// What a test app counts and records.
#[derive(Clone, Default)]
struct Seen {
    /// Calls of the functions behind the provider.
    handled: Calls,
    /// Requests the provider refused.
    refused: Arc<AtomicUsize>,
    /// The order middleware, provider and function ran in (`/ordered`).
    log: Arc<Mutex<Vec<String>>>,
}

impl Seen {
    fn handled(&self) -> usize {
        self.handled.0.load(Ordering::SeqCst)
    }

    fn refused(&self) -> usize {
        self.refused.load(Ordering::SeqCst)
    }

    fn log(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The handlers under test, behind one server-wide middleware.
fn app(seen: &Seen) -> PipelineBuilder {
    let auth = auth(Arc::clone(&seen.refused));

    // State only: `GET /greet` with a `Prefix`.
    let greet = Endpoint::get(route!("/greet"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let greet = bind(greet).state(Prefix(Arc::from("hello"))).to(
        |_ctx: Ctx, (prefix,): (Prefix,)| async move {
            Ok(Greeting {
                text: format!("{} world", prefix.0),
            })
        },
    );

    // Another state type in the same server, with a provider: `POST /greetings`.
    let create = Endpoint::post(route!("/greetings"))
        .body::<NewGreeting>()
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let create = bind(create)
        .state(seen.handled.clone())
        .provide(auth.clone())
        .to(
            |ctx: Ctx<NoParams, NoQuery, NewGreeting>, (calls, user): (Calls, User)| async move {
                calls.0.fetch_add(1, Ordering::SeqCst);
                Ok(Greeting {
                    text: format!("{} by {}", ctx.body.text, user.name),
                })
            },
        );

    // The provider's value alone, and the order of everything: `GET /ordered`, whose contract
    // has middleware of its own, and whose handler binds middleware around the provider.
    let ordered = Endpoint::get(route!("/ordered"))
        .response::<Greeting>()
        .middleware(recorder(&seen.log, "contract"))
        .build()
        .expect("valid contract");
    let log = Arc::clone(&seen.log);
    let ordered = bind(ordered)
        .middleware(recorder(&seen.log, "handler-outer"))
        .provide(auth.clone())
        .middleware(recorder(&seen.log, "handler-inner"))
        .state(seen.handled.clone())
        .to(move |_ctx: Ctx, (user, calls): (User, Calls)| {
            let log = Arc::clone(&log);
            async move {
                calls.0.fetch_add(1, Ordering::SeqCst);
                push(&log, format!("handler:{}", user.name));
                Ok(Greeting { text: user.name })
            }
        });

    // A plain handler next to them, unchanged.
    let plain = Endpoint::get(route!("/plain"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let plain = handler(plain, |_ctx: Ctx| async move {
        Ok(Greeting {
            text: "plain".into(),
        })
    });

    // Bound handlers keep their providers when nested under a prefix.
    let nested_me = Endpoint::get(route!("/me"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let nested_me = bind(nested_me)
        .provide(auth)
        .to(|_ctx: Ctx, (user,): (User,)| async move { Ok(Greeting { text: user.name }) });
    let mut handlers: Vec<AnyHandler> =
        vec![greet.into(), create.into(), ordered.into(), plain.into()];
    handlers.extend(nest("/v1", [nested_me.into()]).expect("a valid prefix"));

    Pipeline::builder(handlers).middleware(recorder(&seen.log, "server"))
}

fn with_token(request: reqwest::RequestBuilder, name: &str) -> reqwest::RequestBuilder {
    request.header("authorization", format!("Bearer {name}"))
}

async fn state_reaches_the_handler(app: &TestServer, _seen: &Seen) {
    app.get("/greet")
        .await
        .assert(200, json!({"text": "hello world"}));
    app.get("/plain")
        .await
        .assert(200, json!({"text": "plain"}));
}

async fn a_providers_401_stops_the_handler(app: &TestServer, seen: &Seen) {
    let unauthorized = json!({"error": "Unauthorized"});
    let post = || {
        app.client
            .post(app.url("/greetings"))
            .header("content-type", "application/json")
    };
    // No token: the provider answers, the function does not run.
    let answer = app.send(post().body(r#"{"text":"hi"}"#)).await;
    answer.assert(401, unauthorized.clone());
    assert_eq!(answer.header("www-authenticate"), "Bearer");
    // A refused token, with a body that would fail validation: the provider answers before the
    // body is read.
    let answer = app
        .send(with_token(post(), "nobody").body(r#"{"text":""}"#))
        .await;
    answer.assert(401, unauthorized.clone());
    // Not even JSON: still the provider's 401.
    let answer = app.send(post().body("{not json")).await;
    answer.assert(401, unauthorized);
    assert_eq!(seen.refused(), 3);
    assert_eq!(seen.handled(), 0, "the function ran for a refused request");

    // With a token, the body is parsed and validated after the provider.
    let answer = app
        .send(with_token(post(), "ada").body(r#"{"text":""}"#))
        .await;
    assert_eq!(answer.status, 400, "{}", answer.text);
    assert_eq!(seen.handled(), 0);
}

async fn a_providers_value_reaches_the_handler_typed(app: &TestServer, seen: &Seen) {
    let post = app
        .client
        .post(app.url("/greetings"))
        .header("content-type", "application/json");
    app.send(with_token(post, "ada").body(r#"{"text":"hi"}"#))
        .await
        .assert(201, json!({"text": "hi by ada"}));
    assert_eq!(seen.handled(), 1);
    assert_eq!(seen.refused(), 0);

    let me = app.client.get(app.url("/v1/me"));
    app.send(with_token(me, "grace"))
        .await
        .assert(200, json!({"text": "grace"}));
    app.get("/v1/me")
        .await
        .assert(401, json!({"error": "Unauthorized"}));
    assert_eq!(seen.refused(), 1);
}

async fn handler_middleware_runs_inside_contract_and_server_middleware(
    app: &TestServer,
    seen: &Seen,
) {
    let ordered = app.client.get(app.url("/ordered"));
    app.send(with_token(ordered, "ada"))
        .await
        .assert(200, json!({"text": "ada"}));
    assert_eq!(
        seen.log(),
        [
            "server:before",
            "contract:before",
            "handler-outer:before",
            "handler-inner:before",
            "handler:ada",
            "handler-inner:after",
            "handler-outer:after",
            "contract:after",
            "server:after",
        ]
    );
    seen.log
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clear();

    // Refused by the provider: the middleware bound after it does not run either.
    app.get("/ordered")
        .await
        .assert(401, json!({"error": "Unauthorized"}));
    assert_eq!(
        seen.log(),
        [
            "server:before",
            "contract:before",
            "handler-outer:before",
            "handler-outer:after",
            "contract:after",
            "server:after",
        ]
    );
    assert_eq!(seen.handled(), 1);
}

/// Runs each case on a fresh native server and a fresh warp one.
macro_rules! on_both_adapters {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            use super::*;

            #[tokio::test]
            async fn native() {
                let seen = Seen::default();
                let app = native_with(app(&seen), options()).await;
                super::$case(&app, &seen).await;
            }

            #[tokio::test]
            async fn warp() {
                let seen = Seen::default();
                let app = warp_with(app(&seen)).await;
                super::$case(&app, &seen).await;
            }
        }
    )*};
}

on_both_adapters!(
    state_reaches_the_handler,
    a_providers_401_stops_the_handler,
    a_providers_value_reaches_the_handler_typed,
    handler_middleware_runs_inside_contract_and_server_middleware,
);

/// The typed client in process goes through the same pipeline: the provider runs there too.
#[tokio::test]
async fn the_in_process_client_runs_the_provider() {
    let seen = Seen::default();
    let me = Endpoint::get(route!("/me"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let handler = bind(me.clone())
        .provide(auth(Arc::clone(&seen.refused)))
        .to(|_ctx: Ctx, (user,): (User,)| async move { Ok(Greeting { text: user.name }) });
    let client = pactum_client::Client::in_process(
        Pipeline::new(vec![handler.into()]).expect("valid handler list"),
    );
    let greeting = client
        .call(&me)
        .header("authorization", "Bearer ada")
        .send()
        .await
        .expect("ada is let in");
    assert_eq!(greeting.text, "ada");
    let refused = client.call(&me).send().await.expect_err("no token");
    assert_eq!(
        refused.status(),
        Some(pactum::http::StatusCode::UNAUTHORIZED)
    );
    assert_eq!(seen.refused(), 1);
}

/// `execute` runs no middleware: state as bound, a provider's value from the context, and a
/// 500 (not a panic) when it is not there.
#[tokio::test]
async fn execute_takes_the_providers_value_from_the_context() {
    let seen = Seen::default();
    let endpoint = Endpoint::get(route!("/me"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let me = bind(endpoint)
        .state(Prefix(Arc::from("hi")))
        .provide(auth(Arc::clone(&seen.refused)))
        .to(|_ctx: Ctx, (prefix, user): (Prefix, User)| async move {
            Ok(Greeting {
                text: format!("{} {}", prefix.0, user.name),
            })
        });
    let ctx = || Ctx::new(NoParams, NoQuery, NoBody);
    let greeting = me
        .execute(ctx().with_provided(User { name: "ada".into() }))
        .await
        .expect("the function's value");
    assert_eq!(greeting.text, "hi ada");
    let error = me.execute(ctx()).await.expect_err("no `User` given");
    assert_eq!(error.status(), 500);
    assert_eq!(error.to_string(), "500 Internal server error");
    assert_eq!(seen.refused(), 0, "execute runs no provider");
}

/// A type provided twice (two providers, or one bound twice): the second provider's value
/// replaces the first's, and every binding of the type receives it.
#[tokio::test]
async fn a_type_provided_twice_reaches_each_binding() {
    let endpoint = Endpoint::get(route!("/twice"))
        .response::<Greeting>()
        .build()
        .expect("valid contract");
    let first = middleware::provide(|_: &Request| async {
        Ok(User {
            name: "first".into(),
        })
    });
    let second = middleware::provide(|_: &Request| async {
        Ok(User {
            name: "second".into(),
        })
    });
    let twice = bind(endpoint)
        .provide(first)
        .state(Prefix(Arc::from("by")))
        .provide(second)
        .to(
            |_ctx: Ctx, (a, prefix, b): (User, Prefix, User)| async move {
                Ok(Greeting {
                    text: format!("{} {} {}", a.name, prefix.0, b.name),
                })
            },
        );
    let pipeline = Pipeline::new(vec![twice.into()]).expect("valid handler list");
    let answer = pipeline
        .handle(
            pactum::http::Request::get("/twice")
                .body(pactum::pipeline::Body::empty())
                .expect("a request"),
        )
        .await;
    assert_eq!(answer.status(), 200);
    let body = http_body_util::BodyExt::collect(answer.into_body())
        .await
        .expect("a body")
        .to_bytes();
    assert_eq!(&body[..], br#"{"text":"second by second"}"#);
}
