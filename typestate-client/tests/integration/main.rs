//! Integration tests, one binary: in-process and over real sockets, with the same scenarios.

mod answers;
mod e2e;
mod in_process;
mod roundtrip;
mod scenarios;
mod security;
mod support;
mod tls;
mod uploads;
mod warp;
