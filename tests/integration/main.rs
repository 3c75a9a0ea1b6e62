//! End-to-end tests, built as one binary: real sockets on 127.0.0.1:0, real clients.
#![allow(unreachable_pub)]

// The workspace's test kit (tests/kit) is this binary's support: the conformance API, the
// servers under test, raw sockets and waits.
use pactum_test_kit as support;
use pactum_test_kit::conformance as api;

#[macro_use]
mod cases;
mod behaviour;
mod bind;
mod body_reading;
mod docs_page;
mod download;
mod ergonomics;
mod events;
mod fixture;
mod fixture_client;
mod h2_abuse;
mod h2_frames;
mod hardening;
mod hello_txt;
mod hyper_answers;
mod interop;
mod keepalive;
mod layers;
mod leaving_clients;
mod listeners;
mod malformed;
mod metrics;
mod mutations;
mod pipeline_settings;
mod protocol_rules;
mod raw;
mod request_params;
mod response_headers;
mod resume;
mod robustness;
mod route_spellings;
mod security;
mod service;
mod settings;
mod tls;
mod typed_errors;
mod uploads;
