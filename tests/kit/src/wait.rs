//! Waiting for the other side: by polling a condition or by a signal, never a bare sleep.

use std::time::{Duration, Instant};

use pactum::middleware::Middleware;
use tokio::sync::mpsc;

/// Waits until `done()` holds, polling every 20 ms, for at most `limit`; whether it held. The
/// way a test waits for the other side: never a bare sleep.
pub async fn eventually(limit: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        // The polling period, not a wait for the other side: `done` is checked again below.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

/// A middleware that sends each request's path as the pipeline starts on it, and what
/// receives them: a test's signal that a request is in flight.
pub fn arrivals() -> (Middleware, mpsc::UnboundedReceiver<String>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let middleware = pactum::middleware::from_fn(move |req, next| {
        let _ = sender.send(req.uri().path().to_owned());
        next.run(req)
    });
    (middleware, receiver)
}

/// Waits (up to 5 s) until a request for `path` reaches the pipeline.
pub async fn arrived(arrivals: &mut mpsc::UnboundedReceiver<String>, path: &str) {
    let wait = async {
        while let Some(arrived) = arrivals.recv().await {
            if arrived == path {
                return;
            }
        }
        panic!("the server is gone");
    };
    tokio::time::timeout(Duration::from_secs(5), wait)
        .await
        .unwrap_or_else(|_| panic!("no request for {path} within 5 s"));
}
