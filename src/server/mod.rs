//! The native server on hyper 1.x.

mod builders;
mod conn;
mod error_answers;
mod keepalive;
mod listener;
mod options;
mod refusable;
mod run;
mod servable;
mod serve;
mod service;
mod shutdown;
#[cfg(feature = "tls")]
mod tls;

pub use listener::Listener;
pub use options::ServerOptions;
pub use run::{serve_service, shutdown_signal, ServeError, Server};
pub use servable::Servable;
pub use serve::{serve, Serve};
pub use service::{service, PactumService, ResponseFuture};
#[cfg(feature = "tls")]
#[cfg_attr(docsrs, doc(cfg(feature = "tls")))]
pub use tls::TlsConfig;
