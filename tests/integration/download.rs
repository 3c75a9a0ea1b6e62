//! Fixture row 27, a streamed download: `GET /download?size=N` on every adapter, read raw and
//! with the typed client; an error mid-way breaks the answer off; and 100 MiB sent with the
//! server's memory flat.

use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use pactum::contract::Download;
use pactum::{handler, route, Endpoint};
use pactum_client::Client;

use crate::api::{download, download_bytes, DownloadQuery, DOWNLOAD_MAX};
use crate::support::{Running, TestServer};

/// The first `size` bytes every download sends.
fn expected(size: usize) -> Vec<u8> {
    let mut bytes = vec![0; size];
    download_bytes(0, &mut bytes);
    bytes
}

pub async fn streams_the_bytes_with_their_length(app: &TestServer) {
    // Neither a whole number of chunks nor of words.
    for size in [0, 1, 13, 200_003] {
        let answer = app
            .client
            .get(app.url(&format!("/download?size={size}")))
            .send()
            .await
            .expect("answered");
        assert_eq!(answer.status(), 200, "{size}");
        let headers = answer.headers().clone();
        assert_eq!(headers["content-type"], "application/octet-stream");
        assert_eq!(headers["content-length"], size.to_string().as_str());
        assert!(headers.get("transfer-encoding").is_none(), "{headers:?}");
        assert_eq!(
            headers["content-disposition"],
            format!("attachment; filename=\"download-{size}.bin\"").as_str()
        );
        let body = answer.bytes().await.expect("body read");
        assert_eq!(body, expected(size), "{size}");
    }
}

pub async fn head_answers_the_headers_and_length(app: &TestServer) {
    let head = app
        .client
        .head(app.url("/download?size=123456"))
        .send()
        .await
        .expect("answered");
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-type"], "application/octet-stream");
    assert_eq!(head.headers()["content-length"], "123456");
    assert_eq!(head.bytes().await.expect("read"), "");
}

pub async fn a_bad_size_is_a_json_400(app: &TestServer) {
    let over = format!("/download?size={}", DOWNLOAD_MAX + 1);
    for path in ["/download", "/download?size=-1", over.as_str()] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, 400, "{path}: {}", answer.text);
        assert_eq!(answer.headers["content-type"], "application/json", "{path}");
        assert_eq!(answer.json()["error"], "Validation failed", "{path}");
    }
}

pub async fn the_typed_client_reads_a_stream(app: &TestServer) {
    let client = Client::new(format!("http://{}", app.addr).as_str()).expect("valid base URL");
    let size = 3 * 1024 * 1024 + 5;
    let mut streamed: Download = client
        .call(&download())
        .query(DownloadQuery { size })
        .send()
        .await
        .expect("downloaded");
    assert_eq!(streamed.content_type(), "application/octet-stream");
    assert_eq!(streamed.length(), Some(size));
    assert_eq!(
        streamed.content_disposition().expect("set"),
        format!("attachment; filename=\"download-{size}.bin\"").as_str()
    );
    // Read as it comes: many chunks, each checked where it falls.
    let (mut offset, mut chunks) = (0u64, 0);
    let mut want = Vec::new();
    while let Some(chunk) = streamed.next().await {
        let chunk = chunk.expect("a chunk");
        want.resize(chunk.len(), 0);
        download_bytes(offset, &mut want);
        assert_eq!(chunk, want, "at {offset}");
        offset += chunk.len() as u64;
        chunks += 1;
    }
    assert_eq!(offset, size);
    assert!(chunks > 1, "read in {chunks} chunk(s)");
    let small: Download = client
        .call(&download())
        .query(DownloadQuery { size: 10 })
        .send()
        .await
        .expect("downloaded");
    assert_eq!(small.bytes().await.expect("read"), expected(10));
    // A failed call is the error answer, as for any contract.
    let error = client
        .call(&download())
        .query(DownloadQuery {
            size: DOWNLOAD_MAX + 1,
        })
        .send()
        .await
        .expect_err("refused before sending");
    assert!(error.is_validation(), "{error}");
}

on_every_adapter!(
    streams_the_bytes_with_their_length,
    head_answers_the_headers_and_length,
    a_bad_size_is_a_json_400,
    the_typed_client_reads_a_stream,
);

/// Three downloads that go wrong after `ab`: a stream error, a stream shorter than its
/// declared length, a longer one.
fn broken_handlers() -> Vec<pactum::handler::AnyHandler> {
    let chunks = |items: Vec<Result<&'static str, &'static str>>| {
        futures_util::stream::iter(items.into_iter().map(|item| {
            item.map(|s| Bytes::from_static(s.as_bytes()))
                .map_err(std::io::Error::other)
        }))
    };
    let endpoint = |path| {
        Endpoint::get(route::static_path(path))
            .response::<Download>()
            .build()
            .expect("contract")
    };
    vec![
        handler(endpoint("/fails"), move |_| async move {
            Ok(Download::new(chunks(vec![Ok("ab"), Err("disk gone")])))
        })
        .into(),
        handler(endpoint("/short"), move |_| async move {
            Ok(Download::new(chunks(vec![Ok("ab")])).with_length(4))
        })
        .into(),
        handler(endpoint("/long"), move |_| async move {
            Ok(Download::new(chunks(vec![Ok("ab"), Ok("cde")])).with_length(4))
        })
        .into(),
    ]
}

/// What a client reads of `path`: the bytes until the body ended, and whether it ended
/// cleanly. A connection closed before the head was flushed (hyper writes the head with the
/// first chunk) reads as nothing, not clean.
async fn read(app: &TestServer, path: &str) -> (Vec<u8>, bool) {
    let Ok(answer) = app.client.get(app.url(path)).send().await else {
        return (Vec::new(), false);
    };
    assert_eq!(answer.status(), 200, "{path}");
    let mut body = answer.bytes_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        match chunk {
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(_) => return (bytes, false),
        }
    }
    (bytes, true)
}

async fn a_broken_download_is_truncated(app: TestServer) {
    for path in ["/fails", "/short", "/long"] {
        let (bytes, clean) = tokio::time::timeout(Duration::from_secs(10), read(&app, path))
            .await
            .expect("the answer ends");
        assert!(!clean, "{path}: a broken download must not end cleanly");
        assert!(bytes.len() <= 4, "{path}: {bytes:?}");
    }
    // The server serves on.
    assert_eq!(app.get("/nowhere").await.status, 404);
}

#[tokio::test]
async fn a_broken_download_is_truncated_native() {
    let app = crate::support::native_with(broken_handlers(), crate::support::options()).await;
    a_broken_download_is_truncated(app).await;
}

#[tokio::test]
async fn a_broken_download_is_truncated_warp() {
    a_broken_download_is_truncated(crate::support::warp_with(broken_handlers()).await).await;
}

#[tokio::test]
async fn a_broken_download_is_truncated_warp_own_server() {
    let app = crate::support::warp_own_server_with(broken_handlers()).await;
    a_broken_download_is_truncated(app).await;
}

/// 100 MiB from the conformance binary, read a little slowly (a pause every MiB), every byte
/// checked: the server's resident memory stays flat — a buffered body would add 100 MiB.
#[allow(clippy::print_stderr)]
async fn sends_100_mib_with_flat_memory(adapter: &str, app: &TestServer) {
    const MIB: u64 = 1024 * 1024;
    let Running::Process(child) = &app.running else {
        panic!("the conformance binary runs in a process of its own");
    };
    let pid = child.id().expect("running");
    let rss = || crate::support::rss_kib_of(pid);
    // Warm up (connection pool, buffers, the allocator's first arenas).
    let warm = app
        .client
        .get(app.url("/download?size=4194304"))
        .send()
        .await;
    assert_eq!(
        warm.expect("answered").bytes().await.expect("read").len(),
        4 << 20
    );
    let before = rss();
    assert!(before > 0, "VmRSS of {pid} readable");

    let started = Instant::now();
    let answer = app
        .client
        .get(app.url(&format!("/download?size={DOWNLOAD_MAX}")))
        .send()
        .await
        .expect("answered");
    assert_eq!(
        answer.headers()["content-length"],
        DOWNLOAD_MAX.to_string().as_str()
    );
    let mut body = answer.bytes_stream();
    let (mut offset, mut peak, mut next_pause) = (0u64, before, MIB);
    let mut want = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.expect("a chunk");
        want.resize(chunk.len(), 0);
        download_bytes(offset, &mut want);
        assert!(chunk == want, "the bytes at {offset} differ");
        offset += chunk.len() as u64;
        if offset >= next_pause {
            next_pause += MIB;
            peak = peak.max(rss());
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    let elapsed = started.elapsed();
    let after = rss();
    peak = peak.max(after);
    assert_eq!(offset, DOWNLOAD_MAX);
    let mib = |kib: u64| kib as f64 / 1024.0;
    eprintln!(
        "100 MiB download ({adapter}): server RSS before {:.1} MiB, peak {:.1} MiB, after {:.1} MiB \
         (growth {:.1} MiB); {:.2} s, {:.0} MiB/s (the client checks every byte)",
        mib(before),
        mib(peak),
        mib(after),
        mib(peak.saturating_sub(before)),
        elapsed.as_secs_f64(),
        (DOWNLOAD_MAX / MIB) as f64 / elapsed.as_secs_f64(),
    );
    assert!(
        peak.saturating_sub(before) < 32 * 1024,
        "the server's memory grew by {:.1} MiB while sending 100 MiB",
        mib(peak.saturating_sub(before))
    );
}

// Not `on_the_fixture!`: its modules would take the names `on_every_adapter!` gave above.
#[tokio::test]
async fn sends_100_mib_with_flat_memory_native() {
    sends_100_mib_with_flat_memory("native", &crate::support::fixture_native().await).await;
}

#[tokio::test]
async fn sends_100_mib_with_flat_memory_warp() {
    sends_100_mib_with_flat_memory("warp", &crate::support::fixture_warp().await).await;
}
