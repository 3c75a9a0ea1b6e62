//! [`OpenApi`]: the collector of documented contracts, and [`OpenApi::build`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use super::entry::Entry;
use super::paths::openapi_path;
use super::pipeline_errors::standard_responses;
use super::refs::refs_to;
use super::{schema, Document, OpenApiVersion, Operation};
use crate::contract::{Endpoint, Slot};
use crate::error::{ErrorAnswer, ErrorBody};

/// Collects what to document and builds an OpenAPI 3.1 [`Document`] from it (or 3.0.3 or
/// 3.2.0: [`OpenApi::openapi_version`]).
///
/// [`OpenApi::handlers`] documents the handler list an adapter serves (each made with
/// [`Handler::documented`](crate::handler::Handler::documented)), so that one list serves and
/// documents; [`OpenApi::endpoint`] documents a contract that is not served here. Then
/// [`OpenApi::build`].
///
/// Types are read when the contract is added: every slot type needs
/// [`JsonSchema`] (the empty markers [`NoParams`](crate::NoParams),
/// [`NoQuery`](crate::NoQuery), [`NoBody`](crate::NoBody), [`NoContent`](crate::contract::NoContent),
/// [`NoHeaders`](crate::NoHeaders), [`NoCookies`](crate::NoCookies)
/// and [`NoErrors`](crate::error::NoErrors) have it). A contract's declared errors
/// ([`ErrorAnswer`]) are documented under each of their statuses with their own schema, its
/// [`http_error`](crate::contract::EndpointBuilder::http_error)s with [`ErrorBody`].
///
/// Adding the same method and route twice keeps the last.
///
/// ```
/// use pactum::openapi::OpenApi;
/// use pactum::{route, Endpoint};
///
/// let health = Endpoint::get(route!("/health")).build()?;
/// let doc = OpenApi::new("Ops", "1.0.0")
///     .description("Operational endpoints.")
///     .server("http://localhost:3000")
///     .endpoint(&health)
///     .build();
/// let op = &doc.as_value()["paths"]["/health"]["get"];
/// assert_eq!(op["operationId"], "get_health");
/// assert_eq!(op["responses"]["204"]["description"], "No Content");
/// assert_eq!(op["responses"]["500"]["$ref"], "#/components/responses/InternalError");
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "call `.build()` to get the document"]
pub struct OpenApi {
    title: String,
    version: String,
    description: Option<String>,
    servers: Vec<Value>,
    tags: Vec<(String, String)>,
    security_schemes: Map<String, Value>,
    entries: Vec<Entry>,
    openapi_version: OpenApiVersion,
}

impl OpenApi {
    /// An empty document for the API `title` at `version` (the API's version, not OpenAPI's).
    pub fn new(title: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            version: version.into(),
            description: None,
            servers: Vec::new(),
            tags: Vec::new(),
            security_schemes: Map::new(),
            entries: Vec::new(),
            openapi_version: OpenApiVersion::V3_1_0,
        }
    }

    /// Writes the document in another OpenAPI version: 3.1.0 by default, 3.0.3 for
    /// generators that read only 3.0, such as progenitor, or 3.2.0, whose `itemSchema`
    /// describes a stream of server-sent events one event at a time (see [`OpenApiVersion`]
    /// for what changes).
    ///
    /// ```
    /// use pactum::openapi::{OpenApi, OpenApiVersion};
    /// use pactum::{route, Endpoint};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, validator::Validate, schemars::JsonSchema)]
    /// struct Found { note: Option<String> }
    /// # use pactum::schemars;
    ///
    /// let find = Endpoint::get(route!("/found")).response::<Found>().build()?;
    /// let doc = OpenApi::new("Lookup", "1.0.0")
    ///     .openapi_version(OpenApiVersion::V3_0_3)
    ///     .endpoint(&find)
    ///     .build();
    /// assert_eq!(doc.as_value()["openapi"], "3.0.3");
    /// let note = &doc.as_value()["components"]["schemas"]["Found"]["properties"]["note"];
    /// assert_eq!(note, &serde_json::json!({ "type": "string", "nullable": true }));
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn openapi_version(mut self, version: OpenApiVersion) -> Self {
        self.openapi_version = version;
        self
    }

    /// Describes the API (`info.description`, Markdown).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Adds a server URL (`servers`), e.g. `https://api.example.com/v1`. Paths are relative to
    /// it. Without any, the document says `servers: [{"url": "/"}]`: OpenAPI's own default
    /// written out (clients use the document's own origin), which linters such as redocly
    /// want present.
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use serde_json::json;
    ///
    /// let doc = OpenApi::new("Empty", "0.1.0").build();
    /// assert_eq!(doc.as_value()["servers"], json!([{ "url": "/" }]));
    /// let doc = OpenApi::new("Empty", "0.1.0").server("https://api.example.com/v1").build();
    /// assert_eq!(doc.as_value()["servers"], json!([{ "url": "https://api.example.com/v1" }]));
    /// ```
    pub fn server(mut self, url: impl Into<String>) -> Self {
        self.servers.push(json!({ "url": url.into() }));
        self
    }

    /// Adds a server URL with a description (`servers[].description`, e.g. `Production`).
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use serde_json::json;
    ///
    /// let doc = OpenApi::new("Shop", "1.0.0")
    ///     .server_described("https://api.example.com", "Production")
    ///     .server_described("http://localhost:3000", "Local")
    ///     .build();
    /// assert_eq!(doc.as_value()["servers"][1], json!({ "url": "http://localhost:3000", "description": "Local" }));
    /// ```
    pub fn server_described(
        mut self,
        url: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        self.servers
            .push(json!({ "url": url.into(), "description": description.into() }));
        self
    }

    /// Describes a tag used by the operations (top-level `tags`).
    pub fn tag(mut self, name: impl Into<String>, description: impl Into<String>) -> Self {
        self.tags.push((name.into(), description.into()));
        self
    }

    /// Declares a security scheme (`components/securitySchemes`), as an OpenAPI
    /// [Security Scheme Object](https://spec.openapis.org/oas/v3.1.0#security-scheme-object);
    /// operations require it with [`Operation::security`].
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use serde_json::json;
    ///
    /// let api = OpenApi::new("Keys", "1.0.0")
    ///     .security_scheme("apiKey", json!({ "type": "apiKey", "in": "header", "name": "x-api-key" }));
    /// ```
    pub fn security_scheme(mut self, name: impl Into<String>, scheme: Value) -> Self {
        self.security_schemes.insert(name.into(), scheme);
        self
    }

    /// Declares an HTTP bearer token scheme named `name` (`Authorization: Bearer <token>`).
    pub fn bearer_auth(self, name: impl Into<String>) -> Self {
        self.security_scheme(name, json!({ "type": "http", "scheme": "bearer" }))
    }

    /// Documents a contract that is not served here (a client's view of another service);
    /// for the handlers a server serves, use [`OpenApi::handlers`].
    pub fn endpoint<P, Q, B, R, E, H, C>(self, endpoint: &Endpoint<P, Q, B, R, E, H, C>) -> Self
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
        E: ErrorAnswer + JsonSchema,
        H: Slot + JsonSchema,
        C: Slot + JsonSchema,
    {
        self.endpoint_with(endpoint, |op| op)
    }

    /// Documents a contract, with what the contract does not say about it.
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::openapi::OpenApi;
    /// use pactum::{route, Endpoint};
    ///
    /// let me = Endpoint::get(route!("/me"))
    ///     .http_error(StatusCode::UNAUTHORIZED, "No or bad token")
    ///     .build()?;
    /// let doc = OpenApi::new("Auth", "1.0.0")
    ///     .bearer_auth("bearer")
    ///     .endpoint_with(&me, |op| op.security("bearer"))
    ///     .build();
    /// let op = &doc.as_value()["paths"]["/me"]["get"];
    /// assert_eq!(op["security"][0]["bearer"], serde_json::json!([]));
    /// assert_eq!(op["responses"]["401"]["description"], "No or bad token");
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn endpoint_with<P, Q, B, R, E, H, C>(
        mut self,
        endpoint: &Endpoint<P, Q, B, R, E, H, C>,
        describe: impl FnOnce(Operation) -> Operation,
    ) -> Self
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
        E: ErrorAnswer + JsonSchema,
        H: Slot + JsonSchema,
        C: Slot + JsonSchema,
    {
        self.push(endpoint, describe(Operation::new()));
        self
    }

    fn push<P, Q, B, R, E, H, C>(
        &mut self,
        endpoint: &Endpoint<P, Q, B, R, E, H, C>,
        operation: Operation,
    ) where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
        E: ErrorAnswer + JsonSchema,
        H: Slot + JsonSchema,
        C: Slot + JsonSchema,
    {
        self.push_entry(Entry::of::<P, Q, B, R, E, H, C>(
            Arc::clone(endpoint.spec()),
            operation,
        ));
    }

    /// Adds `entry`, in place of one with its method and route.
    pub(super) fn push_entry(&mut self, entry: Entry) {
        self.entries
            .retain(|e| e.spec.method != entry.spec.method || e.spec.route != entry.spec.route);
        self.entries.push(entry);
    }

    /// Builds the document.
    pub fn build(&self) -> Document {
        let mut requests = schema::request_generator();
        let mut responses = schema::response_generator();
        let error_body = Value::from(responses.subschema_for::<ErrorBody>());

        // Where some operation needs credentials, the others say they need none
        // (`security: []`), rather than leave a reader (and redocly's `security-defined`) to
        // guess.
        let secured = !self.security_schemes.is_empty()
            || self
                .entries
                .iter()
                .any(|entry| !entry.spec.settings.security.is_empty());
        let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        let mut operation_ids = BTreeSet::new();
        for entry in &self.entries {
            let mut operation = entry.operation_object(
                &mut requests,
                &mut responses,
                &error_body,
                &mut operation_ids,
            );
            if secured {
                operation
                    .entry("security")
                    .or_insert_with(|| Value::Array(Vec::new()));
            }
            paths
                .entry(openapi_path(&entry.spec.route))
                .or_default()
                .insert(
                    entry.spec.method.as_str().to_ascii_lowercase(),
                    Value::Object(operation),
                );
        }

        let (mut schemas, refs) = schema::merge_definitions(
            requests.take_definitions(true),
            responses.take_definitions(true),
        );
        let mut paths = Value::from(
            paths
                .into_iter()
                .map(|(path, item)| (path, Value::Object(item)))
                .collect::<Map<_, _>>(),
        );
        schema::rewrite_refs(&mut paths, &refs);
        schemas.values_mut().for_each(schema::tighten);
        schema::tighten(&mut paths);
        schemas
            .values_mut()
            .for_each(schema::describe_optional_defaults);
        schema::describe_optional_defaults(&mut paths);

        let mut error_body = error_body;
        schema::rewrite_refs(&mut error_body, &refs);
        let mut components = Map::new();
        components.insert("schemas".to_owned(), Value::Object(schemas));
        // The pipeline's answers that some operation references: no unused component.
        let mut responses = standard_responses(&error_body);
        if let Value::Object(standard) = &mut responses {
            let mut used = BTreeSet::new();
            refs_to(&paths, "#/components/responses/", &mut used);
            standard.retain(|name, _| used.contains(name));
        }
        components.insert("responses".to_owned(), responses);
        // The schemes the contracts declare, then the ones declared by hand (which win).
        let mut security_schemes = Map::new();
        for entry in &self.entries {
            for security in &entry.spec.settings.security {
                security_schemes
                    .entry(security.name())
                    .or_insert_with(|| super::entry::security_scheme(security));
            }
        }
        security_schemes.extend(self.security_schemes.clone());
        if !security_schemes.is_empty() {
            components.insert(
                "securitySchemes".to_owned(),
                Value::Object(security_schemes),
            );
        }

        let mut info = Map::new();
        info.insert("title".to_owned(), self.title.clone().into());
        info.insert("version".to_owned(), self.version.clone().into());
        if let Some(description) = &self.description {
            info.insert("description".to_owned(), description.clone().into());
        }
        let mut doc = Map::new();
        doc.insert("openapi".to_owned(), OpenApiVersion::V3_1_0.as_str().into());
        doc.insert("info".to_owned(), Value::Object(info));
        // Without a server, OpenAPI's own default written out (`/`: the document's origin),
        // for the linters that want `servers` (redocly's `no-empty-servers`, spectral's
        // `oas3-api-servers`); it means what no `servers` means.
        let servers = if self.servers.is_empty() {
            vec![json!({ "url": "/" })]
        } else {
            self.servers.clone()
        };
        doc.insert("servers".to_owned(), Value::Array(servers));
        if !self.tags.is_empty() {
            let tags = self
                .tags
                .iter()
                .map(|(name, description)| json!({ "name": name, "description": description }))
                .collect();
            doc.insert("tags".to_owned(), Value::Array(tags));
        }
        doc.insert("paths".to_owned(), paths);
        doc.insert("components".to_owned(), Value::Object(components));
        match self.openapi_version {
            OpenApiVersion::V3_2_0 => {
                doc.insert("openapi".to_owned(), OpenApiVersion::V3_2_0.as_str().into());
            }
            OpenApiVersion::V3_1_0 => super::version::item_schemas_as_extensions(&mut doc),
            OpenApiVersion::V3_0_3 => {
                super::version::item_schemas_as_extensions(&mut doc);
                super::version::to_3_0_3(&mut doc);
            }
        }
        Document::new(Value::Object(doc))
    }
}
