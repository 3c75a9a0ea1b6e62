//! Every routed request runs in a `request` span carrying its method, route, request id, status and
//! latency; a typed error or an `HttpError` status its contract does not declare is logged. Its own test binary: tracing caches each callsite's interest process-wide, so a
//! scoped subscriber is only reliable where no other test hits the callsite concurrently.
#![allow(missing_docs)]

use std::sync::{Arc, Mutex};

use pactum::pipeline::{Body, PeerAddr};
use pactum::{handler, route, Ctx, Endpoint, HttpError, Pipeline};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Serialize, Deserialize, Validate)]
struct UserPath {
    id: u64,
}

fn get(path: &str) -> http::Request<Body> {
    http::Request::get(path).body(Body::empty()).unwrap()
}

/// The fields of every closed `request` span.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<SpanFields>>>);

/// A span's fields as (name, value) text.
type SpanFields = Vec<(String, String)>;

struct Fields<'a>(&'a mut SpanFields);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
}

impl<S> tracing_subscriber::Layer<S> for Spans
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut fields = Vec::new();
        attrs.record(&mut Fields(&mut fields));
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(fields);
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        if let Some(span) = ctx.span(id) {
            if let Some(fields) = span.extensions_mut().get_mut::<SpanFields>() {
                values.record(&mut Fields(fields));
            }
        }
    }

    fn on_close(&self, id: tracing::span::Id, ctx: tracing_subscriber::layer::Context<'_, S>) {
        if let Some(span) = ctx.span(&id) {
            if span.name() == "request" {
                if let Some(fields) = span.extensions_mut().remove::<SpanFields>() {
                    self.0.lock().unwrap().push(fields);
                }
            }
        }
    }
}

#[test]
fn every_routed_request_has_a_span_with_method_route_status_and_latency() {
    use tracing_subscriber::layer::SubscriberExt;
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let user = Endpoint::get(route::pattern("/users/:id"))
            .params::<UserPath>()
            .build()
            .unwrap();
        let health = Endpoint::get(route::static_path("/health"))
            .build()
            .unwrap();
        let pipeline = Pipeline::builder(vec![
            handler(user, |_: Ctx<UserPath>| async {
                Err::<pactum::contract::NoContent, _>(HttpError::not_found("User not found").into())
            })
            .into(),
            handler(health, |_| async { Ok(pactum::contract::NoContent) }).into(),
        ])
        .trusted_proxies(["192.0.2.1/32".parse().unwrap()])
        .echo_request_id(true)
        .build()
        .unwrap();
        runtime.block_on(async {
            assert_eq!(pipeline.handle(get("/users/42")).await.status(), 404);
            assert_eq!(pipeline.handle(get("/health")).await.status(), 204);
            // From a trusted proxy: its id is the request's.
            let with_id = http::Request::get("/health")
                .header("x-request-id", "req-span-1")
                .extension(PeerAddr("192.0.2.1:4000".parse().unwrap()))
                .body(Body::empty())
                .unwrap();
            let answer = pipeline.handle(with_id).await;
            assert_eq!(answer.status(), 204);
            assert_eq!(answer.headers()["x-request-id"], "req-span-1");
        });
    });
    let spans = spans.0.lock().unwrap();
    let field = |span: &SpanFields, name: &str| {
        span.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    assert_eq!(spans.len(), 3, "{spans:?}");
    assert_eq!(field(&spans[0], "method").as_deref(), Some("GET"));
    assert_eq!(field(&spans[0], "route").as_deref(), Some("/users/:id"));
    assert_eq!(field(&spans[0], "status").as_deref(), Some("404"));
    assert!(field(&spans[0], "latency_us").is_some(), "{spans:?}");
    assert_eq!(field(&spans[1], "route").as_deref(), Some("/health"));
    assert_eq!(field(&spans[1], "status").as_deref(), Some("204"));
    // The request id: generated (distinct), or the request's `x-request-id`.
    let generated = [0, 1].map(|i| field(&spans[i], "request_id").expect("a request id"));
    assert_ne!(generated[0], generated[1]);
    assert_eq!(generated[0].len(), 16, "{generated:?}");
    assert_eq!(
        field(&spans[2], "request_id").as_deref(),
        Some("req-span-1")
    );
}

/// The fields of every event at `self.0` or above (ERROR is the highest).
#[derive(Clone)]
struct Events(tracing::Level, Arc<Mutex<Vec<SpanFields>>>);

impl Events {
    fn at(level: tracing::Level) -> Self {
        Self(level, Arc::default())
    }

    /// The events that have field `name`.
    fn with_field(&self, name: &str) -> Vec<SpanFields> {
        let events = self.1.lock().unwrap();
        let has = |fields: &&SpanFields| fields.iter().any(|(n, _)| n == name);
        events.iter().filter(has).cloned().collect()
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Events {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if *event.metadata().level() <= self.0 {
            let mut fields = Vec::new();
            event.record(&mut Fields(&mut fields));
            self.1.lock().unwrap().push(fields);
        }
    }
}

/// The value of field `name`.
fn field(fields: &SpanFields, name: &str) -> Option<String> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

/// A typed error answer: declared by `GET /gone/:id`, returned by `GET /users/:id` too.
#[derive(Debug, Serialize, Deserialize)]
struct Gone {
    id: u64,
}

impl std::fmt::Display for Gone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "user {} is gone", self.id)
    }
}

impl std::error::Error for Gone {}

pactum::error::error_answer!(Gone { Self { .. } => GONE });

#[test]
fn an_undeclared_typed_error_is_logged_by_route_and_type_and_sent_without_its_text() {
    use tracing_subscriber::layer::SubscriberExt;
    let events = Events::at(tracing::Level::ERROR);
    let subscriber = tracing_subscriber::registry().with(events.clone());
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let gone = Endpoint::get(route::pattern("/gone/:id"))
            .params::<UserPath>()
            .errors::<Gone>()
            .build()
            .unwrap();
        let user = Endpoint::get(route::pattern("/users/:id"))
            .params::<UserPath>()
            .build()
            .unwrap();
        let fail = |ctx: Ctx<UserPath>| async move {
            Err::<pactum::contract::NoContent, _>(Gone { id: ctx.params.id }.into())
        };
        let pipeline =
            Pipeline::new(vec![handler(gone, fail).into(), handler(user, fail).into()]).unwrap();
        runtime.block_on(async {
            let declared = pipeline.handle(get("/gone/3")).await;
            assert_eq!(declared.status(), 410);
            assert_eq!(declared.body(), r#"{"id":3}"#);
            let undeclared = pipeline.handle(get("/users/4")).await;
            assert_eq!(undeclared.status(), 500);
            assert_eq!(undeclared.body(), r#"{"error":"Internal server error"}"#);
        });
    });
    let undeclared = events.with_field("error_type");
    assert_eq!(undeclared.len(), 1);
    let undeclared = &undeclared[0];
    assert_eq!(field(undeclared, "route").as_deref(), Some("/users/:id"));
    assert_eq!(field(undeclared, "method").as_deref(), Some("GET"));
    let error_type = field(undeclared, "error_type").expect("the type");
    assert!(error_type.ends_with("Gone\""), "{error_type}");
    let message = field(undeclared, "message").expect("a message");
    assert!(message.contains("does not declare"), "{message}");
}

#[test]
fn an_undeclared_http_error_status_is_warned_about_once_per_route_and_status() {
    use tracing_subscriber::layer::SubscriberExt;
    let events = Events::at(tracing::Level::WARN);
    let subscriber = tracing_subscriber::registry().with(events.clone());
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let user = Endpoint::get(route::pattern("/users/:id"))
            .params::<UserPath>()
            .http_error(pactum::http::StatusCode::NOT_FOUND, "No such user")
            .build()
            .unwrap();
        let pipeline = Pipeline::new(vec![handler(user, |ctx: Ctx<UserPath>| async move {
            Err::<pactum::contract::NoContent, _>(match ctx.params.id {
                1 => HttpError::not_found("No such user").into(),
                2 => HttpError::conflict("Taken").into(),
                3 => HttpError::internal("Storage failed").into(),
                _ => HttpError::too_many_requests("Slow down").into(),
            })
        })
        .into()])
        .unwrap();
        runtime.block_on(async {
            for (id, status) in [(1, 404), (2, 409), (2, 409), (3, 500), (4, 429), (2, 409)] {
                let answer = pipeline.handle(get(&format!("/users/{id}"))).await;
                assert_eq!(answer.status(), status, "the answer is unchanged");
            }
        });
    });
    // Not the 500's own log: the warnings only.
    let warned: Vec<(Option<String>, Option<String>)> = events
        .with_field("status")
        .iter()
        .filter(|fields| field(fields, "message").is_some_and(|m| m.contains("does not declare")))
        .map(|fields| (field(fields, "route"), field(fields, "status")))
        .collect();
    let route = Some("/users/:id".to_owned());
    assert_eq!(
        warned,
        [
            (route.clone(), Some("409".to_owned())),
            (route, Some("429".to_owned()))
        ]
    );
}

#[test]
fn request_timeouts_are_warnings_at_most_one_a_second() {
    use tracing_subscriber::layer::SubscriberExt;
    let events = Events::at(tracing::Level::WARN);
    let subscriber = tracing_subscriber::registry().with(events.clone());
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let slow = Endpoint::get(route!("/slow")).build().unwrap();
        let pipeline = Pipeline::builder(vec![handler(slow, |_| async {
            // The slow handler under test: the pipeline's timeout cuts it.
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            Ok(pactum::contract::NoContent)
        })
        .into()])
        .request_timeout(Some(std::time::Duration::from_millis(20)))
        .build()
        .unwrap();
        runtime.block_on(async {
            let answers: Vec<_> = (0..20).map(|_| pipeline.handle(get("/slow"))).collect();
            for answer in futures_util::future::join_all(answers).await {
                assert_eq!(answer.status(), 503, "the answer is unchanged");
            }
        });
    });
    let timeouts = events.with_field("suppressed");
    // Twenty timeouts within a few milliseconds: one warning, or two if a second boundary
    // fell between them; never one each, and none at ERROR.
    assert!(
        (1..=2).contains(&timeouts.len()),
        "{} warnings: {timeouts:?}",
        timeouts.len()
    );
    let errors = events.1.lock().unwrap().len() - timeouts.len();
    assert_eq!(errors, 0, "nothing else is logged at WARN or above");
}
