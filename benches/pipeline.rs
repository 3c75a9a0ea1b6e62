//! Criterion micro-benchmarks of the pipeline's parts: route matching with 10, 100 and
//! 1 000 routes; params and query parsing; body parsing + validation (small and nested);
//! response check + serialisation; and the whole pipeline through `pactum::server::service`, without
//! sockets.
//!
//! `cargo bench --bench pipeline` (add a filter: `cargo bench --bench pipeline -- route`).
//! After criterion's figures it prints the route-matching ratio of 1 000 routes to 10, from
//! its own interleaved timing (best of several rounds).
#![allow(clippy::print_stdout, missing_docs)]

#[allow(dead_code)]
#[path = "load/api.rs"]
mod api;
#[path = "load/routes.rs"]
mod routes;

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{BenchmarkId, Criterion, Throughput};
use http::Method;
use http_body_util::Full;
use pactum::{contract::NoContent, handler, route, Endpoint, NoBody, NoQuery, Pipeline};
use serde::{Deserialize, Serialize};
use tower::Service;
use validator::Validate;

use api::{NewUser, Paging, UserPath};

// ---------------------------------------------------------------------------------------
// Route matching
// ---------------------------------------------------------------------------------------

/// Set when criterion ran the route group (it is not filtered out).
static ROUTES_BENCHED: AtomicBool = AtomicBool::new(false);

fn bench_routes(c: &mut Criterion) {
    let mut group = c.benchmark_group("route");
    for n in [10, 100, 1000] {
        let pipeline = routes::table(n);
        let paths = routes::lookups(n);
        for path in &paths {
            assert!(pipeline.route(&Method::GET, path).is_some(), "{path}");
        }
        group.throughput(Throughput::Elements(paths.len() as u64));
        group.bench_with_input(BenchmarkId::new("match", n), &paths, |b, paths| {
            ROUTES_BENCHED.store(true, Ordering::Relaxed);
            b.iter(|| {
                for path in paths {
                    black_box(pipeline.route(&Method::GET, black_box(path)));
                }
            });
        });
    }
    group.finish();
}

/// ns per lookup for 10, 100 and 1 000 routes, interleaved, best of 7 rounds.
fn route_ratio() {
    let tables: Vec<(usize, Pipeline, Vec<String>)> = [10, 100, 1000]
        .into_iter()
        .map(|n| (n, routes::table(n), routes::lookups(n)))
        .collect();
    let mut best = [f64::INFINITY; 3];
    for _ in 0..7 {
        for (slot, (_, pipeline, paths)) in tables.iter().enumerate() {
            let rounds = 20_000;
            let started = Instant::now();
            for _ in 0..rounds {
                for path in paths {
                    black_box(pipeline.route(&Method::GET, black_box(path)));
                }
            }
            let ns = started.elapsed().as_nanos() as f64 / (rounds * paths.len()) as f64;
            best[slot] = best[slot].min(ns);
        }
    }
    println!(
        "\nroute matching (best of 7 interleaved rounds): 10 routes {:.1} ns, 100 routes {:.1} ns, \
         1000 routes {:.1} ns per lookup; 1000/10 = {:.3} (goal <= 1.03)",
        best[0],
        best[1],
        best[2],
        best[2] / best[0]
    );
}

// ---------------------------------------------------------------------------------------
// Params, query, body, response
// ---------------------------------------------------------------------------------------

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Filters {
    #[validate(range(min = 1, max = 100))]
    limit: u32,
    #[serde(default)]
    offset: u32,
    active: Option<bool>,
    #[serde(default)]
    #[validate(length(max = 10))]
    tag: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Customer {
    #[validate(length(min = 1, max = 50))]
    name: String,
    #[validate(email)]
    email: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Item {
    #[validate(length(min = 1, max = 20))]
    sku: String,
    #[validate(range(min = 1, max = 99))]
    qty: u32,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Order {
    #[validate(nested)]
    customer: Customer,
    #[validate(length(min = 1, max = 20), nested)]
    items: Vec<Item>,
    #[validate(length(max = 200))]
    note: Option<String>,
}

const ORDER_JSON: &str = r#"{"customer":{"name":"Ada Lovelace","email":"ada@example.com"},
"items":[{"sku":"A-1","qty":1},{"sku":"B-2","qty":2},{"sku":"C-3","qty":3},{"sku":"D-4","qty":4},
{"sku":"E-5","qty":5}],"note":"leave at the door"}"#;

fn bench_parts(c: &mut Criterion) {
    let posts = handler(api::posts_endpoint(), |_| async {
        Ok(api::posts(
            7,
            &Paging {
                limit: 10,
                offset: 0,
            },
        ))
    });
    let filters = handler(
        Endpoint::get(route::static_path("/search"))
            .query::<Filters>()
            .build()
            .expect("valid contract"),
        |_| async { Ok(NoContent) },
    );
    let create = handler(api::create_endpoint(), |_| async {
        Err(pactum::HttpError::internal("unused").into())
    });
    let order = handler(
        Endpoint::post(route::static_path("/orders"))
            .body::<Order>()
            .build()
            .expect("valid contract"),
        |_| async { Ok(NoContent) },
    );
    let hello = handler(api::hello_endpoint(), |_| async { Ok(api::hello()) });

    let mut group = c.benchmark_group("params");
    assert_eq!(
        posts.parse_params(&[("id", "7")]).map(|p| p.id).ok(),
        Some(7)
    );
    group.bench_function("one_u64", |b| {
        b.iter(|| posts.parse_params(black_box(&[("id", "7")])))
    });
    group.bench_function("one_u64_refused", |b| {
        b.iter(|| posts.parse_params(black_box(&[("id", "seven")])))
    });
    group.finish();

    let mut group = c.benchmark_group("query");
    let paging = "limit=10&offset=0";
    let search = "limit=20&offset=40&active=true&tag=rust&tag=http&tag[]=serde";
    assert!(posts.parse_query(Some(paging)).is_ok());
    assert_eq!(
        filters.parse_query(Some(search)).map(|f| f.tag.len()).ok(),
        Some(3)
    );
    group.bench_function("paging", |b| {
        b.iter(|| posts.parse_query(black_box(Some(paging))))
    });
    group.bench_function("filters_with_list", |b| {
        b.iter(|| filters.parse_query(black_box(Some(search))))
    });
    let bad = "limit=many&offset=-1&active=true&tag=rust";
    assert!(filters.parse_query(Some(bad)).is_err());
    group.bench_function("two_errors", |b| {
        b.iter(|| filters.parse_query(black_box(Some(bad))))
    });
    group.finish();

    let mut group = c.benchmark_group("body");
    let small = api::NEW_USER_JSON.as_bytes();
    assert!(create.parse_body(small).is_ok());
    assert_eq!(
        order
            .parse_body(ORDER_JSON.as_bytes())
            .map(|o| o.items.len())
            .ok(),
        Some(5)
    );
    group.throughput(Throughput::Bytes(small.len() as u64));
    group.bench_function("small", |b| b.iter(|| create.parse_body(black_box(small))));
    group.throughput(Throughput::Bytes(ORDER_JSON.len() as u64));
    group.bench_function("nested", |b| {
        b.iter(|| order.parse_body(black_box(ORDER_JSON.as_bytes())))
    });
    // The error path: every shape error collected (a second reading, over a tree).
    let two_wrong = ORDER_JSON
        .replace(r#""qty":2"#, r#""qty":"two""#)
        .replace(r#""sku":"D-4""#, r#""sku":4"#);
    let missing = ORDER_JSON.replace(r#""qty":3"#, r#""n":3"#);
    assert_eq!(
        order
            .parse_body(two_wrong.as_bytes())
            .map_err(|e| e.to_body().details.len())
            .err(),
        Some(2)
    );
    group.bench_function("nested_two_shape_errors", |b| {
        b.iter(|| order.parse_body(black_box(two_wrong.as_bytes())))
    });
    group.bench_function("nested_missing_field", |b| {
        b.iter(|| order.parse_body(black_box(missing.as_bytes())))
    });
    group.finish();

    let mut group = c.benchmark_group("response");
    let hello_value = api::hello();
    let posts_value = api::posts(
        7,
        &Paging {
            limit: 10,
            offset: 0,
        },
    );
    assert_eq!(
        hello.respond(&hello_value).expect("serialises").body(),
        r#"{"message":"hello"}"#
    );
    group.bench_function("hello", |b| {
        b.iter(|| hello.respond(black_box(&hello_value)))
    });
    group.bench_function("posts_10", |b| {
        b.iter(|| posts.respond(black_box(&posts_value)))
    });
    group.finish();
}

// ---------------------------------------------------------------------------------------
// The whole pipeline, socket-free
// ---------------------------------------------------------------------------------------

fn request(endpoint: &str) -> http::Request<Full<Bytes>> {
    let builder = http::Request::builder().header("host", "127.0.0.1:3000");
    match endpoint {
        "hello" => builder.uri("/hello").body(Full::default()),
        "posts" => builder.uri(api::POSTS_PATH).body(Full::default()),
        _ => builder
            .method(Method::POST)
            .uri("/users")
            .header("content-type", "application/json")
            .header("content-length", api::NEW_USER_JSON.len())
            .body(Full::new(Bytes::from_static(api::NEW_USER_JSON.as_bytes()))),
    }
    .expect("valid request")
}

fn bench_service(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut service = pactum::server::service(api::handlers()).expect("valid handlers");
    let mut group = c.benchmark_group("service");
    for (endpoint, status) in [("hello", 200), ("posts", 200), ("create", 201)] {
        let response = runtime
            .block_on(service.call(request(endpoint)))
            .expect("infallible");
        assert_eq!(response.status(), status, "{endpoint}");
        group.bench_function(endpoint, |b| {
            b.iter(|| runtime.block_on(service.call(black_box(request(endpoint)))))
        });
    }
    group.finish();
    let _: (NoQuery, NoBody, UserPath, NewUser) = (
        NoQuery,
        NoBody,
        UserPath { id: 0 },
        NewUser {
            name: String::new(),
            email: String::new(),
            age: 0,
        },
    );
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench_routes(&mut criterion);
    bench_parts(&mut criterion);
    bench_service(&mut criterion);
    criterion.final_summary();
    if ROUTES_BENCHED.load(Ordering::Relaxed) && !std::env::args().any(|a| a == "--test") {
        route_ratio();
    }
}
