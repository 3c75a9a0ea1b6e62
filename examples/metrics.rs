//! Prometheus metrics per route: a tower layer on the pipeline counts every answer and times
//! it, labelled by the route's template (`pactum::pipeline::MatchedPath`: `/users/:id`, not one
//! label per id; `unmatched` for a 404 no route had) and the status; `GET /metrics` serves them
//! in Prometheus' text format (the `metrics` crate, rendered by `metrics-exporter-prometheus`).
//!
//! ```text
//! cargo run --example metrics
//! curl localhost:3000/users/1; curl localhost:3000/users/2; curl localhost:3000/nowhere
//! curl localhost:3000/metrics
//! ```
//!
//! `PORT` and `HOST` set the address (`ServerOptions::from_env`); the first line on stdout is
//! `listening on http://HOST:PORT`. `tests/integration/metrics.rs` scrapes it after a known set
//! of requests.
#![allow(clippy::print_stdout, reason = "an example tells its address")]

use std::io::Write;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use pactum::contract::Text;
use pactum::pipeline::MatchedPath;
use pactum::{handler, route, Ctx, Endpoint, HttpError, Pipeline, ServerOptions};
use serde::{Deserialize, Serialize};
use tower_http::trace::TraceLayer;
use validator::Validate;

#[derive(Serialize, Deserialize, Validate)]
struct User {
    id: u64,
    name: String,
}

#[derive(Serialize, Deserialize, Validate, pactum::Params)]
struct UserId {
    id: u64,
}

/// The application: one user, and the metrics.
fn app(metrics: PrometheusHandle) -> Result<Pipeline, Box<dyn std::error::Error>> {
    let user = Endpoint::get(route!("/users/:id"))
        .params::<UserId>()
        .response::<User>()
        .build()?;
    let user = handler(user, |ctx: Ctx<UserId>| async move {
        match ctx.params.id {
            1 => Ok(User {
                id: 1,
                name: "Ada".into(),
            }),
            _ => Err(HttpError::not_found("No such user").into()),
        }
    });
    let scrape = Endpoint::get(route!("/metrics"))
        .response::<Text>()
        .summary("Prometheus metrics")
        .build()?;
    let scrape = handler(scrape, move |_| {
        let text = metrics.render();
        async move { Ok(Text::new(text)) }
    });
    // Told when each answer's head is ready: its status, the route the request matched (the
    // pipeline puts it on the answer), and the time since the request arrived. No span.
    let record = TraceLayer::new_for_http()
        .make_span_with(|_: &http::Request<_>| tracing::Span::none())
        .on_response(
            |response: &http::Response<_>, latency: std::time::Duration, _: &tracing::Span| {
                let route = response
                    .extensions()
                    .get::<MatchedPath>()
                    .map_or_else(|| "unmatched".to_owned(), MatchedPath::to_string);
                let labels = [
                    ("route", route),
                    ("status", response.status().as_u16().to_string()),
                ];
                metrics::counter!("http_requests_total", &labels).increment(1);
                metrics::histogram!("http_request_duration_seconds", &labels)
                    .record(latency.as_secs_f64());
            },
        );
    Ok(Pipeline::builder(vec![user.into(), scrape.into()])
        .layer(record)
        .build()?)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let metrics = PrometheusBuilder::new().install_recorder()?;
    let options = ServerOptions::from_env()?.on_listen(|port, host| {
        println!("listening on http://{host}:{port}");
        let _ = std::io::stdout().flush();
    });
    let server = pactum::serve(app(metrics)?, options).await?;
    server.shutdown_on_signal().await;
    Ok(())
}
