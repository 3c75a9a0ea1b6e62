//! The workspace's test kit (not published): what the integration suites of `pactum`,
//! `pactum-warp` and `pactum-client` share.
//!
//! - [`conformance`]: the conformance API (the fixture table in CONTRIBUTING.md), the same
//!   module `examples/conformance.rs` serves.
//! - [`TestServer`]: a server under test on `127.0.0.1:0`, with a client: a pipeline on the
//!   native server ([`native_with`]), through the warp adapter on pactum's server
//!   ([`warp_with`]) or on warp's own ([`warp_own_server_with`]), any warp filter on either
//!   ([`serve_filter_on_pactum`], [`serve_filter`]), or the `conformance` binary
//!   ([`fixture`](fn@fixture)); and [`Answer`], a response read whole.
//! - Raw sockets: [`read_to_close`], [`raw_response`] and [`RawResponse`].
//! - Waits that poll or take a signal, never a bare sleep: [`eventually`], [`arrivals`] and
//!   [`arrived`], and what Linux's `/proc` shows of sockets and memory ([`listening`],
//!   [`read_by_server`], [`rss_kib`], [`rss_kib_of`]).
//!
//! Helpers only one suite needs (its own contracts and handlers) stay in that suite's
//! `support.rs`.

// The example's module, compiled once more here: the files stay beside the example, where
// the guide points readers to them.
#[allow(missing_docs)]
#[path = "../../../examples/conformance/api/mod.rs"]
pub mod conformance;

mod answer;
mod fixture;
mod procfs;
mod raw;
mod server;
mod wait;

pub use answer::Answer;
pub use fixture::{conformance_binary, example, fixture, fixture_native, fixture_warp};
pub use procfs::{listening, read_by_server, rss_kib, rss_kib_of};
pub use raw::{raw_response, read_response, read_to_close, RawResponse};
pub use server::{
    client, install_crypto, native, native_with, options, serve_filter, serve_filter_on_pactum,
    warp, warp_own_server, warp_own_server_with, warp_with, Running, TestServer,
};
pub use wait::{arrivals, arrived, eventually};
