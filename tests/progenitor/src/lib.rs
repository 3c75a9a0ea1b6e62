//! The client progenitor generated from the fixture's OpenAPI 3.0.3 document.
#![allow(clippy::all, missing_docs, unused)]

include!(concat!(env!("OUT_DIR"), "/client.rs"));
