//! HTTPS against the native server with a certificate from a private CA (rcgen).

use pactum_client::Client;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};

use crate::scenarios;
use crate::support::contracts::*;
use crate::support::*;

/// A fresh CA, and a certificate for `localhost` and `127.0.0.1` signed by it:
/// `(ca_pem, leaf_pem, leaf_key_pem)`.
pub(crate) fn ca() -> (String, String, String) {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "pactum-client test CA");
    ca_params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&leaf_key, &ca)
        .unwrap();
    (ca.pem(), leaf.pem(), leaf_key.serialize_pem())
}

async fn https_server(leaf: &str, key: &str) -> pactum::server::Server {
    let tls = pactum::server::TlsConfig::from_pem(leaf.as_bytes(), key.as_bytes()).unwrap();
    pactum::serve(handlers(), pactum_test_kit::options().https(tls))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_with_a_private_ca() {
    let (ca, leaf, key) = ca();
    let server = https_server(&leaf, &key).await;
    let port = server.local_addr().port();
    for host in ["localhost", "127.0.0.1"] {
        let client = Client::builder()
            .base_url(format!("https://{host}:{port}/"))
            .add_root_certificate(&ca)
            .build()
            .unwrap();
        let user = client
            .call(&get_user())
            .params(UserPath { id: 3 })
            .send()
            .await
            .unwrap();
        assert_eq!(user.id, 3);
    }
    let client = Client::builder()
        .base_url(format!("https://localhost:{port}"))
        .add_root_certificate(&ca)
        .build()
        .unwrap();
    scenarios::all(&client).await;
    // HTTP/2, negotiated with ALPN: no `Host` header, the authority is a pseudo-header.
    let seen = client.call(&seen()).send().await.unwrap();
    assert_eq!(seen.path, "/seen");
    assert!(!seen.headers.contains_key("host"), "{seen:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn an_unknown_ca_is_refused() {
    let (_, leaf, key) = ca();
    let (other_ca, _, _) = ca();
    let server = https_server(&leaf, &key).await;
    let port = server.local_addr().port();
    // Trusting the system roots only.
    let client = Client::new(format!("https://localhost:{port}")).unwrap();
    let err = client.call(&health()).send().await.unwrap_err();
    assert!(err.is_transport() && !err.is_timeout(), "{err:?}");
    // Trusting another CA.
    let client = Client::builder()
        .base_url(format!("https://localhost:{port}"))
        .add_root_certificate(other_ca)
        .build()
        .unwrap();
    let err = client.call(&health()).send().await.unwrap_err();
    assert!(err.is_transport(), "{err:?}");
    server.shutdown().await;
}
