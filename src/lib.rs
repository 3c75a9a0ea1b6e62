#![doc = include_str!("docs/crate.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod body;
mod context;
mod contract;
mod decode;
mod error;
mod handler;
mod introspect;
mod json_shape;
pub mod middleware;
mod pipeline;
mod request;
mod response;
pub mod route;
mod shape;
mod text;
mod validation;

#[cfg(feature = "server")]
mod server;

#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;

pub use body::Body;
pub use context::{Ctx, ResponseParts};
pub use contract::method;
pub use contract::{
    Absent, BodyUnset, Declared, Endpoint, EndpointBuilder, NoBody, NoContent, NoParams, NoQuery,
    ParamsFit, ParamsUnset, Presence, QueryUnset, ResponseUnset, Slot,
};
pub use error::{
    BoxError, ConfigError, Detail, Error, ErrorBody, HttpError, PathSegment, Rejection,
};
pub use handler::{handler, AnyHandler, Handler};
pub use middleware::Middleware;
pub use pipeline::{
    AnswerMode, ErrorFormatter, IntoPipeline, Pipeline, PipelineBuilder, Routed, DEFAULT_BODY_LIMIT,
};
pub use response::Response;

#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
#[allow(deprecated)]
pub use server::create_handler;
#[cfg(feature = "tls")]
#[cfg_attr(docsrs, doc(cfg(feature = "tls")))]
pub use server::TlsConfig;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub use server::{
    serve, serve_service, service, shutdown_signal, PactumService, ResponseFuture, Servable,
    ServeError, Server, ServerOptions,
};

#[doc(no_inline)]
pub use http;
/// schemars, which the `openapi` feature generates schemas with: derive
/// `pactum::schemars::JsonSchema` with `use pactum::schemars;` in scope, or depend on it.
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
#[doc(no_inline)]
pub use schemars;
#[doc(no_inline)]
pub use url::Url;
#[doc(no_inline)]
pub use validator;
