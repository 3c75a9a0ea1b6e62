//! The typed client for [pactum] contracts, on reqwest.
//!
//! A contract ([`pactum::Endpoint`]) describes an operation once: method, route, and the
//! types of its params, query, JSON body and response, with their `validator` rules. The
//! server answers with it; this crate calls it:
//!
//! - **the compiler checks each call**: `.params(..)`, `.query(..)` and `.body(..)` compile
//!   only when the contract declares that part, once each, and `.send()` does not compile
//!   until the params, the body and a query whose type has no `Default` are given (a query
//!   type with a `Default` may be left out: the default is sent) — each error names the fix;
//! - **nothing invalid is sent**: params, query and body are checked against their rules
//!   before sending, and a failure carries the same `details` the server would send; the
//!   response is decoded into the contract's type and checked against its rules;
//! - **URLs are built for you**: the base URL's path is kept, each param is percent-encoded
//!   into its segment, and the query is encoded so the server parses the same value back;
//! - **one error type** ([`Error`]) tells validation (and which [`Part`]), HTTP status (with
//!   the decoded [`ErrorBody`](pactum::error::ErrorBody)), transport, timeout and decode failures
//!   apart;
//! - **not only JSON**: a [`Text`](pactum::contract::Text) contract hands back the body's text, a
//!   [`Binary`](pactum::contract::Binary) one the bytes and their content type, a
//!   [`Redirect`](pactum::contract::Redirect) one the `Location` — redirects are not followed;
//! - **in-process mode**: the same [`Client`] can call a [`Pipeline`](pactum::Pipeline) with no
//!   socket, for tests — same API, same errors.
//!
//! # Example
//!
//! ```
//! use pactum::{handler, route, Ctx, Endpoint, HttpError, NoQuery, Params, Pipeline};
//! use pactum_client::Client;
//! use serde::{Deserialize, Serialize};
//! use validator::Validate;
//!
//! #[derive(Serialize, Deserialize, Validate, Params)]
//! struct UserPath { id: u64 }
//!
//! #[derive(Serialize, Deserialize, Validate)]
//! struct NewUser {
//!     #[validate(length(min = 1, max = 50))]
//!     name: String,
//! }
//!
//! #[derive(Debug, Serialize, Deserialize, Validate)]
//! struct User { id: u64, name: String }
//!
//! // The contracts, shared by server and client.
//! let get_user = Endpoint::get(route!("/users/:id"))
//!     .params::<UserPath>()
//!     .response::<User>()
//!     .build()?;
//! let create_user = Endpoint::post(route!("/users"))
//!     .body::<NewUser>()
//!     .response::<User>()
//!     .build()?;
//!
//! // A server for them; here in-process. Over HTTP: `Client::new("http://localhost:3000/api")?`.
//! let pipeline = Pipeline::new(vec![
//!     handler(get_user.clone(), |ctx: Ctx<UserPath>| async move {
//!         match ctx.params.id {
//!             7 => Ok(User { id: 7, name: "Ada".into() }),
//!             _ => Err(HttpError::not_found("User not found").into()),
//!         }
//!     })
//!     .into(),
//!     handler(create_user.clone(), |ctx: Ctx<_, NoQuery, NewUser>| async move {
//!         Ok(User { id: 8, name: ctx.body.name })
//!     })
//!     .into(),
//! ])?;
//! let client = Client::in_process(pipeline);
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
//! let user = client.call(&get_user).params(UserPath { id: 7 }).send().await?;
//! assert_eq!(user.name, "Ada");
//!
//! let new = client.call(&create_user).body(NewUser { name: "Grace".into() }).send().await?;
//! assert_eq!(new.id, 8);
//!
//! // Checked before sending: nothing goes out, the details are the server's shape.
//! let err = client.call(&create_user).body(NewUser { name: String::new() }).send().await.unwrap_err();
//! assert_eq!(err.validation_part(), Some(pactum_client::Part::Body));
//! assert_eq!(err.details()[0].message, "length must be between 1 and 50");
//!
//! // A non-2xx answer: its status and the decoded error body.
//! let err = client.call(&get_user).params(UserPath { id: 1 }).send().await.unwrap_err();
//! assert_eq!(err.status(), Some(http::StatusCode::NOT_FOUND));
//! assert_eq!(err.error_body().unwrap().error, "User not found");
//! # Ok::<(), pactum_client::Error>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A call that lacks a required part does not compile, and the message says what to do:
//!
//! ```compile_fail
//! # use pactum::{route, Endpoint};
//! # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)] struct NewUser { name: String }
//! # let create_user = Endpoint::post(route!("/users")).body::<NewUser>().build().unwrap();
//! # let client = pactum_client::Client::new("http://localhost").unwrap();
//! // error[E0277]: this endpoint declares a request body: call `.body(..)` before `.send()`
//! let future = client.call(&create_user).send();
//! ```
//!
//! # Settings
//!
//! [`Client::builder`] sets default headers, a bearer token, the timeout (30 s by default,
//! [`DEFAULT_TIMEOUT`]), extra root certificates for HTTPS, or a `reqwest::Client` of your own.
//!
//! # TLS
//!
//! With the `rustls` feature (default), HTTPS uses rustls with the *ring* provider, trusting the system's root certificates plus
//! those added with [`ClientBuilder::add_root_certificate`]. reqwest's `aws-lc-rs` default is
//! not used. Without the feature (`default-features = false`), the client speaks plain HTTP
//! only — for in-cluster calls or the in-process transport — and no TLS stack is built.
//!
//! # reqwest
//!
//! This crate does not re-export reqwest. With the `rustls` feature, reqwest is built with
//! `rustls-no-provider`, in which `reqwest::get` and `reqwest::Client::new()` panic at run time
//! unless a rustls crypto provider was installed first — a re-exported `reqwest` would hand out
//! functions that panic, and no crate can install a provider before a free function of
//! another crate runs.
//!
//! Most programs need no reqwest of their own: [`ClientBuilder::configure_reqwest`] adjusts the
//! `reqwest::ClientBuilder` this crate makes (its closure's argument is typed by inference).
//! To pass a `reqwest::Client` of your own ([`ClientBuilder::reqwest_client`]) or to use
//! reqwest elsewhere, add `reqwest = "0.13"` to your dependencies and call
//! [`install_crypto_provider`] once before building a reqwest client (reqwest's default
//! features bring their own provider, aws-lc-rs, and need no call: it is harmless then).
#![cfg_attr(docsrs, feature(doc_cfg))]

mod builder;
mod call;
mod client;
mod credentials;
mod declared;
mod decode;
mod download;
mod error;
mod part;
mod reconnect;
mod request_params;
mod resume;
pub mod state;
#[cfg(feature = "rustls")]
mod tls;
mod transport;
mod url;

pub use builder::ClientBuilder;
pub use call::Call;
pub use client::{Client, DEFAULT_TIMEOUT};
pub use decode::Response;
pub use error::{Error, Part};
pub use reconnect::Reconnect;
pub use url::IntoBaseUrl;

#[cfg(feature = "rustls")]
#[cfg_attr(docsrs, doc(cfg(feature = "rustls")))]
pub use tls::install_crypto_provider;
