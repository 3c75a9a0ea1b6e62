//! [`Servable`]: what the native server needs of a `tower::Service`.

use hyper::body::Incoming;

use crate::error::BoxError;

/// A `tower::Service` the native server can run ([`serve_service`](crate::serve_service)): what hyper needs of a
/// service, spelled once. Implemented for every service of `http::Request<Incoming>` whose
/// response body, future and error can cross threads.
pub trait Servable:
    tower_service::Service<
        http::Request<Incoming>,
        Response = http::Response<Self::Body>,
        Future: Send + 'static,
        Error: Into<BoxError>,
    > + Clone
    + Send
    + Sync
    + 'static
{
    /// The response body.
    type Body: http_body::Body<Data: Send, Error: Into<BoxError>> + Send + 'static;
}

impl<S, B> Servable for S
where
    S: tower_service::Service<http::Request<Incoming>, Response = http::Response<B>>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Body = B;
}
