//! TLS for the reqwest client this crate builds: rustls with the ring provider, the system's
//! root certificates plus the ones the caller added.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};

use crate::error::Error;

/// Installs rustls's *ring* provider as the process's default crypto provider, unless one is
/// installed already. Returns `true` when this call installed it; either way a provider is
/// installed when it returns, so calling it more than once is harmless.
///
/// Call it once, before the first `reqwest::Client` your own code builds
/// (`reqwest::Client::new()`, `reqwest::Client::builder().build()`, `reqwest::get`), e.g. for
/// [`ClientBuilder::reqwest_client`](crate::ClientBuilder::reqwest_client). This crate's
/// `rustls` feature builds reqwest with `rustls-no-provider`, and in that build reqwest
/// panics when it makes a client and no provider is installed ("No rustls crypto provider is
/// configured") — unless your own reqwest dependency enables its `rustls` feature (its
/// default), which brings the aws-lc-rs provider. This crate's own [`Client`](crate::Client)
/// needs neither: it gives reqwest its TLS configuration itself.
///
/// ```
/// pactum_client::install_crypto_provider();
/// // reqwest, a dependency of your own (`reqwest = "0.13"`), now builds clients:
/// let http = reqwest::Client::builder()
///     .redirect(reqwest::redirect::Policy::none())
///     .build()?;
/// let client = pactum_client::Client::builder()
///     .base_url("https://api.example.com")
///     .reqwest_client(http)
///     .build()?;
/// # let _ = client;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn install_crypto_provider() -> bool {
    rustls::crypto::ring::default_provider()
        .install_default()
        .is_ok()
}

/// Parses every certificate of a PEM bundle.
pub(crate) fn parse_pem(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, Error> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::builder(format!("invalid PEM root certificate: {e}")))?;
    if certs.is_empty() {
        return Err(Error::builder(
            "invalid PEM root certificate: no `CERTIFICATE` block found",
        ));
    }
    Ok(certs)
}

/// The rustls configuration: ring, TLS 1.2 and 1.3, ALPN `h2` then `http/1.1`, and a verifier
/// trusting the platform's roots plus `extra_roots`.
pub(crate) fn client_config(
    extra_roots: Vec<CertificateDer<'static>>,
) -> Result<ClientConfig, Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let has_extra = !extra_roots.is_empty();
    let verifier: Arc<dyn ServerCertVerifier> =
        match rustls_platform_verifier::Verifier::new_with_extra_roots(
            extra_roots,
            Arc::clone(&provider),
        ) {
            Ok(verifier) => Arc::new(verifier),
            Err(e) if has_extra => {
                return Err(Error::builder(format!("invalid root certificate: {e}")));
            }
            // No system roots and none added: plain HTTP still works, HTTPS says why it can't.
            Err(_) => Arc::new(NoRoots(Arc::clone(&provider))),
        };
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::builder(format!("TLS setup failed: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// The verifier used when the system has no root certificates and the caller added none:
/// every certificate is refused, with a message that says how to fix it.
#[derive(Debug)]
struct NoRoots(Arc<CryptoProvider>);

const NO_ROOTS: &str = "no root certificates: the system has none and none were added with \
                        `ClientBuilder::add_root_certificate`";

impl ServerCertVerifier for NoRoots {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Err(rustls::Error::General(NO_ROOTS.to_owned()))
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General(NO_ROOTS.to_owned()))
    }

    fn verify_tls13_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General(NO_ROOTS.to_owned()))
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_errors_are_builder_errors() {
        assert!(parse_pem(b"").unwrap_err().is_builder());
        assert!(
            parse_pem(b"-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n")
                .unwrap_err()
                .is_builder()
        );
    }

    #[test]
    fn config_builds_without_extra_roots() {
        let config = client_config(Vec::new()).unwrap();
        assert_eq!(config.alpn_protocols[0], b"h2");
    }

    #[test]
    fn no_roots_refuses_with_a_reason() {
        let v = NoRoots(Arc::new(rustls::crypto::ring::default_provider()));
        let err = v
            .verify_server_cert(
                &CertificateDer::from(vec![0u8]),
                &[],
                &ServerName::try_from("localhost").unwrap(),
                &[],
                UnixTime::now(),
            )
            .unwrap_err();
        assert!(err.to_string().contains("add_root_certificate"));
        assert!(!v.supported_verify_schemes().is_empty());
    }
}
