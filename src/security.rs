//! [`Security`]: what credential a contract requires, as data shared by the server (which
//! refuses a request without it), the typed client (which attaches it) and the OpenAPI
//! document (which lists it).

use std::borrow::Cow;

use http::header::{HeaderName, AUTHORIZATION};
use http::{HeaderMap, HeaderValue};

/// A credential a contract requires: an HTTP bearer token, or an API key in a named header.
///
/// Declared on the contract with [`EndpointBuilder::security`](crate::contract::EndpointBuilder::security),
/// it is data, not code: a contract crate shared with clients carries no server code for it.
///
/// - **The server** (the pipeline, on every adapter) answers a request that does not carry the
///   credential with the built-in 401 `{"error":"Unauthorized"}`
///   ([`Rejection::Unauthorized`](crate::error::Rejection::Unauthorized)) — with
///   `WWW-Authenticate: Bearer` for a bearer token — before any contract middleware runs and
///   before the query and body are read. *Checking* the credential (is this token valid, whose
///   is it) stays with the server's own code: a middleware or provider marked as verifying the
///   scheme ([`Middleware::verifies`](crate::middleware::Middleware::verifies),
///   [`Provider::verifies`](crate::middleware::Provider::verifies)). A pipeline where nothing
///   verifies a declared scheme does not start
///   ([`ConfigError::UnverifiedSecurity`](crate::error::ConfigError::UnverifiedSecurity)).
///   [`credential`](Security::credential) reads the credential as the 401 check does.
/// - **The typed client** (`pactum-client`) attaches the credential it holds to the calls of
///   contracts that declare it, and only to those.
/// - **The OpenAPI document** lists the scheme under `components.securitySchemes` (keyed by
///   [`name`](Security::name)) and the operation's `security` requirement.
///
/// ```
/// use pactum::{route, Endpoint, Security};
///
/// let me = Endpoint::get(route!("/me")).security(Security::bearer()).build()?;
/// assert_eq!(me.security()[0].name(), "bearer");
///
/// let keyed = Endpoint::get(route!("/reports"))
///     .security(Security::api_key_header("x-api-key").named("reportsKey"))
///     .build()?;
/// assert_eq!(keyed.security()[0].header(), "x-api-key");
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Security {
    name: Cow<'static, str>,
    scheme: SecurityScheme,
    description: Option<Cow<'static, str>>,
    bearer_format: Option<Cow<'static, str>>,
}

/// How a [`Security`] credential travels. More kinds (HTTP basic, a cookie) can come later,
/// so match it with a wildcard arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecurityScheme {
    /// `Authorization: Bearer <token>` (OpenAPI `{"type": "http", "scheme": "bearer"}`).
    Bearer,
    /// The key as the whole value of this header (OpenAPI
    /// `{"type": "apiKey", "in": "header", "name": ..}`).
    ApiKeyHeader(HeaderName),
}

impl Security {
    /// An HTTP bearer token: `Authorization: Bearer <token>`. Named `bearer` in the OpenAPI
    /// document unless [renamed](Security::named).
    pub fn bearer() -> Self {
        Self {
            name: Cow::Borrowed("bearer"),
            scheme: SecurityScheme::Bearer,
            description: None,
            bearer_format: None,
        }
    }

    /// An API key sent as the value of the header `header` (e.g. `x-api-key`). Named after
    /// the header (lowercase) in the OpenAPI document unless [renamed](Security::named).
    ///
    /// # Panics
    ///
    /// When `header` is not a valid header name (a programming error, like a malformed
    /// [`route!`](crate::route!) literal).
    ///
    /// ```should_panic
    /// let bad = pactum::Security::api_key_header("x api key");
    /// ```
    pub fn api_key_header(header: &str) -> Self {
        let header = HeaderName::from_bytes(header.as_bytes())
            .unwrap_or_else(|_| panic!("`{header}` is not a valid header name"));
        Self {
            name: Cow::Owned(header.as_str().to_owned()),
            scheme: SecurityScheme::ApiKeyHeader(header),
            description: None,
            bearer_format: None,
        }
    }

    /// Sets the name of the scheme: its key under `components.securitySchemes` and in the
    /// operation's `security` requirement. Give two different schemes in one document two
    /// different names.
    #[must_use]
    pub fn named(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.name = name.into();
        self
    }

    /// Describes the scheme (OpenAPI `description`, Markdown): where to get a token, say.
    #[must_use]
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// A hint of the bearer token's format, e.g. `JWT` (OpenAPI `bearerFormat`); ignored for
    /// other schemes.
    #[must_use]
    pub fn bearer_format(mut self, format: impl Into<Cow<'static, str>>) -> Self {
        self.bearer_format = Some(format.into());
        self
    }

    /// The scheme's name (see [`named`](Security::named)).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How the credential travels.
    pub fn scheme(&self) -> &SecurityScheme {
        &self.scheme
    }

    /// The header the credential travels in: `authorization` for a bearer token.
    pub fn header(&self) -> &HeaderName {
        match &self.scheme {
            SecurityScheme::Bearer => &AUTHORIZATION,
            SecurityScheme::ApiKeyHeader(header) => header,
        }
    }

    /// The scheme's description, if set.
    pub fn get_description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The bearer token's format hint, if set.
    pub fn get_bearer_format(&self) -> Option<&str> {
        self.bearer_format.as_deref()
    }

    /// The credential of this scheme that `headers` carry, or `None`: for a bearer token the
    /// token of an `Authorization` header whose scheme is `Bearer` (any case, as RFC 9110
    /// says) followed by one or more spaces; for an API key the value of its header. An
    /// empty credential, or one that is not visible ASCII, is none.
    ///
    /// This is the pipeline's own reading — the 401 check of a contract's security uses it —
    /// and the one behind [`Request::bearer_token`](crate::middleware::Request::bearer_token),
    /// [`Request::api_key`](crate::middleware::Request::api_key) and their `Ctx` twins: a
    /// credential that passes the 401 check is the one they give. It reads the credential,
    /// never checks it: whether a token is valid is the server's own code's question.
    ///
    /// ```
    /// use pactum::http::HeaderMap;
    /// use pactum::Security;
    ///
    /// let mut headers = HeaderMap::new();
    /// assert_eq!(Security::bearer().credential(&headers), None);
    /// headers.insert("authorization", "Basic YWxpY2U6".parse()?);
    /// assert_eq!(Security::bearer().credential(&headers), None);
    /// headers.insert("authorization", "bearer t0ken".parse()?);
    /// assert_eq!(Security::bearer().credential(&headers), Some("t0ken"));
    /// headers.insert("x-api-key", "k3y".parse()?);
    /// assert_eq!(Security::api_key_header("x-api-key").credential(&headers), Some("k3y"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn credential<'h>(&self, headers: &'h HeaderMap) -> Option<&'h str> {
        let value = headers.get(self.header())?;
        match &self.scheme {
            SecurityScheme::Bearer => bearer_token(value),
            SecurityScheme::ApiKeyHeader(_) => api_key(value),
        }
    }

    /// Whether `headers` carry this credential: whether [`credential`](Security::credential)
    /// finds one. Only the presence is checked, never the credential itself: a wrong token is
    /// for the server's own code to refuse.
    ///
    /// ```
    /// use pactum::http::HeaderMap;
    /// use pactum::Security;
    ///
    /// let mut headers = HeaderMap::new();
    /// assert!(!Security::bearer().is_present(&headers));
    /// headers.insert("authorization", "BEARER t0ken".parse()?);
    /// assert!(Security::bearer().is_present(&headers));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_present(&self, headers: &HeaderMap) -> bool {
        self.credential(headers).is_some()
    }
}

/// The token of an `Authorization` value `Bearer <token>`: the scheme in any case, one or
/// more spaces, then a non-empty token of visible ASCII. The one parser of bearer tokens:
/// the 401 check and the accessors use it.
pub(crate) fn bearer_token(value: &HeaderValue) -> Option<&str> {
    let bytes = value.as_bytes();
    if bytes.len() < 7 || !bytes[..6].eq_ignore_ascii_case(b"bearer") || bytes[6] != b' ' {
        return None;
    }
    let token = value.to_str().ok()?[7..].trim_start_matches(' ');
    (!token.is_empty()).then_some(token)
}

/// The value of an API key header: non-empty visible ASCII.
pub(crate) fn api_key(value: &HeaderValue) -> Option<&str> {
    value.to_str().ok().filter(|key| !key.is_empty())
}

/// The bearer token `headers` carry ([`bearer_token`]).
#[cfg(feature = "pipeline")]
pub(crate) fn bearer_token_in(headers: &HeaderMap) -> Option<&str> {
    bearer_token(headers.get(AUTHORIZATION)?)
}

/// The API key `headers` carry in `header` ([`api_key`]).
#[cfg(feature = "pipeline")]
pub(crate) fn api_key_in(
    headers: &HeaderMap,
    header: impl http::header::AsHeaderName,
) -> Option<&str> {
    api_key(headers.get(header)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_follows_the_scheme() {
        let key = Security::api_key_header("X-Api-Key");
        assert_eq!(key.name(), "x-api-key");
        assert_eq!(key.header(), "x-api-key");
        let mut headers = HeaderMap::new();
        assert!(!key.is_present(&headers));
        headers.insert("x-api-key", "".parse().unwrap());
        assert!(!key.is_present(&headers));
        headers.insert("x-api-key", "k".parse().unwrap());
        assert!(key.is_present(&headers));
        assert!(!Security::bearer().is_present(&headers));
        for (value, present) in [
            ("Bearer t", true),
            ("BEARER t", true),
            ("Bearer ", false),
            ("Bearer", false),
            ("Bearert", false),
            ("Basic t", false),
        ] {
            headers.insert(AUTHORIZATION, value.parse().unwrap());
            assert_eq!(Security::bearer().is_present(&headers), present, "{value}");
        }
    }

    #[test]
    fn security_bearer_parser_reads_the_token_as_the_401_check_does() {
        for (value, token) in [
            ("Bearer s3cret", Some("s3cret")),
            ("bearer s3cret", Some("s3cret")),
            ("BeArEr s3cret", Some("s3cret")),
            ("Bearer   s3cret", Some("s3cret")),
            ("Bearer a b", Some("a b")),
            ("Bearer ", None),
            ("Bearer    ", None),
            ("Bearer", None),
            ("Bearers3cret", None),
            ("Bearer\ts3cret", None),
            ("Basic s3cret", None),
            ("s3cret", None),
            ("", None),
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(AUTHORIZATION, HeaderValue::from_str(value).unwrap());
            assert_eq!(
                headers.get(AUTHORIZATION).and_then(bearer_token),
                token,
                "{value:?}"
            );
            assert_eq!(Security::bearer().credential(&headers), token, "{value:?}");
            // The 401 check and the accessor never disagree.
            assert_eq!(
                Security::bearer().is_present(&headers),
                token.is_some(),
                "{value:?}"
            );
        }
        let mut headers = HeaderMap::new();
        assert_eq!(headers.get(AUTHORIZATION).and_then(bearer_token), None);
        // Not visible ASCII: no token, so the 401 check refuses it too.
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_bytes(b"Bearer \xff").unwrap(),
        );
        assert_eq!(headers.get(AUTHORIZATION).and_then(bearer_token), None);
        assert!(!Security::bearer().is_present(&headers));
    }

    #[test]
    fn security_api_key_parser_reads_the_header_of_the_scheme() {
        let key = Security::api_key_header("x-api-key");
        let mut headers = HeaderMap::new();
        assert_eq!(headers.get("x-api-key").and_then(api_key), None);
        headers.insert(AUTHORIZATION, "Bearer t".parse().unwrap());
        assert_eq!(key.credential(&headers), None);
        headers.insert("x-api-key", "k3y".parse().unwrap());
        assert_eq!(headers.get("X-Api-Key").and_then(api_key), Some("k3y"));
        assert_eq!(key.credential(&headers), Some("k3y"));
        headers.insert("x-api-key", HeaderValue::from_bytes(b"k\xff").unwrap());
        assert_eq!(key.credential(&headers), None);
        assert!(!key.is_present(&headers));
    }
}
