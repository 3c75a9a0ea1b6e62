//! The Prometheus example (`examples/metrics.rs`) end to end: its binary started, a known set
//! of requests sent, `/metrics` scraped, the counts per route template and status checked.

use std::collections::BTreeMap;

use crate::support;

/// The samples of `name` in Prometheus text: labels (as written) to value.
fn samples(text: &str, name: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let rest = line.strip_prefix(name)?;
            let (labels, value) = rest.rsplit_once(' ')?;
            Some((labels.to_owned(), value.parse().ok()?))
        })
        .collect()
}

#[tokio::test]
async fn the_metrics_example_counts_every_answer_by_route_and_status() {
    let app = support::example("metrics", &[("PORT", "0"), ("HOST", "127.0.0.1")]).await;
    for path in ["/users/1", "/users/1", "/users/2", "/nowhere", "/users/x"] {
        app.get(path).await;
    }
    let scrape = app.get("/metrics").await;
    assert_eq!(scrape.status, 200, "{}", scrape.text);

    let counts = samples(&scrape.text, "http_requests_total");
    let expected: BTreeMap<String, f64> = [
        (r#"{route="/users/:id",status="200"}"#, 2.0),
        (r#"{route="/users/:id",status="404"}"#, 1.0),
        (r#"{route="/users/:id",status="400"}"#, 1.0),
        (r#"{route="unmatched",status="404"}"#, 1.0),
    ]
    .into_iter()
    .map(|(labels, count)| (labels.to_owned(), count))
    .collect();
    assert_eq!(counts, expected, "{}", scrape.text);

    // The latency histogram (a summary, in the exporter's default) has one count per answer.
    let timed = samples(&scrape.text, "http_request_duration_seconds_count");
    assert_eq!(timed, expected, "{}", scrape.text);

    // The scrape itself is counted from the next one on.
    let again = app.get("/metrics").await;
    let counts = samples(&again.text, "http_requests_total");
    assert_eq!(
        counts[r#"{route="/metrics",status="200"}"#], 1.0,
        "{}",
        again.text
    );
}
