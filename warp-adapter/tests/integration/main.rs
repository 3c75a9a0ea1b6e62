//! End-to-end tests of pactum-warp over real sockets: one test binary.

mod behaviour;
mod composition;
mod reject;
#[cfg(feature = "server")]
mod serve;
mod support;
