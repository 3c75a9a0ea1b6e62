//! OpenAPI 3.1 documents generated from contracts (feature `openapi`).
//!
//! A contract already says everything an API description needs: method, route, the types of
//! params, query, body and response, the success status, and the errors the pipeline itself
//! answers with. [`OpenApi`] collects contracts (or typed handlers) and [`OpenApi::build`]s a
//! [`Document`], which [`Document::handler`] serves on any adapter.
//!
//! Schemas come from [schemars](https://docs.rs/schemars) 1.x: derive [`JsonSchema`] beside
//! `Serialize, Deserialize, Validate` on the types a documented contract uses (with
//! `use pactum::schemars;` in scope, or schemars as a dependency). schemars reads serde's
//! attributes (renames, defaults, flatten, `skip_serializing_if`) and `validator`'s rules:
//! `length` (`minLength`/`maxLength`, or `minItems`/`maxItems` on lists), `range`
//! (`minimum`/`maximum`; not `exclusive_min`/`exclusive_max`), `email` (a `pattern`, see
//! below), `url` (`format: uri`), `regex` (`pattern`), `contains`. A rule it cannot read
//! (`custom`) can be written with schemars' own attribute, e.g.
//! `#[schemars(inner(length(min = 1)))]` for the items of a list. Only documented contracts
//! need `JsonSchema`: the feature changes nothing for the rest.
//!
//! # What a document holds
//!
//! For each contract, one operation on its path (`:name` and `*name` become `{name}`):
//!
//! - `operationId` from the contract's [`name`](crate::EndpointBuilder::name) (else made from
//!   the method and path, e.g. `get_users_id`), `summary`, `description` and `tags` from the
//!   contract;
//! - one `in: path` parameter per route param, with its field's schema (a catch-all's value may
//!   hold `/`); one `in: query` parameter per field of the query type (lists exploded,
//!   `?tag=a&tag=b`; nested objects as `deepObject`); the body as a required
//!   `application/json` `requestBody`;
//! - the success answer: the contract's status (201 for POST, 204 without a response type,
//!   else 200, or the declared one) with the response type's schema;
//! - the errors the pipeline answers by itself, with the [`ErrorBody`] schema,
//!   where they can happen: `400` (params, query or body fail their type or rules, or the body
//!   is not JSON; `details` says where) for a contract with params, a query or a body; `404`
//!   for a route with params (an empty param does not route); `413` and `415` for a contract
//!   with a body; `500` for all (the handler failed, panicked, or its value broke its rules).
//!   They are shared in `components/responses`, with `405` (a path with another method, with
//!   `Allow`), which no operation lists since it answers the methods a path does not have.
//!
//! Request schemas describe what serde reads, response schemas what serde writes: a type
//! whose two views differ (a `#[serde(default)]` field is optional in a request, always
//! present in a response) gets two schemas, `Name` and `NameResponse`. Sized integers get
//! their type's bounds (`u32` ≤ 4294967295), and an `email` rule becomes the `pattern` of the
//! HTML5 definition `validator` checks (ASCII domains) in place of schemars' `format: email`
//! (RFC 5321, another set), so that a client generating data from the document stays within
//! what the server accepts. (`url` stays `format: uri`: `validator` parses URLs the WHATWG way,
//! close to RFC 3986 but not equal.)
//!
//! What the pipeline cannot know is declared per operation with an [`Operation`]: the errors
//! handlers and middleware return (`404 User not found`, `401`, `409`), other answers, security
//! requirements. Not in the document: request and response headers (contracts do not declare
//! them), HEAD and OPTIONS (answered for every path by the pipeline), and the connection-level
//! answers of the native server (431 for an oversized request head, 503 on a request timeout
//! when one is set).
//!
//! # Example
//!
//! ```
//! use pactum::openapi::OpenApi;
//! use pactum::schemars::JsonSchema;
//! use pactum::{handler, route, AnyHandler, Ctx, Endpoint, HttpError};
//! use serde::{Deserialize, Serialize};
//! use validator::Validate;
//! # use pactum::schemars;
//!
//! #[derive(Serialize, Deserialize, Validate, JsonSchema)]
//! struct UserPath { id: u64 }
//!
//! #[derive(Serialize, Deserialize, Validate, JsonSchema)]
//! struct User {
//!     id: u64,
//!     #[validate(length(min = 1, max = 50))]
//!     name: String,
//! }
//!
//! let get_user = Endpoint::get(route::pattern("/users/:id"))
//!     .params::<UserPath>()
//!     .response::<User>()
//!     .name("getUser")
//!     .tag("users")
//!     .build()?;
//!
//! // Register typed handlers while building the list: the document sees their types.
//! let mut api = OpenApi::new("Users", "1.0.0");
//! let mut handlers: Vec<AnyHandler> = vec![api.register_with(
//!     handler(get_user, |ctx: Ctx<UserPath>| async move {
//!         Err::<User, _>(HttpError::not_found("User not found").into())
//!     }),
//!     |op| op.error(http::StatusCode::NOT_FOUND, "User not found"),
//! )];
//! let doc = api.build();
//! handlers.push(doc.handler("/openapi.json")?); // GET /openapi.json on any adapter
//!
//! let op = &doc.as_value()["paths"]["/users/{id}"]["get"];
//! assert_eq!(op["operationId"], "getUser");
//! assert_eq!(op["parameters"][0]["in"], "path");
//! assert_eq!(op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
//!            "#/components/schemas/User");
//! let user = &doc.as_value()["components"]["schemas"]["User"];
//! assert_eq!(user["properties"]["name"]["maxLength"], 50);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod document;
mod schema;

use std::collections::{BTreeMap, BTreeSet};

use http::{Method, StatusCode};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

pub use document::Document;

use crate::contract::{Endpoint, Presence, Slot};
use crate::error::ErrorBody;
use crate::handler::{AnyHandler, Handler};
use crate::route::{RouteTemplate, Segment};

/// Makes a schema with a generator: `subschema_for::<T>` or `T::json_schema`, kept as a plain
/// function so that [`OpenApi`] holds no generics.
type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

fn reference<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

fn inline<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    T::json_schema(generator)
}

fn declared<T: Slot>() -> bool {
    <T::Presence as Presence>::DECLARED
}

/// Collects contracts and builds an OpenAPI 3.1 [`Document`] from them.
///
/// Add contracts with [`OpenApi::endpoint`] (or typed handlers with [`OpenApi::register`],
/// which hands back the [`AnyHandler`] for the adapter's list), describe what the pipeline
/// cannot know with the `_with` variants and an [`Operation`], then [`OpenApi::build`].
///
/// Types are read when the contract is added: every slot type needs
/// [`JsonSchema`] (the empty markers [`NoParams`](crate::NoParams),
/// [`NoQuery`](crate::NoQuery), [`NoBody`](crate::NoBody) and [`NoContent`](crate::NoContent)
/// have it). A handler list of [`AnyHandler`]s has lost its types, so register handlers before
/// they are erased — or document the contracts, which are plain values.
///
/// Adding the same method and route twice keeps the last.
///
/// ```
/// use pactum::openapi::OpenApi;
/// use pactum::{route, Endpoint};
///
/// let health = Endpoint::get(route::static_path("/health")).build()?;
/// let doc = OpenApi::new("Ops", "1.0.0")
///     .description("Operational endpoints.")
///     .server("http://localhost:3000")
///     .endpoint(&health)
///     .build();
/// let op = &doc.as_value()["paths"]["/health"]["get"];
/// assert_eq!(op["operationId"], "get_health");
/// assert_eq!(op["responses"]["204"]["description"], "No Content");
/// assert_eq!(op["responses"]["500"]["$ref"], "#/components/responses/InternalError");
/// # Ok::<(), pactum::ConfigError>(())
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
}

/// One documented contract: its erased parts and how to make its schemas.
#[derive(Debug, Clone)]
struct Entry {
    method: Method,
    route: RouteTemplate,
    success: StatusCode,
    name: Option<String>,
    summary: Option<String>,
    description: Option<String>,
    tags: Vec<String>,
    params: Option<SchemaFn>,
    query: Option<SchemaFn>,
    body: Option<SchemaFn>,
    response: Option<SchemaFn>,
    operation: Operation,
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
        }
    }

    /// Describes the API (`info.description`, Markdown).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Adds a server URL (`servers`), e.g. `https://api.example.com/v1`. Paths are relative to
    /// it; without any, clients use the document's own origin.
    pub fn server(mut self, url: impl Into<String>) -> Self {
        self.servers.push(json!({ "url": url.into() }));
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

    /// Documents a contract.
    pub fn endpoint<P, Q, B, R>(self, endpoint: &Endpoint<P, Q, B, R>) -> Self
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
    {
        self.endpoint_with(endpoint, |op| op)
    }

    /// Documents a contract, with what the pipeline cannot know about it.
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::openapi::OpenApi;
    /// use pactum::{route, Endpoint};
    ///
    /// let me = Endpoint::get(route::static_path("/me")).build()?;
    /// let doc = OpenApi::new("Auth", "1.0.0")
    ///     .bearer_auth("bearer")
    ///     .endpoint_with(&me, |op| {
    ///         op.security("bearer").error(StatusCode::UNAUTHORIZED, "No or bad token")
    ///     })
    ///     .build();
    /// let op = &doc.as_value()["paths"]["/me"]["get"];
    /// assert_eq!(op["security"][0]["bearer"], serde_json::json!([]));
    /// assert_eq!(op["responses"]["401"]["description"], "No or bad token");
    /// # Ok::<(), pactum::ConfigError>(())
    /// ```
    pub fn endpoint_with<P, Q, B, R>(
        mut self,
        endpoint: &Endpoint<P, Q, B, R>,
        describe: impl FnOnce(Operation) -> Operation,
    ) -> Self
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
    {
        self.push(endpoint, describe(Operation::new()));
        self
    }

    /// Documents a handler's contract and gives the handler back, erased for an adapter's list.
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use pactum::{handler, route, AnyHandler, Endpoint, NoContent};
    ///
    /// let health = Endpoint::get(route::static_path("/health")).build()?;
    /// let mut api = OpenApi::new("Ops", "1.0.0");
    /// let handlers: Vec<AnyHandler> = vec![
    ///     api.register(handler(health, |_| async { Ok(NoContent) })),
    /// ];
    /// assert!(api.build().as_value()["paths"]["/health"]["get"].is_object());
    /// # Ok::<(), pactum::ConfigError>(())
    /// ```
    pub fn register<P, Q, B, R>(&mut self, handler: Handler<P, Q, B, R>) -> AnyHandler
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
    {
        self.register_with(handler, |op| op)
    }

    /// [`OpenApi::register`], with what the pipeline cannot know about the operation.
    pub fn register_with<P, Q, B, R>(
        &mut self,
        handler: Handler<P, Q, B, R>,
        describe: impl FnOnce(Operation) -> Operation,
    ) -> AnyHandler
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
    {
        self.push(handler.endpoint(), describe(Operation::new()));
        handler.into()
    }

    fn push<P, Q, B, R>(&mut self, endpoint: &Endpoint<P, Q, B, R>, operation: Operation)
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
    {
        let entry = Entry {
            method: endpoint.method().clone(),
            route: endpoint.route().clone(),
            success: endpoint.success_status(),
            name: endpoint.name().map(str::to_owned),
            summary: endpoint.summary().map(str::to_owned),
            description: endpoint.description().map(str::to_owned),
            tags: endpoint.tags().map(str::to_owned).collect(),
            params: declared::<P>().then_some(inline::<P> as SchemaFn),
            query: declared::<Q>().then_some(inline::<Q> as SchemaFn),
            body: declared::<B>().then_some(reference::<B> as SchemaFn),
            response: declared::<R>().then_some(reference::<R> as SchemaFn),
            operation,
        };
        self.entries
            .retain(|e| e.method != entry.method || e.route.as_str() != entry.route.as_str());
        self.entries.push(entry);
    }

    /// Builds the document.
    pub fn build(&self) -> Document {
        let mut requests = schema::request_generator();
        let mut responses = schema::response_generator();
        let error_body = Value::from(responses.subschema_for::<ErrorBody>());

        let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        let mut operation_ids = BTreeSet::new();
        for entry in &self.entries {
            let operation = entry.operation_object(
                &mut requests,
                &mut responses,
                &error_body,
                &mut operation_ids,
            );
            paths.entry(openapi_path(&entry.route)).or_default().insert(
                entry.method.as_str().to_ascii_lowercase(),
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
        components.insert("responses".to_owned(), standard_responses(&error_body));
        if !self.security_schemes.is_empty() {
            components.insert(
                "securitySchemes".to_owned(),
                Value::Object(self.security_schemes.clone()),
            );
        }

        let mut info = Map::new();
        info.insert("title".to_owned(), self.title.clone().into());
        info.insert("version".to_owned(), self.version.clone().into());
        if let Some(description) = &self.description {
            info.insert("description".to_owned(), description.clone().into());
        }
        let mut doc = Map::new();
        doc.insert("openapi".to_owned(), "3.1.0".into());
        doc.insert("info".to_owned(), Value::Object(info));
        if !self.servers.is_empty() {
            doc.insert("servers".to_owned(), Value::Array(self.servers.clone()));
        }
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
        Document::new(Value::Object(doc))
    }
}

/// `/users/:id` → `/users/{id}`, `/files/*path` → `/files/{path}`.
fn openapi_path(route: &RouteTemplate) -> String {
    let mut out = String::new();
    for segment in route.segments() {
        out.push('/');
        match segment {
            Segment::Literal(text) => out.push_str(text),
            Segment::Param(name) | Segment::CatchAll(name) => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// `get_users_id` for `GET /users/:id`; `get_root` for `GET /`.
fn default_operation_id(method: &Method, route: &RouteTemplate) -> String {
    let mut id = method.as_str().to_ascii_lowercase();
    for segment in route.segments() {
        let text = match segment {
            Segment::Literal(text) | Segment::Param(text) | Segment::CatchAll(text) => text,
        };
        let word: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !word.is_empty() {
            id.push('_');
            id.push_str(&word);
        }
    }
    if route
        .segments()
        .iter()
        .all(|s| matches!(s, Segment::Literal(t) if t.is_empty()))
    {
        id.push_str("_root");
    }
    id
}

/// The reusable answers of the pipeline itself, under `components/responses`.
const STANDARD: [(&str, u16, &str); 6] = [
    (
        "ValidationFailed",
        400,
        "`Validation failed`: the params, query or body do not fit their type or rules; `details` has one entry per failing field (`path`, `message`). `Invalid JSON` (with one detail) when the body is not JSON or is empty.",
    ),
    (
        "NotFound",
        404,
        "`Not found`: no route matches the path (e.g. an empty path parameter).",
    ),
    (
        "MethodNotAllowed",
        405,
        "`Method not allowed`: the path exists with other methods, listed in `Allow`.",
    ),
    (
        "PayloadTooLarge",
        413,
        "`Payload too large`: the body is over the size limit (1 MiB unless configured).",
    ),
    (
        "UnsupportedMediaType",
        415,
        "`Unsupported media type`: the body's `Content-Type` is not `application/json` (or `+json`).",
    ),
    (
        "InternalError",
        500,
        "The handler or a middleware failed (its message), panicked (`Internal server error`), or its answer broke the response type's rules (`Response validation failed`).",
    ),
];

fn standard_responses(error_body: &Value) -> Value {
    let mut responses = Map::new();
    for (name, status, description) in STANDARD {
        let mut response = json!({
            "description": description,
            "content": { "application/json": { "schema": error_body } }
        });
        if status == 405 {
            response["headers"] = json!({
                "Allow": {
                    "description": "The methods the path answers.",
                    "schema": { "type": "string" }
                }
            });
        }
        responses.insert(name.to_owned(), response);
    }
    Value::Object(responses)
}

fn standard_ref(status: u16) -> Option<(Value, &'static str)> {
    STANDARD
        .iter()
        .find(|(_, s, _)| *s == status)
        .map(|(name, _, description)| {
            (
                json!({ "$ref": format!("#/components/responses/{name}") }),
                *description,
            )
        })
}

impl Entry {
    fn operation_object(
        &self,
        requests: &mut SchemaGenerator,
        responses: &mut SchemaGenerator,
        error_body: &Value,
        operation_ids: &mut BTreeSet<String>,
    ) -> Map<String, Value> {
        let extra = &self.operation;
        let mut op = Map::new();

        let base_id = extra
            .operation_id
            .clone()
            .or_else(|| self.name.clone())
            .unwrap_or_else(|| default_operation_id(&self.method, &self.route));
        let mut id = base_id.clone();
        let mut n = 2;
        while !operation_ids.insert(id.clone()) {
            id = format!("{base_id}_{n}");
            n += 1;
        }
        op.insert("operationId".to_owned(), id.into());
        if let Some(summary) = extra.summary.as_ref().or(self.summary.as_ref()) {
            op.insert("summary".to_owned(), summary.clone().into());
        }
        if let Some(description) = extra.description.as_ref().or(self.description.as_ref()) {
            op.insert("description".to_owned(), description.clone().into());
        }
        let mut tags: Vec<&String> = Vec::new();
        for tag in self.tags.iter().chain(&extra.tags) {
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        if !tags.is_empty() {
            op.insert("tags".to_owned(), json!(tags));
        }

        let mut parameters = Vec::new();
        let params_schema = self.params.map(|f| Value::from(f(requests)));
        parameters.extend(self.path_parameters(params_schema.as_ref(), requests));
        if let Some(make) = self.query {
            let schema = Value::from(make(requests));
            parameters.extend(query_parameters(&schema, requests));
        }
        if !parameters.is_empty() {
            op.insert("parameters".to_owned(), Value::Array(parameters));
        }
        if let Some(make) = self.body {
            let schema = Value::from(make(requests));
            op.insert(
                "requestBody".to_owned(),
                json!({
                    "required": true,
                    "content": { "application/json": { "schema": schema } }
                }),
            );
        }

        let mut answers: BTreeMap<String, (Value, Option<&str>)> = BTreeMap::new();
        let success = self.success;
        let mut ok = json!({ "description": reason(success) });
        if let Some(make) = self.response {
            if success != StatusCode::NO_CONTENT && success != StatusCode::NOT_MODIFIED {
                ok["content"] = json!({ "application/json": { "schema": make(responses) } });
            }
        }
        answers.insert(success.as_str().to_owned(), (ok, None));
        let has_input = self.params.is_some() || self.query.is_some() || self.body.is_some();
        let has_params = self.route.param_names().next().is_some();
        let has_body = self.body.is_some();
        for (status, applies) in [
            (400, has_input),
            (404, has_params),
            (413, has_body),
            (415, has_body),
            (500, true),
        ] {
            if let (true, Some((reference, description))) = (applies, standard_ref(status)) {
                answers.insert(status.to_string(), (reference, Some(description)));
            }
        }
        for declared in &extra.responses {
            let key = declared
                .status
                .map_or_else(|| "default".to_owned(), |s| s.as_str().to_owned());
            let mut response = json!({ "description": declared.description });
            let schema = match declared.content {
                Content::Empty => None,
                Content::Error => Some(error_body.clone()),
                Content::Json(make) => Some(Value::from(make(responses))),
            };
            if let Some(schema) = schema {
                response["content"] = json!({ "application/json": { "schema": schema } });
            }
            if let Some((_, Some(library))) = answers.get(&key) {
                response["description"] =
                    format!("{}\n\nFrom pactum: {library}", declared.description).into();
            }
            answers.insert(key, (response, None));
        }
        op.insert(
            "responses".to_owned(),
            Value::Object(answers.into_iter().map(|(k, (v, _))| (k, v)).collect()),
        );

        if !extra.security.is_empty() {
            let requirements = extra
                .security
                .iter()
                .map(|name| {
                    let mut requirement = Map::new();
                    requirement.insert(name.clone(), json!([]));
                    Value::Object(requirement)
                })
                .collect();
            op.insert("security".to_owned(), Value::Array(requirements));
        }
        if extra.deprecated {
            op.insert("deprecated".to_owned(), true.into());
        }
        op
    }

    /// One required `in: path` parameter per route param, in route order, with the params
    /// type's field schema (a string when the type does not say).
    fn path_parameters(&self, schema: Option<&Value>, requests: &SchemaGenerator) -> Vec<Value> {
        let definitions = requests.definitions();
        let fields = schema.and_then(|s| schema::object_parts(s, definitions));
        let mut out = Vec::new();
        for segment in self.route.segments() {
            let (name, catch_all) = match segment {
                Segment::Literal(_) => continue,
                Segment::Param(name) => (name, false),
                Segment::CatchAll(name) => (name, true),
            };
            let mut schema = fields
                .as_ref()
                .and_then(|(properties, _)| properties.get(name).cloned())
                .unwrap_or_else(|| json!({ "type": "string" }));
            schema::strip_null(&mut schema);
            // An empty segment never routes.
            if schema::type_of(&schema, definitions) == Some("string") {
                if let Some(object) = schema.as_object_mut() {
                    if !object.contains_key("$ref") {
                        object.entry("minLength").or_insert(1.into());
                    }
                }
            }
            let mut parameter = json!({
                "name": name,
                "in": "path",
                "required": true,
                "schema": schema,
            });
            let description = parameter["schema"]
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let description = match (description, catch_all) {
                (Some(d), true) => Some(format!("{d} The rest of the path: it may hold `/`.")),
                (None, true) => Some("The rest of the path: it may hold `/`.".to_owned()),
                (d, false) => d,
            };
            if let Some(description) = description {
                parameter["description"] = description.into();
            }
            out.push(parameter);
        }
        out
    }
}

/// One `in: query` parameter per field of the query type; a type that is not a plain object
/// (a map, an enum) is one exploded `form` object parameter.
fn query_parameters(schema: &Value, requests: &SchemaGenerator) -> Vec<Value> {
    let definitions = requests.definitions();
    let Some((properties, required)) = schema::object_parts(schema, definitions) else {
        let mut schema = schema.clone();
        schema::strip_null(&mut schema);
        return vec![json!({
            "name": "query",
            "in": "query",
            "style": "form",
            "explode": true,
            "schema": schema,
        })];
    };
    properties
        .into_iter()
        .map(|(name, mut schema)| {
            schema::strip_null(&mut schema);
            let mut parameter = json!({
                "name": name,
                "in": "query",
                "required": required.contains(&name),
            });
            match schema::type_of(&schema, definitions) {
                Some("array") => {
                    parameter["style"] = "form".into();
                    parameter["explode"] = true.into();
                }
                Some("object") => {
                    parameter["style"] = "deepObject".into();
                    parameter["explode"] = true.into();
                }
                _ => {}
            }
            if let Some(description) = schema.get("description").and_then(Value::as_str) {
                parameter["description"] = description.into();
            }
            parameter["schema"] = schema;
            parameter
        })
        .collect()
}

fn reason(status: StatusCode) -> String {
    status
        .canonical_reason()
        .map_or_else(|| status.as_str().to_owned(), str::to_owned)
}

/// What the pipeline cannot know about an operation: the errors its handler and middleware
/// return, other answers, security requirements, and overrides of the contract's metadata.
///
/// Given to the closures of [`OpenApi::endpoint_with`] and [`OpenApi::register_with`]; each
/// method returns the operation, so calls chain.
///
/// ```
/// use pactum::http::StatusCode;
/// use pactum::openapi::OpenApi;
/// use pactum::{route, Endpoint};
///
/// let delete = Endpoint::delete(route::static_path("/cache")).build()?;
/// let doc = OpenApi::new("Cache", "1.0.0")
///     .endpoint_with(&delete, |op| {
///         op.summary("Empty the cache")
///             .tag("admin")
///             .error(StatusCode::CONFLICT, "A refill is running")
///             .response(StatusCode::ACCEPTED, "Emptying started")
///             .deprecated()
///     })
///     .build();
/// let op = &doc.as_value()["paths"]["/cache"]["delete"];
/// assert_eq!(op["summary"], "Empty the cache");
/// assert_eq!(op["responses"]["409"]["content"]["application/json"]["schema"]["$ref"],
///            "#/components/schemas/ErrorBody");
/// assert!(op["responses"]["202"].get("content").is_none());
/// assert_eq!(op["deprecated"], true);
/// # Ok::<(), pactum::ConfigError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Operation {
    operation_id: Option<String>,
    summary: Option<String>,
    description: Option<String>,
    tags: Vec<String>,
    responses: Vec<DeclaredResponse>,
    security: Vec<String>,
    deprecated: bool,
}

#[derive(Debug, Clone)]
struct DeclaredResponse {
    /// `None`: the `default` answer.
    status: Option<StatusCode>,
    description: String,
    content: Content,
}

#[derive(Debug, Clone)]
enum Content {
    Empty,
    Error,
    Json(SchemaFn),
}

impl Operation {
    /// An operation with nothing declared.
    pub fn new() -> Self {
        Self::default()
    }

    /// Overrides the `operationId` (else the contract's name, else one made from the method
    /// and path).
    pub fn operation_id(mut self, id: impl Into<String>) -> Self {
        self.operation_id = Some(id.into());
        self
    }

    /// Overrides the contract's summary.
    pub fn summary(mut self, summary: impl Into<String>) -> Self {
        self.summary = Some(summary.into());
        self
    }

    /// Overrides the contract's description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Adds a tag, after the contract's own.
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tags.push(tag.into());
        self
    }

    /// Declares an error answer with the [`ErrorBody`] schema: what a
    /// handler's or middleware's [`HttpError`](crate::HttpError) with this status sends. On a
    /// status the pipeline also answers (e.g. 404 on a route with params) both descriptions
    /// are kept.
    pub fn error(self, status: StatusCode, description: impl Into<String>) -> Self {
        self.declare(Some(status), description, Content::Error)
    }

    /// Declares the `default` answer as an error: for operations that can answer with statuses
    /// not listed one by one.
    pub fn default_error(self, description: impl Into<String>) -> Self {
        self.declare(None, description, Content::Error)
    }

    /// Declares an answer without a body (e.g. a status a handler sets with
    /// [`ResponseParts`](crate::ResponseParts)).
    pub fn response(self, status: StatusCode, description: impl Into<String>) -> Self {
        self.declare(Some(status), description, Content::Empty)
    }

    /// Declares an answer with a JSON body of type `T` (as serde writes it).
    pub fn response_json<T: JsonSchema>(
        self,
        status: StatusCode,
        description: impl Into<String>,
    ) -> Self {
        self.declare(
            Some(status),
            description,
            Content::Json(reference::<T> as SchemaFn),
        )
    }

    fn declare(
        mut self,
        status: Option<StatusCode>,
        description: impl Into<String>,
        content: Content,
    ) -> Self {
        self.responses.retain(|r| r.status != status);
        self.responses.push(DeclaredResponse {
            status,
            description: description.into(),
            content,
        });
        self
    }

    /// Requires the security scheme `name` (declared with [`OpenApi::security_scheme`] or
    /// [`OpenApi::bearer_auth`]). Several calls: any one of them is enough.
    pub fn security(mut self, name: impl Into<String>) -> Self {
        self.security.push(name.into());
        self
    }

    /// Marks the operation deprecated.
    pub fn deprecated(mut self) -> Self {
        self.deprecated = true;
        self
    }
}

#[cfg(test)]
mod tests;
