//! Read the chapters in order: each builds on the ones before it. Every example in them is
//! compiled, and most are run, as a test of this crate.
//!
//! 1. [`contracts`](crate::guide::contracts): an operation described once, as data — route,
//!    params, query, body, response (JSON, text, bytes, a redirect), and the mistakes the
//!    compiler catches.
//! 2. [`handlers`](crate::guide::handlers): the function that answers a contract, application
//!    state with [`bind`](crate::handler::bind), and authentication.
//! 3. [`errors`](crate::guide::errors): error answers — [`HttpError`](crate::error::HttpError),
//!    typed errors a contract declares, and what a 500 says.
//! 4. [`queries_and_bodies`](crate::guide::queries_and_bodies): how params, query strings and
//!    JSON bodies are read and validated, every problem reported at its path.
//! 5. [`sse`](crate::guide::sse): server-sent events, a stream of typed events.
//! 6. [`uploads`](crate::guide::uploads): `multipart/form-data` forms, bodies read as they
//!    arrive, and the raw bytes of a body.
//! 7. [`downloads`](crate::guide::downloads): answers that are a stream of bytes, sent as
//!    they are made, read as they come.
//! 8. [`server`](crate::guide::server): the native server, its hardened defaults, TLS, HTTP/2
//!    and graceful shutdown.
//! 9. [`layers`](crate::guide::layers): tower layers around every answer — CORS, compression,
//!    tracing, metrics per route — on every adapter.
//! 10. [`load_balancer`](crate::guide::load_balancer): running behind a proxy — trusted proxies,
//!     the client's IP, request ids, deploys that lose no request.
//! 11. [`warp`](crate::guide::warp): serving the same handlers as a warp filter.
//! 12. [`client`](crate::guide::client): the typed client, and the in-process client for tests.
//! 13. [`openapi`](crate::guide::openapi): the OpenAPI document and its docs page.
//! 14. [`compatibility`](crate::guide::compatibility): a check in your tests that the
//!     document breaks no client of the last release, and the rules it follows.
//!
//! The guide holds no API of its own: its modules are empty pages.

pub mod contracts {
    #![doc = include_str!("docs/guide/contracts.md")]
}

pub mod handlers {
    #![doc = include_str!("docs/guide/handlers.md")]
}

pub mod errors {
    #![doc = include_str!("docs/guide/errors.md")]
}

pub mod queries_and_bodies {
    #![doc = include_str!("docs/guide/queries_and_bodies.md")]
}

pub mod sse {
    #![doc = include_str!("docs/guide/sse.md")]
}

pub mod uploads {
    #![doc = include_str!("docs/guide/uploads.md")]
}

pub mod downloads {
    #![doc = include_str!("docs/guide/downloads.md")]
}

pub mod server {
    #![doc = include_str!("docs/guide/server.md")]
}

pub mod layers {
    #![doc = include_str!("docs/guide/layers.md")]
}

pub mod load_balancer {
    #![doc = include_str!("docs/guide/load_balancer.md")]
}

pub mod warp {
    #![doc = include_str!("docs/guide/warp.md")]
}

pub mod client {
    #![doc = include_str!("docs/guide/client.md")]
}

pub mod openapi {
    #![doc = include_str!("docs/guide/openapi.md")]
}

pub mod compatibility {
    // The chapter shows the `#[test]` a user writes; its hidden lines run the check itself.
    #![allow(clippy::test_attr_in_doctest)]
    #![doc = include_str!("docs/guide/compatibility.md")]
}
