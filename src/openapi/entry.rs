//! [`Entry`]: one documented contract, and the Operation Object made from it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use http::StatusCode;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{json, Map, Value};

use super::operation::{Content, DeclaredResponse};
use super::paths::{
    answer_headers, default_operation_id, field_parameters, path_parameters, query_parameters,
};
use super::pipeline_errors::standard_ref;
use super::schema::ANSWER_HEADERS_KEY;
use super::{inline, reference, Operation, SchemaFn};
use crate::contract::{BodyKind, EndpointSpec, Format, Presence, Security, SecurityScheme, Slot};
use crate::error::{ErrorAnswer, Rejection};

fn declared<T: Slot>() -> bool {
    <T::Presence as Presence>::DECLARED
}

/// One documented contract: its erased parts and how to make its schemas.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// The contract without its types: method, route, settings and documentation, borrowed.
    pub(super) spec: Arc<EndpointSpec>,
    pub(super) params: Option<SchemaFn>,
    pub(super) query: Option<SchemaFn>,
    pub(super) headers: Option<SchemaFn>,
    pub(super) cookies: Option<SchemaFn>,
    pub(super) body: Option<SchemaFn>,
    /// The body's media type: by its type's `Slot::BODY`.
    pub(super) body_media: &'static str,
    pub(super) response: Option<SchemaFn>,
    /// The declared errors' schema, when the contract declares some.
    pub(super) errors: Option<SchemaFn>,
    pub(super) operation: Operation,
}

impl Entry {
    /// The entry of a contract with these types.
    pub(super) fn of<P, Q, B, R, E, H, C>(spec: Arc<EndpointSpec>, operation: Operation) -> Self
    where
        P: Slot + JsonSchema,
        Q: Slot + JsonSchema,
        B: Slot + JsonSchema,
        R: Slot + JsonSchema,
        E: ErrorAnswer + JsonSchema,
        H: Slot + JsonSchema,
        C: Slot + JsonSchema,
    {
        Self {
            spec,
            params: declared::<P>().then_some(inline::<P> as SchemaFn),
            query: declared::<Q>().then_some(inline::<Q> as SchemaFn),
            headers: declared::<H>().then_some(inline::<H> as SchemaFn),
            cookies: declared::<C>().then_some(inline::<C> as SchemaFn),
            body: declared::<B>().then_some(reference::<B> as SchemaFn),
            body_media: body_media(B::BODY),
            response: declared::<R>().then_some(reference::<R> as SchemaFn),
            errors: (!E::STATUSES.is_empty()).then_some(reference::<E> as SchemaFn),
            operation,
        }
    }

    pub(super) fn operation_object(
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
            .or_else(|| self.spec.settings.name.as_deref().map(str::to_owned))
            .unwrap_or_else(|| default_operation_id(&self.spec.method, &self.spec.route));
        let mut id = base_id.clone();
        let mut n = 2;
        while !operation_ids.insert(id.clone()) {
            id = format!("{base_id}_{n}");
            n += 1;
        }
        op.insert("operationId".to_owned(), id.into());
        let settings = &self.spec.settings;
        if let Some(summary) = extra.summary.as_deref().or(settings.summary.as_deref()) {
            op.insert("summary".to_owned(), summary.into());
        }
        let description = extra.description.as_deref();
        if let Some(description) = description.or(settings.description.as_deref()) {
            op.insert("description".to_owned(), description.into());
        }
        let mut tags: Vec<&str> = Vec::new();
        let own = settings.tags.iter().map(|tag| &**tag);
        for tag in own.chain(extra.tags.iter().map(String::as_str)) {
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        if !tags.is_empty() {
            op.insert("tags".to_owned(), json!(tags));
        }

        let mut parameters = Vec::new();
        let params_schema = self.params.map(|f| Value::from(f(requests)));
        parameters.extend(path_parameters(
            &self.spec.route,
            params_schema.as_ref(),
            requests,
        ));
        if let Some(make) = self.query {
            let schema = Value::from(make(requests));
            parameters.extend(query_parameters(&schema, requests));
        }
        for (make, location) in [(self.headers, "header"), (self.cookies, "cookie")] {
            if let Some(make) = make {
                let schema = Value::from(make(requests));
                parameters.extend(field_parameters(&schema, requests, location));
            }
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
                    "content": { self.body_media: { "schema": schema } }
                }),
            );
        }

        let mut answers: BTreeMap<String, (Value, Option<String>)> = BTreeMap::new();
        let success = self.spec.success_status();
        let mut ok = json!({ "description": reason(success) });
        if let Some(make) = self.response {
            let mut schema = Value::from(make(responses));
            if let Some(headers) = schema
                .as_object_mut()
                .and_then(|object| object.remove(ANSWER_HEADERS_KEY))
            {
                ok["headers"] = answer_headers(&headers, responses);
            }
            if success != StatusCode::NO_CONTENT && success != StatusCode::NOT_MODIFIED {
                success_content(&mut ok, self.spec.format, schema);
            }
        }
        answers.insert(success.as_str().to_owned(), (ok, None));
        if self.spec.format == Format::EventStream {
            // `Events::finished`: nothing after the client's `Last-Event-ID`.
            let done = "No more events (after `Last-Event-ID`): the client stops reconnecting.";
            answers.insert("204".to_owned(), (json!({ "description": done }), None));
        }
        let has_input = [
            self.params,
            self.query,
            self.headers,
            self.cookies,
            self.body,
        ]
        .iter()
        .any(Option::is_some);
        let has_params = self.spec.route.param_names().next().is_some();
        let has_body = self.body.is_some();
        // Only what this operation can meet: the body's errors only where there is a body,
        // and a 400 that names its body's kind (`pipeline_errors.rs`).
        let body_media = has_body.then_some(self.body_media);
        for (status, applies) in [
            (400, has_input),
            (404, has_params),
            // OpenAPI has no place for "any other method" on a path: every operation says
            // that its path answers the methods it has no operation for with a 405.
            (405, true),
            (413, has_body),
            // A byte stream takes any content type.
            (415, has_body && self.body_media != OCTET_STREAM),
            (500, true),
        ] {
            let standard = standard_ref(status, body_media);
            if let (true, Some((reference, description))) = (applies, standard) {
                answers.insert(status.to_string(), (reference, Some(description)));
            }
        }
        if !settings.security.is_empty() {
            answers.insert(
                "401".to_owned(),
                unauthorized(&settings.security, error_body),
            );
        }
        if let (Some(make), Some(errors)) = (self.errors, &self.spec.errors) {
            let statuses = errors.statuses;
            super::declared_errors::document(&mut answers, statuses, make, responses, error_body);
        }
        // The contract's `HttpError` answers, then the other answers declared by hand.
        let http_errors = settings.http_errors.iter().map(|answer| DeclaredResponse {
            status: answer.status,
            description: answer.description.clone().into_owned(),
            content: Content::Error,
        });
        for declared in http_errors.chain(extra.responses.iter().cloned()) {
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

        // The contract's own requirements, then the ones declared by hand, each name once.
        let mut names: Vec<&str> = Vec::new();
        let own = settings.security.iter().map(Security::name);
        for name in own.chain(extra.security.iter().map(String::as_str)) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        if !names.is_empty() {
            let requirements = names
                .into_iter()
                .map(|name| {
                    let mut requirement = Map::new();
                    requirement.insert(name.to_owned(), json!([]));
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
}

const OCTET_STREAM: &str = "application/octet-stream";

/// The pipeline's 401 for a request without the contract's credentials
/// ([`Rejection::Unauthorized`]), and what it says in the document.
fn unauthorized(security: &[Security], error_body: &Value) -> (Value, Option<String>) {
    let rejection = Rejection::Unauthorized;
    let description = format!(
        "`{}`: the request carries none of the credentials the operation requires; they are \
         checked before the query and body are read.",
        rejection.message()
    );
    let mut answer = json!({
        "description": description,
        "content": { "application/json": { "schema": error_body } },
    });
    if security
        .iter()
        .any(|s| matches!(s.scheme(), SecurityScheme::Bearer))
    {
        answer["headers"] = json!({ "WWW-Authenticate": {
            "description": "`Bearer`: the credential to send.",
            "schema": { "type": "string" },
        }});
    }
    (answer, Some(description))
}

/// The Security Scheme Object of `security`.
pub(super) fn security_scheme(security: &Security) -> Value {
    let mut scheme = match security.scheme() {
        SecurityScheme::Bearer => {
            let mut scheme = json!({ "type": "http", "scheme": "bearer" });
            if let Some(format) = security.get_bearer_format() {
                scheme["bearerFormat"] = format.into();
            }
            scheme
        }
        SecurityScheme::ApiKeyHeader(header) => {
            json!({ "type": "apiKey", "in": "header", "name": header.as_str() })
        }
        // `SecurityScheme` is pactum's own: every kind is listed above.
        #[allow(unreachable_patterns)]
        _ => json!({}),
    };
    if let Some(description) = security.get_description() {
        scheme["description"] = description.into();
    }
    scheme
}

/// The media type of a request body of this kind.
pub(super) fn body_media(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Json => "application/json",
        BodyKind::Multipart => "multipart/form-data",
        BodyKind::Stream => OCTET_STREAM,
    }
}

/// The success answer's body (or, for a redirect, its `Location` header) by the response's
/// format.
fn success_content(answer: &mut Value, format: Format, schema: Value) {
    let media = match format {
        Format::Json => "application/json",
        Format::Text => "text/plain",
        // A download's own content type is the value's: the document gives the default.
        Format::Binary | Format::Download => "application/octet-stream",
        Format::EventStream => {
            // One event, as OpenAPI 3.2 describes `text/event-stream` (its `itemSchema`): the
            // fields of an event, `data` the JSON of the response type. A 3.1 or 3.0.3 document
            // moves it to `x-itemSchema` and describes the body as text (`version.rs`).
            answer["content"] = json!({ "text/event-stream": { "itemSchema": {
                "type": "object",
                "description": "One server-sent event; `data` is the JSON of `contentSchema`.",
                "required": ["data"],
                "properties": {
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": schema,
                    },
                    "event": { "type": "string" },
                    "id": { "type": "string" },
                    "retry": { "type": "integer", "minimum": 0 },
                },
            }}});
            return;
        }
        Format::Redirect => {
            answer["headers"] = json!({ "Location": {
                "description": "Where the redirect points.",
                "required": true,
                "schema": schema,
            }});
            return;
        }
    };
    answer["content"] = json!({ media: { "schema": schema } });
}

fn reason(status: StatusCode) -> String {
    status
        .canonical_reason()
        .map_or_else(|| status.as_str().to_owned(), str::to_owned)
}
