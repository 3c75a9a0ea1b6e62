//! [`TlsConfig`]: the certificate and key of an HTTPS server (rustls, ring provider).

use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;

/// The certificate chain and private key an HTTPS server presents. ALPN offers `h2` (with
/// the `http2` feature, on by default) and `http/1.1`.
#[derive(Clone)]
pub struct TlsConfig {
    config: Arc<ServerConfig>,
}

impl fmt::Debug for TlsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsConfig")
            .field("alpn", &self.config.alpn_protocols)
            .finish_non_exhaustive()
    }
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.into())
}

impl TlsConfig {
    /// From a PEM certificate chain (leaf first) and a PEM private key (PKCS#8, PKCS#1 or
    /// SEC1).
    ///
    /// # Errors
    ///
    /// An `InvalidInput` I/O error when the PEM holds no certificate or key, or rustls
    /// rejects them (e.g. the key does not match the certificate).
    pub fn from_pem(cert_chain: &[u8], private_key: &[u8]) -> io::Result<Self> {
        let certs = CertificateDer::pem_slice_iter(cert_chain)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| invalid(format!("certificate chain: {e}")))?;
        if certs.is_empty() {
            return Err(invalid("certificate chain: no certificate in the PEM"));
        }
        let key = PrivateKeyDer::from_pem_slice(private_key)
            .map_err(|e| invalid(format!("private key: {e}")))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| invalid(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|e| invalid(e.to_string()))?;
        config.alpn_protocols = if cfg!(feature = "http2") {
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        } else {
            vec![b"http/1.1".to_vec()]
        };
        Ok(Self {
            config: Arc::new(config),
        })
    }

    /// From PEM files.
    ///
    /// # Errors
    ///
    /// The read error, or as [`TlsConfig::from_pem`].
    pub fn from_pem_files(
        cert_chain: impl AsRef<Path>,
        private_key: impl AsRef<Path>,
    ) -> io::Result<Self> {
        Self::from_pem(&std::fs::read(cert_chain)?, &std::fs::read(private_key)?)
    }

    /// From a rustls configuration you built yourself (set its ALPN protocols for HTTP/2).
    pub fn from_rustls(config: Arc<ServerConfig>) -> Self {
        Self { config }
    }

    pub(crate) fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(Arc::clone(&self.config))
    }
}
