//! The conformance fixture (FIXTURE.md): every behaviour of pactum behind one server.
//!
//! ```text
//! cargo run --release --example conformance -- --adapter native --port 0
//! ```
#![allow(missing_docs)]

#[path = "conformance/api.rs"]
mod api;

fn main() {}
