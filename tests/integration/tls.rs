//! HTTPS on the native server: an rcgen CA and leaf certificate, a client that trusts the CA.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pactum::{
    handler, handler::AnyHandler, route, server::TlsConfig, Ctx, Endpoint, ServerOptions,
};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::net::TcpStream;
use validator::Validate;

use crate::support::{self, eventually, options, read_to_close};

/// A test CA and a leaf certificate for `localhost` and `127.0.0.1`, signed by it.
struct Pki {
    ca_pem: String,
    chain_pem: String,
    key_pem: String,
}

fn pki() -> Pki {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "pactum test CA");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().expect("CA key"))
        .expect("CA certificate");

    let mut leaf_params =
        CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .expect("leaf params");
    leaf_params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    leaf_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    leaf_params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    let leaf_key = KeyPair::generate().expect("leaf key");
    let leaf = leaf_params
        .signed_by(&leaf_key, &ca)
        .expect("leaf certificate");
    Pki {
        ca_pem: ca.pem(),
        chain_pem: format!("{}{}", leaf.pem(), ca.pem()),
        key_pem: leaf_key.serialize_pem(),
    }
}

fn tls_client(pki: &Pki) -> reqwest::ClientBuilder {
    support::install_crypto();
    let ca = reqwest::Certificate::from_pem(pki.ca_pem.as_bytes()).expect("CA parses");
    reqwest::Client::builder()
        .tls_certs_only([ca])
        .timeout(Duration::from_secs(10))
}

#[derive(Debug, Serialize, Deserialize, Validate)]
struct Where {
    scheme: String,
    url: String,
}

fn handlers() -> Vec<AnyHandler> {
    let endpoint = Endpoint::get(route::static_path("/where"))
        .response::<Where>()
        .build()
        .expect("contract builds");
    let mut handlers = crate::api::handlers();
    handlers.push(
        handler(endpoint, |ctx: Ctx| async move {
            Ok(Where {
                scheme: ctx.url().scheme().to_owned(),
                url: ctx.url().to_string(),
            })
        })
        .into(),
    );
    handlers
}

async fn https_server(pki: &Pki, options: ServerOptions) -> pactum::server::Server {
    let tls = TlsConfig::from_pem(pki.chain_pem.as_bytes(), pki.key_pem.as_bytes())
        .expect("the PEM certificate and key load");
    pactum::serve(handlers(), options.https(tls))
        .await
        .expect("server starts")
}

#[tokio::test]
async fn https_serves_with_a_trusted_certificate() {
    let pki = pki();
    let server = https_server(&pki, options()).await;
    let addr = server.local_addr();
    let client = tls_client(&pki).build().expect("client builds");

    let response = client
        .get(format!("https://{addr}/health"))
        .send()
        .await
        .expect("https request");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(
        response.json::<serde_json::Value>().await.expect("json"),
        json!({"status": "ok"})
    );

    // The handler sees an https URL.
    let answer: serde_json::Value = client
        .get(format!("https://{addr}/where?x=1"))
        .send()
        .await
        .expect("https request")
        .json()
        .await
        .expect("json");
    assert_eq!(
        answer,
        json!({"scheme": "https", "url": format!("https://{addr}/where?x=1")})
    );

    // The certificate's DNS name works too.
    let by_name = tls_client(&pki)
        .resolve("localhost", addr)
        .build()
        .expect("client builds");
    let response = by_name
        .get(format!("https://localhost:{}/health", addr.port()))
        .send()
        .await
        .expect("https request by name");
    assert_eq!(response.status(), 200);

    // Errors and bodies over TLS as over plain HTTP.
    let created = client
        .post(format!("https://{addr}/users"))
        .header("content-type", "application/json")
        .body(r#"{"name":"Ada","email":"ada@example.com"}"#)
        .send()
        .await
        .expect("https request");
    assert_eq!(created.status(), 201);
    let missing = client
        .get(format!("https://{addr}/users/9"))
        .send()
        .await
        .expect("https request");
    assert_eq!(missing.status(), 404);
    assert!(server.shutdown().await);
}

#[tokio::test]
async fn the_plain_server_reports_an_http_url() {
    let app = crate::support::native_with(handlers(), options()).await;
    let answer = app.get("/where").await;
    assert_eq!(answer.json()["scheme"], "http");
}

#[tokio::test]
async fn alpn_negotiates_http2_and_http1_still_works() {
    let pki = pki();
    let server = https_server(&pki, options()).await;
    let addr = server.local_addr();

    let h2 = tls_client(&pki).build().expect("client builds");
    let response = h2
        .get(format!("https://{addr}/where"))
        .send()
        .await
        .expect("https request");
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    let answer: serde_json::Value = response.json().await.expect("json");
    assert_eq!(answer["scheme"], "https");

    let h1 = tls_client(&pki)
        .http1_only()
        .build()
        .expect("client builds");
    let response = h1
        .get(format!("https://{addr}/health"))
        .send()
        .await
        .expect("https request");
    assert_eq!(response.version(), reqwest::Version::HTTP_11);
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn an_untrusting_client_is_refused() {
    let server_pki = pki();
    // A second CA that did not sign the server's certificate.
    let other = pki();
    let server = https_server(&server_pki, options()).await;
    let addr = server.local_addr();
    let stranger = tls_client(&other).build().expect("client builds");
    let result = stranger.get(format!("https://{addr}/health")).send().await;
    assert!(result.is_err(), "{result:?}");
}

#[tokio::test]
async fn plain_http_on_the_tls_port_fails_and_the_server_keeps_serving() {
    let pki = pki();
    let errors = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&errors);
    let server = https_server(
        &pki,
        options().on_client_error(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .await;
    let addr = server.local_addr();

    let plain = support::client();
    let result = plain.get(format!("http://{addr}/health")).send().await;
    match result {
        Err(_) => {}
        Ok(response) => panic!("plain HTTP was answered on the TLS port: {response:?}"),
    }
    assert!(
        eventually(Duration::from_secs(2), || errors.load(Ordering::SeqCst)
            >= 1)
        .await,
        "the failed handshake did not reach on_client_error"
    );

    let client = tls_client(&pki).build().expect("client builds");
    let response = client
        .get(format!("https://{addr}/health"))
        .send()
        .await
        .expect("https still works");
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn a_stalled_tls_handshake_is_closed_after_the_header_timeout() {
    let pki = pki();
    let server = https_server(
        &pki,
        options().header_read_timeout(Duration::from_millis(300)),
    )
    .await;
    let mut silent = TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    let started = Instant::now();
    let _ = read_to_close(&mut silent, Duration::from_secs(5)).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "a connection that never started its handshake was open for {waited:?}"
    );
}

#[test]
fn from_pem_rejects_garbage() {
    let err = TlsConfig::from_pem(b"not a certificate", b"not a key").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("certificate"), "{err}");

    let pki = pki();
    let no_key = TlsConfig::from_pem(pki.chain_pem.as_bytes(), b"").unwrap_err();
    assert_eq!(no_key.kind(), std::io::ErrorKind::InvalidInput);
    assert!(no_key.to_string().contains("private key"), "{no_key}");

    // A key in the certificate's place, and a certificate in the key's place.
    let swapped =
        TlsConfig::from_pem(pki.key_pem.as_bytes(), pki.chain_pem.as_bytes()).unwrap_err();
    assert_eq!(swapped.kind(), std::io::ErrorKind::InvalidInput);

    TlsConfig::from_pem(pki.chain_pem.as_bytes(), pki.key_pem.as_bytes())
        .expect("the matching pair loads");
}

#[test]
fn from_pem_rejects_a_key_that_does_not_match_the_certificate() {
    let pki = pki();
    let stranger = KeyPair::generate().expect("key").serialize_pem();
    let err = TlsConfig::from_pem(pki.chain_pem.as_bytes(), stranger.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

// ---------------------------------------------------------------------------------------
// After the handshake, and instead of one: idle connections on both protocols, garbage.
// ---------------------------------------------------------------------------------------

/// A TLS client of the test CA offering one ALPN protocol.
fn tls_connector(pki: &Pki, alpn: &[u8]) -> tokio_rustls::TlsConnector {
    use rustls::pki_types::pem::PemObject;
    support::install_crypto();
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(pki.ca_pem.as_bytes()) {
        roots.add(cert.expect("CA PEM")).expect("CA added");
    }
    let mut config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![alpn.to_vec()];
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

async fn tls_handshake(
    pki: &Pki,
    addr: std::net::SocketAddr,
    alpn: &[u8],
) -> tokio_rustls::client::TlsStream<TcpStream> {
    let tcp = TcpStream::connect(addr).await.expect("connect");
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("name");
    let tls = tls_connector(pki, alpn)
        .connect(name, tcp)
        .await
        .expect("handshake");
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(alpn), "ALPN");
    tls
}

/// The native server and the warp adapter (`pactum_warp::serve`), both over TLS.
async fn https_servers(
    pki: &Pki,
    options: impl Fn() -> ServerOptions,
) -> Vec<pactum::server::Server> {
    use warp::Filter;
    let tls = TlsConfig::from_pem(pki.chain_pem.as_bytes(), pki.key_pem.as_bytes())
        .expect("the PEM certificate and key load");
    let app = pactum_warp::filter(handlers())
        .expect("valid handler list")
        .or(pactum_warp::not_found());
    let warp = pactum_warp::serve(app, options().https(tls))
        .await
        .expect("warp adapter starts");
    vec![https_server(pki, options()).await, warp]
}

/// A handshake completed, then nothing: closed like any idle connection — HTTP/1.1 at the
/// header read timeout; HTTP/2 (ALPN `h2`) with a GOAWAY at the idle timeout, then closed
/// one idle timeout later (this client does not answer the GOAWAY's PING).
#[tokio::test]
#[allow(clippy::print_stderr)] // the figures
async fn an_idle_connection_after_the_handshake_is_closed_on_both_protocols() {
    use crate::h2_frames::{goaway, Raw, NO_ERROR};
    use tokio::io::AsyncReadExt;
    let idle = Duration::from_millis(300);
    let pki = pki();
    for server in https_servers(&pki, || options().header_read_timeout(idle)).await {
        let addr = server.local_addr();
        let mut http1 = tls_handshake(&pki, addr, b"http/1.1").await;
        let started = Instant::now();
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), http1.read_to_end(&mut rest))
            .await
            .expect("closed within 5 s");
        let waited = started.elapsed();
        assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
        assert!(
            waited >= idle * 8 / 10 && waited < idle * 4,
            "an idle HTTPS/1.1 connection closed after {waited:?}"
        );

        let h2 = tls_handshake(&pki, addr, b"h2").await;
        let mut raw = Raw::open(h2, &[]).await;
        let (frames, closed) = raw.until_closed(Duration::from_secs(5)).await;
        let (at, away) = goaway(&frames).expect("a GOAWAY");
        assert_eq!(away.code(), NO_ERROR);
        assert!(at >= idle * 9 / 10 && at < idle * 3, "GOAWAY after {at:?}");
        assert!(
            closed < idle * 5,
            "an idle h2 connection closed after {closed:?}"
        );
        eprintln!(
            "TLS, {addr}: idle HTTP/1.1 closed after {waited:?}; idle h2: GOAWAY at {at:?}, \
             closed at {closed:?}"
        );
    }
}

/// Bytes that are not TLS — garbage, or plain HTTP — are refused at once (long before the
/// 10 s handshake timeout), reported to `on_client_error`, and the server keeps serving.
#[tokio::test]
#[allow(clippy::print_stderr)] // the figures
async fn garbage_and_plain_http_on_the_tls_port_are_closed_at_once() {
    use tokio::io::AsyncWriteExt;
    let pki = pki();
    let errors = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&errors);
    let with_hook = move || {
        let seen = Arc::clone(&seen);
        options().on_client_error(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
        })
    };
    let garbage: Vec<u8> = (0..512u32).map(|i| (i * 7919 % 251) as u8).collect();
    let plain = b"GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n".to_vec();
    for server in https_servers(&pki, &with_hook).await {
        let addr = server.local_addr();
        for bytes in [&garbage, &plain] {
            let before = errors.load(Ordering::SeqCst);
            let mut tcp = TcpStream::connect(addr).await.expect("connect");
            tcp.write_all(bytes).await.expect("write");
            let started = Instant::now();
            let answer = read_to_close(&mut tcp, Duration::from_secs(5)).await;
            let waited = started.elapsed();
            assert!(
                waited < Duration::from_secs(1),
                "not TLS, still open after {waited:?}"
            );
            assert!(!answer.contains("HTTP/1.1"), "{answer:?}");
            assert!(
                eventually(Duration::from_secs(2), || errors.load(Ordering::SeqCst)
                    > before)
                .await,
                "not reported"
            );
            eprintln!(
                "TLS, {addr}: {} bytes of non-TLS closed after {waited:?}",
                bytes.len()
            );
        }
        let client = tls_client(&pki)
            .resolve("localhost", addr)
            .build()
            .expect("client builds");
        let response = client
            .get(format!("https://localhost:{}/health", addr.port()))
            .send()
            .await
            .expect("https still works");
        assert_eq!(response.status(), 200);
    }
}

/// Over TLS too, the answers hyper writes itself carry the JSON error body (the connection's
/// IO is then the TLS stream), on the native server and `pactum_warp::serve`.
#[tokio::test]
async fn hypers_own_answers_over_tls_carry_the_json_body() {
    use crate::hyper_answers::RawAnswer;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let pki = pki();
    for server in https_servers(&pki, options).await {
        let mut tls = tls_handshake(&pki, server.local_addr(), b"http/1.1").await;
        tls.write_all(b"GET / HTTP/1.1\r\nbad header\r\n\r\n")
            .await
            .expect("write");
        let mut raw = Vec::new();
        // Read until the close (its error, if any: no close_notify, is not the point here).
        let _ = tokio::time::timeout(Duration::from_secs(5), tls.read_to_end(&mut raw)).await;
        let (answer, _) = RawAnswer::parse(&raw)
            .unwrap_or_else(|| panic!("no whole answer: {}", String::from_utf8_lossy(&raw)));
        assert_eq!(answer.status, 400, "{answer:?}");
        assert_eq!(answer.header("connection"), Some("close"));
        assert_eq!(answer.json(), Some(json!({"error": "Bad request"})));
    }
}

/// Over TLS a client that leaves a waiting handler is noticed by hyper's own read of the
/// connection (pactum's peek watches plain TCP only): the hook hears of it at once.
#[tokio::test]
async fn a_client_that_leaves_a_waiting_handler_over_tls_is_noticed_at_once() {
    use tokio::io::AsyncWriteExt;
    let pki = pki();
    let errors = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let heard = Arc::clone(&errors);
    let hook = move |error: &(dyn std::error::Error + 'static)| {
        heard.lock().unwrap().push(error.to_string());
    };
    let server = https_server(&pki, options().on_client_error(hook)).await;
    let mut tls = tls_handshake(&pki, server.local_addr(), b"http/1.1").await;
    tls.write_all(b"GET /slow?ms=10000 HTTP/1.1\r\nhost: localhost\r\n\r\n")
        .await
        .expect("write");
    tls.flush().await.expect("flush");
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A TLS close: the closing alert, then the TCP close.
    tls.shutdown().await.expect("close_notify");
    drop(tls);
    assert!(
        eventually(Duration::from_secs(3), || !errors
            .lock()
            .unwrap()
            .is_empty())
        .await,
        "the hook heard nothing"
    );
}
