//! [`Credentials`]: the bearer token and API key a client (or one call) holds, and how they
//! are attached to the calls of contracts that declare a [`Security`] scheme.

use std::fmt;

use http::header::HeaderValue;
use http::HeaderMap;
use pactum::{contract::SecurityScheme, Security};

use crate::error::Error;

/// A bearer token and an API key, each a header value marked sensitive (hidden from `Debug`).
#[derive(Clone, Default)]
pub(crate) struct Credentials {
    /// `Bearer <token>`.
    bearer: Option<HeaderValue>,
    api_key: Option<HeaderValue>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("bearer_token", &self.bearer.is_some())
            .field("api_key", &self.api_key.is_some())
            .finish()
    }
}

fn sensitive(value: String) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::try_from(value).map_err(Error::builder)?;
    value.set_sensitive(true);
    Ok(value)
}

impl Credentials {
    pub(crate) fn set_bearer(&mut self, token: impl fmt::Display) -> Result<(), Error> {
        self.bearer = Some(sensitive(format!("Bearer {token}"))?);
        Ok(())
    }

    pub(crate) fn set_api_key(&mut self, key: impl fmt::Display) -> Result<(), Error> {
        self.api_key = Some(sensitive(key.to_string())?);
        Ok(())
    }

    fn for_scheme(&self, security: &Security) -> Option<&HeaderValue> {
        match security.scheme() {
            SecurityScheme::Bearer => self.bearer.as_ref(),
            SecurityScheme::ApiKeyHeader(_) => self.api_key.as_ref(),
            // A kind this client does not know how to send yet.
            _ => None,
        }
    }
}

/// Attaches to `headers` (the call's own) the credential of each scheme `security` lists:
/// the call's, else the client's. A header the call sets by hand is kept; a client default
/// header of that name is replaced, or counts as the credential when neither holds one.
///
/// # Errors
///
/// [`Error::is_missing_credential`] when the contract requires credentials and none of its
/// schemes is satisfied.
pub(crate) fn attach(
    security: &[Security],
    call: &Credentials,
    client: &Credentials,
    defaults: &HeaderMap,
    headers: &mut HeaderMap,
) -> Result<(), Error> {
    let mut satisfied = security.is_empty();
    for scheme in security {
        let name = scheme.header();
        if headers.contains_key(name) {
            satisfied = true;
        } else if let Some(value) = call.for_scheme(scheme).or(client.for_scheme(scheme)) {
            headers.insert(name.clone(), value.clone());
            satisfied = true;
        } else if defaults.contains_key(name) {
            satisfied = true;
        }
    }
    if satisfied {
        Ok(())
    } else {
        let names: Vec<&str> = security.iter().map(Security::name).collect();
        Err(Error::missing_credential(&names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::header::AUTHORIZATION;

    fn key() -> Security {
        Security::api_key_header("x-api-key")
    }

    #[test]
    fn the_call_credential_wins_then_the_client_one() {
        let mut client = Credentials::default();
        client.set_bearer("client").unwrap();
        client.set_api_key("k1").unwrap();
        let mut call = Credentials::default();
        call.set_bearer("call").unwrap();
        let mut headers = HeaderMap::new();
        attach(
            &[Security::bearer(), key()],
            &call,
            &client,
            &HeaderMap::new(),
            &mut headers,
        )
        .unwrap();
        assert_eq!(headers[AUTHORIZATION], "Bearer call");
        assert!(headers[AUTHORIZATION].is_sensitive());
        assert_eq!(headers["x-api-key"], "k1");
        assert!(!format!("{client:?}").contains("k1"));
    }

    #[test]
    fn nothing_is_attached_without_a_declared_scheme() {
        let mut client = Credentials::default();
        client.set_bearer("t").unwrap();
        let mut headers = HeaderMap::new();
        attach(
            &[],
            &Credentials::default(),
            &client,
            &HeaderMap::new(),
            &mut headers,
        )
        .unwrap();
        assert!(headers.is_empty());
    }

    #[test]
    fn a_hand_set_header_counts_and_is_kept() {
        let mut client = Credentials::default();
        client.set_bearer("client").unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, HeaderValue::from_static("Bearer by-hand"));
        let none = Credentials::default();
        attach(
            &[Security::bearer()],
            &none,
            &client,
            &HeaderMap::new(),
            &mut headers,
        )
        .unwrap();
        assert_eq!(headers[AUTHORIZATION], "Bearer by-hand");
        // A default header is the credential when nothing else is.
        let mut defaults = HeaderMap::new();
        defaults.insert("x-api-key", HeaderValue::from_static("default"));
        let mut headers = HeaderMap::new();
        attach(&[key()], &none, &none, &defaults, &mut headers).unwrap();
        assert!(headers.is_empty());
    }

    #[test]
    fn a_missing_credential_names_the_schemes() {
        let none = Credentials::default();
        let mut client = Credentials::default();
        client.set_api_key("k").unwrap();
        let err = attach(
            &[Security::bearer()],
            &none,
            &client,
            &HeaderMap::new(),
            &mut HeaderMap::new(),
        )
        .unwrap_err();
        assert!(err.is_missing_credential());
        assert!(err.to_string().contains("(bearer)"), "{err}");
        assert!(!err.is_builder() && !err.is_transport());
    }
}
