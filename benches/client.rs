//! Criterion micro-benchmarks of the typed client: a call's whole client side (URL building,
//! validation, JSON encoding, decoding and checking the answer), made in-process against a
//! pipeline, next to the same requests answered by that pipeline alone, and raw reqwest's
//! request building for reference.
//!
//! `cargo bench --bench client`. The client's own cost is `in_process` minus `pipeline_only`
//! (printed at the end, from interleaved timing). Over real sockets, the peer load benchmark
//! (`benches/peer-load.sh`) compares pactum-client with raw reqwest in instructions and CPU
//! time per call.
#![allow(clippy::print_stdout, missing_docs)]

#[allow(dead_code)]
#[path = "load/api.rs"]
mod api;

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use criterion::Criterion;
use http::Method;
use pactum::{pipeline::Body, Pipeline};
use pactum_client::Client;

use api::{NewUser, Paging, UserPath};

fn new_user() -> NewUser {
    NewUser {
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        age: 36,
    }
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    pipeline: Pipeline,
    client: Client,
    hello: pactum::Endpoint<pactum::NoParams, pactum::NoQuery, pactum::NoBody, api::Hello>,
    posts: pactum::Endpoint<UserPath, Paging, pactum::NoBody, api::Posts>,
    create: pactum::Endpoint<pactum::NoParams, pactum::NoQuery, NewUser, api::User>,
}

impl Fixture {
    fn new() -> Self {
        let pipeline = Pipeline::new(api::handlers()).expect("valid handlers");
        let client = Client::builder()
            .in_process(pipeline.clone())
            .no_timeout()
            .build()
            .expect("client");
        Self {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime"),
            pipeline,
            client,
            hello: api::hello_endpoint(),
            posts: api::posts_endpoint(),
            create: api::create_endpoint(),
        }
    }

    /// One typed call, in-process.
    fn call(&self, endpoint: &str) {
        self.runtime.block_on(async {
            match endpoint {
                "hello" => {
                    let hello = self.client.call(&self.hello).send().await.expect("hello");
                    black_box(hello);
                }
                "posts" => {
                    let posts = self
                        .client
                        .call(&self.posts)
                        .params(UserPath { id: 7 })
                        .query(Paging {
                            limit: 10,
                            offset: 0,
                        })
                        .send()
                        .await
                        .expect("posts");
                    black_box(posts);
                }
                _ => {
                    let user = self
                        .client
                        .call(&self.create)
                        .body(new_user())
                        .send()
                        .await
                        .expect("create");
                    black_box(user);
                }
            }
        });
    }

    /// The same request, straight into the pipeline: what the in-process call costs
    /// besides the client.
    fn pipeline_only(&self, endpoint: &str) {
        let builder = http::Request::builder().header("host", "localhost");
        let request = match endpoint {
            "hello" => builder.uri("/hello").body(Body::empty()),
            "posts" => builder.uri(api::POSTS_PATH).body(Body::empty()),
            _ => builder
                .method(Method::POST)
                .uri("/users")
                .header("content-type", "application/json")
                .header("content-length", api::NEW_USER_JSON.len())
                .body(Body::from(api::NEW_USER_JSON)),
        }
        .expect("valid request");
        let response = self.runtime.block_on(self.pipeline.handle(request));
        black_box(response);
    }
}

const ENDPOINTS: [&str; 3] = ["hello", "posts", "create"];

/// Set when criterion ran the in-process calls (they are not filtered out).
static CLIENT_BENCHED: AtomicBool = AtomicBool::new(false);

fn bench_client(c: &mut Criterion, fixture: &Fixture) {
    let mut group = c.benchmark_group("client");
    for endpoint in ENDPOINTS {
        fixture.call(endpoint);
        group.bench_function(format!("in_process/{endpoint}"), |b| {
            CLIENT_BENCHED.store(true, Ordering::Relaxed);
            b.iter(|| fixture.call(endpoint))
        });
        group.bench_function(format!("pipeline_only/{endpoint}"), |b| {
            b.iter(|| fixture.pipeline_only(endpoint))
        });
    }
    group.finish();

    // Raw reqwest's request building (no sending), for reference.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let reqwest = reqwest::Client::builder().build().expect("reqwest client");
    let base = "http://127.0.0.1:3000";
    let mut group = c.benchmark_group("reqwest_build");
    group.bench_function("hello", |b| {
        b.iter(|| reqwest.get(format!("{base}/hello")).build())
    });
    group.bench_function("posts", |b| {
        b.iter(|| {
            let paging = Paging {
                limit: 10,
                offset: 0,
            };
            reqwest
                .get(format!(
                    "{base}/users/{}/posts?limit={}&offset={}",
                    7, paging.limit, paging.offset
                ))
                .build()
        })
    });
    group.bench_function("create", |b| {
        b.iter(|| {
            reqwest
                .post(format!("{base}/users"))
                .json(&new_user())
                .build()
        })
    });
    group.finish();
}

/// The client's own cost per call: in-process call minus pipeline alone, interleaved, best of
/// 7 rounds.
fn client_share(fixture: &Fixture) {
    println!(
        "\ntyped client's own cost per call (in-process call minus the pipeline alone, best of 7):"
    );
    for endpoint in ENDPOINTS {
        let (mut call, mut alone) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..7 {
            let n = 3_000;
            let started = Instant::now();
            for _ in 0..n {
                fixture.call(endpoint);
            }
            call = call.min(started.elapsed().as_nanos() as f64 / f64::from(n));
            let started = Instant::now();
            for _ in 0..n {
                fixture.pipeline_only(endpoint);
            }
            alone = alone.min(started.elapsed().as_nanos() as f64 / f64::from(n));
        }
        println!(
            "  {endpoint:<7} call {:.2} µs, pipeline {:.2} µs, client {:.2} µs",
            call / 1e3,
            alone / 1e3,
            (call - alone) / 1e3
        );
    }
}

fn main() {
    let fixture = Fixture::new();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench_client(&mut criterion, &fixture);
    criterion.final_summary();
    if CLIENT_BENCHED.load(Ordering::Relaxed) && !std::env::args().any(|a| a == "--test") {
        client_share(&fixture);
    }
}
