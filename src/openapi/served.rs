//! One list serves and documents: handlers made with [`Handler::documented`] carry their
//! description into the adapter's list, and [`OpenApi::handlers`] documents that list, so a
//! served handler is always in the document — or the document is not built.

use std::sync::Arc;

use schemars::JsonSchema;

use super::entry::Entry;
use super::{OpenApi, Operation};
use crate::contract::Slot;
use crate::error::{ConfigError, ErrorAnswer};
use crate::handler::{AnyHandler, Documentation, Handler};

impl<P, Q, B, R, E, H, C> Handler<P, Q, B, R, E, H, C>
where
    P: Slot + JsonSchema,
    Q: Slot + JsonSchema,
    B: Slot + JsonSchema,
    R: Slot + JsonSchema,
    E: ErrorAnswer + JsonSchema,
    H: Slot + JsonSchema,
    C: Slot + JsonSchema,
{
    /// The handler, erased for an adapter's list like `.into()`, with what the OpenAPI
    /// document needs to describe it: [`OpenApi::handlers`] documents the list that is
    /// served. Every slot type needs [`JsonSchema`].
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use pactum::{contract::NoContent, handler, route, Endpoint};
    ///
    /// let health = Endpoint::get(route!("/health")).summary("Alive?").build()?;
    /// let handlers = vec![handler(health, |_| async { Ok(NoContent) }).documented()];
    /// let doc = OpenApi::new("Ops", "1.0.0").handlers(&handlers)?.build();
    /// assert_eq!(doc.as_value()["paths"]["/health"]["get"]["summary"], "Alive?");
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn documented(self) -> AnyHandler {
        self.documented_with(|op| op)
    }

    /// [`Handler::documented`], with what the contract cannot say about the operation
    /// (an [`Operation`]: other answers, an `operationId`, deprecation…).
    ///
    /// ```
    /// use pactum::http::StatusCode;
    /// use pactum::openapi::OpenApi;
    /// use pactum::{contract::NoContent, handler, route, Endpoint};
    ///
    /// let purge = Endpoint::delete(route!("/cache")).build()?;
    /// let handlers = vec![handler(purge, |_| async { Ok(NoContent) })
    ///     .documented_with(|op| op.response(StatusCode::ACCEPTED, "Purge started").deprecated())];
    /// let doc = OpenApi::new("Cache", "1.0.0").handlers(&handlers)?.build();
    /// assert_eq!(doc.as_value()["paths"]["/cache"]["delete"]["deprecated"], true);
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn documented_with(self, describe: impl FnOnce(Operation) -> Operation) -> AnyHandler {
        let entry = Entry::of::<P, Q, B, R, E, H, C>(
            Arc::clone(self.endpoint().spec()),
            describe(Operation::new()),
        );
        let mut handler = AnyHandler::from(self);
        handler.documentation = Documentation::Described(Arc::new(entry));
        handler
    }
}

impl<P: Slot, Q: Slot, B: Slot, R: Slot, E: ErrorAnswer, H: Slot, C: Slot>
    Handler<P, Q, B, R, E, H, C>
{
    /// The handler, erased for an adapter's list like `.into()`, and left out of the OpenAPI
    /// document on purpose ([`OpenApi::handlers`] skips it): an internal or operational
    /// route. Its slot types need no [`JsonSchema`].
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use pactum::{contract::NoContent, handler, route, Endpoint};
    ///
    /// let ready = Endpoint::get(route!("/internal/ready")).build()?;
    /// let handlers = vec![handler(ready, |_| async { Ok(NoContent) }).undocumented()];
    /// let doc = OpenApi::new("Ops", "1.0.0").handlers(&handlers)?.build();
    /// assert!(doc.as_value()["paths"].get("/internal/ready").is_none());
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn undocumented(self) -> AnyHandler {
        AnyHandler::from(self).undocumented()
    }
}

impl AnyHandler {
    /// The same handler, left out of the OpenAPI document on purpose (see
    /// [`Handler::undocumented`]).
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn undocumented(mut self) -> Self {
        self.documentation = Documentation::Omitted;
        self
    }
}

impl OpenApi {
    /// Documents every handler of the list an adapter serves: those made with
    /// [`Handler::documented`] (at their route, under [`nest`](crate::handler::nest) too),
    /// skipping those made with [`Handler::undocumented`] and the document's own routes
    /// ([`Document::handler`](super::Document::handler), the docs page).
    ///
    /// # Errors
    ///
    /// [`ConfigError::Undocumented`], naming each handler made with `.into()`: its types are
    /// gone, so it would be served and not documented.
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use pactum::{contract::NoContent, handler, route, Endpoint};
    ///
    /// let health = Endpoint::get(route!("/health")).build()?;
    /// let handlers = vec![handler(health, |_| async { Ok(NoContent) }).into()];
    /// let refused = OpenApi::new("Ops", "1.0.0").handlers(&handlers).unwrap_err();
    /// assert!(refused.to_string().contains("`GET /health`"));
    /// # Ok::<(), pactum::error::ConfigError>(())
    /// ```
    pub fn handlers<'a>(
        mut self,
        handlers: impl IntoIterator<Item = &'a AnyHandler>,
    ) -> Result<Self, ConfigError> {
        let mut undocumented = Vec::new();
        for handler in handlers {
            let described = match &handler.documentation {
                Documentation::Described(entry) => entry.downcast_ref::<Entry>(),
                Documentation::Omitted => continue,
                Documentation::Unknown => None,
            };
            match described {
                // At the handler's route, which `nest` may have prefixed.
                Some(entry) => self.push_entry(Entry {
                    spec: Arc::clone(&handler.spec),
                    ..entry.clone()
                }),
                None => {
                    undocumented.push(format!("`{} {}`", handler.spec.method, handler.spec.route))
                }
            }
        }
        if undocumented.is_empty() {
            Ok(self)
        } else {
            Err(ConfigError::Undocumented {
                handlers: undocumented,
            })
        }
    }
}
