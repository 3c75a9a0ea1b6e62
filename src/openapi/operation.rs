//! [`Operation`]: what the pipeline cannot know about an operation, declared by hand.

use http::StatusCode;
use schemars::JsonSchema;

use super::{reference, SchemaFn};

/// What the contract does not say about an operation: answers that are not errors, security
/// requirements checked outside pactum, deprecation, and overrides of the contract's metadata.
/// (Error answers belong to the contract: [`EndpointBuilder::http_error`] and
/// [`EndpointBuilder::errors`], which the server also knows.)
///
/// Given to the closures of [`Handler::documented_with`] and [`OpenApi::endpoint_with`]; each
/// method returns the operation, so calls chain.
///
/// [`EndpointBuilder::http_error`]: crate::contract::EndpointBuilder::http_error
/// [`EndpointBuilder::errors`]: crate::contract::EndpointBuilder::errors
/// [`Handler::documented_with`]: crate::handler::Handler::documented_with
/// [`OpenApi::endpoint_with`]: super::OpenApi::endpoint_with
///
/// ```
/// use pactum::http::StatusCode;
/// use pactum::openapi::OpenApi;
/// use pactum::{route, Endpoint};
///
/// let delete = Endpoint::delete(route!("/cache"))
///     .http_error(StatusCode::CONFLICT, "A refill is running")
///     .build()?;
/// let doc = OpenApi::new("Cache", "1.0.0")
///     .endpoint_with(&delete, |op| {
///         op.summary("Empty the cache")
///             .tag("admin")
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
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Operation {
    pub(super) operation_id: Option<String>,
    pub(super) summary: Option<String>,
    pub(super) description: Option<String>,
    pub(super) tags: Vec<String>,
    pub(super) responses: Vec<DeclaredResponse>,
    pub(super) security: Vec<String>,
    pub(super) deprecated: bool,
}

#[derive(Debug, Clone)]
pub(super) struct DeclaredResponse {
    /// `None`: the `default` answer.
    pub(super) status: Option<StatusCode>,
    pub(super) description: String,
    pub(super) content: Content,
}

#[derive(Debug, Clone)]
pub(super) enum Content {
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

    /// Declares an answer without a body (e.g. a status a handler sets with
    /// [`ResponseParts`](crate::handler::ResponseParts)).
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
    ///
    /// This documents a requirement the contract does not know about; prefer declaring it on
    /// the contract ([`EndpointBuilder::security`](crate::contract::EndpointBuilder::security)), where
    /// the server enforces its presence, the typed client attaches it, and the document lists
    /// the scheme by itself.
    ///
    /// [`OpenApi::security_scheme`]: super::OpenApi::security_scheme
    /// [`OpenApi::bearer_auth`]: super::OpenApi::bearer_auth
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
