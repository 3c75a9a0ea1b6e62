//! Middleware declared on a contract ([`EndpointBuilder::middleware`]): kept in the
//! contract's opaque attachments, so that the contract layer names no pipeline type, and read
//! once when the pipeline is built.

use super::Middleware;
use crate::contract::{Endpoint, EndpointBuilder, EndpointSpec};

/// A contract's middleware, outermost first, as the contract's settings hold it.
#[derive(Clone, Default)]
struct ContractMiddleware(Vec<Middleware>);

impl<M, K, P, Q, B, R, E, H, C> EndpointBuilder<M, K, P, Q, B, R, E, H, C> {
    /// Appends a middleware. The first added is the outermost.
    ///
    /// Needs the `pipeline` feature: a contract crate shared with clients leaves it out and
    /// binds middleware to the handler on the server instead
    /// ([`bind`](crate::bind)`(endpoint).middleware(..)`).
    #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
    pub fn middleware(mut self, middleware: Middleware) -> Self {
        let attached = &mut self.settings.attached;
        let list = attached.get_or_insert_default::<ContractMiddleware>();
        list.0.push(middleware);
        self
    }
}

impl<P, Q, B, R, E, H, C> Endpoint<P, Q, B, R, E, H, C> {
    /// The contract's middleware, outermost first.
    #[cfg_attr(docsrs, doc(cfg(feature = "pipeline")))]
    pub fn middleware(&self) -> &[Middleware] {
        self.spec().contract_middleware()
    }
}

impl EndpointSpec {
    /// The contract's middleware, outermost first.
    pub(crate) fn contract_middleware(&self) -> &[Middleware] {
        let attached = self.settings.attached.get::<ContractMiddleware>();
        attached.map_or(&[], |list| &list.0)
    }
}
