//! [`Servable`]: what the native server needs of a `tower::Service`; [`PerConnection`]: how
//! each connection's service learns its peer.

use std::net::SocketAddr;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::Incoming;

use super::refusable::{Refusable, RefusableAnswer};
use super::service::PactumService;
use crate::error::BoxError;
use crate::request::PeerAddr;
use crate::response::ResponseBody;

/// A `tower::Service` the native server can run ([`serve_service`](crate::server::serve_service)): what hyper needs of a
/// service, spelled once. Implemented for every service of `http::Request<Incoming>` whose
/// response body, future and error can cross threads, and whose body's chunks can be made
/// from [`Bytes`] (the connection answers a request that breaks an HTTP rule itself, in the
/// service's body type: every body of hyper, axum, warp and tower-http does).
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
    type Body: http_body::Body<Data: Send + From<Bytes>, Error: Into<BoxError>> + Send + 'static;
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
    B::Data: Send + From<Bytes>,
    B::Error: Into<BoxError>,
{
    type Body = B;
}

/// A connection's service, called by hyper through a shared reference: pactum's own service
/// answers from it (no clone of the service per request); any other is cloned and asked
/// whether it is ready, as tower's rule asks.
pub(super) trait CallShared: Servable {
    /// The answer's future to `request`, from the connection's `peer`, when the service can
    /// be called from `&self`; else the request back (with what it needs of `peer`), for a
    /// clone of the service.
    #[allow(clippy::result_large_err)] // handed back as it came, never boxed
    fn call_shared(
        &self,
        request: http::Request<Incoming>,
        peer: Option<SocketAddr>,
    ) -> Result<Self::Future, http::Request<Incoming>>;

    /// The connection's answer to a request it refuses (`conn/request_rules.rs`), in this
    /// service's body type.
    fn refusal(head: http::response::Parts, body: Bytes) -> http::Response<Self::Body>;
}

impl CallShared for PactumService {
    #[inline]
    fn call_shared(
        &self,
        request: http::Request<Incoming>,
        peer: Option<SocketAddr>,
    ) -> Result<Self::Future, http::Request<Incoming>> {
        Ok(self.respond(request, peer))
    }

    fn refusal(head: http::response::Parts, body: Bytes) -> http::Response<ResponseBody> {
        http::Response::from_parts(head, ResponseBody::from(body))
    }
}

impl<S: Servable> CallShared for WithPeer<S> {
    #[inline]
    fn call_shared(
        &self,
        mut request: http::Request<Incoming>,
        peer: Option<SocketAddr>,
    ) -> Result<Self::Future, http::Request<Incoming>> {
        if let Some(peer) = peer {
            request.extensions_mut().insert(PeerAddr(peer));
        }
        Err(request)
    }

    fn refusal(head: http::response::Parts, body: Bytes) -> http::Response<Self::Body> {
        http::Response::from_parts(head, Refusable::refusal(body))
    }
}

/// What the accept loop serves: one service per connection. The connection's peer is kept
/// by the connection (not in its service: 32 bytes of every connection's task) and given
/// with each request ([`CallShared::call_shared`]): pactum's own service hands it to its
/// pipeline (no extension to allocate); any other service gets it as a [`PeerAddr`]
/// extension on each request ([`WithPeer`]).
pub(super) trait PerConnection: Clone + Send + Sync + 'static {
    /// The service hyper runs on one connection.
    type Service: CallShared;

    /// The service for a connection.
    fn for_connection(&self) -> Self::Service;
}

impl PerConnection for PactumService {
    type Service = Self;

    fn for_connection(&self) -> Self {
        self.clone()
    }
}

/// A service that is not pactum's, served by [`serve_service`](crate::server::serve_service).
#[derive(Clone)]
pub(super) struct Foreign<S>(pub(super) S);

impl<S: Servable> PerConnection for Foreign<S> {
    type Service = WithPeer<S>;

    fn for_connection(&self) -> WithPeer<S> {
        WithPeer {
            service: self.0.clone(),
        }
    }
}

/// A service whose requests carry their connection's [`PeerAddr`] extension (inserted by
/// [`CallShared::call_shared`]; none on a Unix domain socket).
#[derive(Clone)]
pub(super) struct WithPeer<S> {
    service: S,
}

impl<S: Servable> tower_service::Service<http::Request<Incoming>> for WithPeer<S> {
    type Response = http::Response<Refusable<S::Body>>;
    type Error = S::Error;
    type Future = RefusableAnswer<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.service.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Incoming>) -> Self::Future {
        RefusableAnswer::new(self.service.call(request))
    }
}
