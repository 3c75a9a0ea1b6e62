//! [`Settings`]: a contract's optional settings and documentation, one struct held by the
//! builder while the contract is written and by the spec once it is built.

use std::borrow::Cow;

use http::StatusCode;

use super::Security;

/// What a contract may set beyond its method, route and types.
#[derive(Debug, Default, Clone)]
pub(crate) struct Settings {
    /// What the server side attaches to the contract — its middleware
    /// (`EndpointBuilder::middleware`, in `crate::middleware`) — kept opaque here, so that
    /// the contract layer names none of the pipeline's types.
    #[allow(
        dead_code,
        reason = "read by the pipeline: a contract-only build attaches nothing"
    )]
    pub(crate) attached: http::Extensions,
    /// Overrides the pipeline's body limit.
    pub(crate) body_limit: Option<usize>,
    /// A multipart body's per-field limits, by field name.
    pub(crate) field_limits: Vec<(Cow<'static, str>, usize)>,
    /// Overrides the success status.
    pub(crate) status: Option<StatusCode>,
    /// The operation's name (OpenAPI `operationId`).
    pub(crate) name: Option<Cow<'static, str>>,
    /// The operation's description.
    pub(crate) description: Option<Cow<'static, str>>,
    /// The operation's one-line summary.
    pub(crate) summary: Option<Cow<'static, str>>,
    /// Tags grouping the operation in API docs, in the order added.
    pub(crate) tags: Vec<Cow<'static, str>>,
    /// The credentials the contract requires, any one of them.
    pub(crate) security: Vec<Security>,
    /// The `HttpError` answers it declares, in the order declared, one per status.
    pub(crate) http_errors: Vec<HttpErrorAnswer>,
}

/// One declared `HttpError` answer: its status (`None`: any status not declared otherwise)
/// and what it means.
#[derive(Debug, Clone)]
pub(crate) struct HttpErrorAnswer {
    pub(crate) status: Option<StatusCode>,
    pub(crate) description: Cow<'static, str>,
}
