//! Rows 20 and 21: a signed webhook (the raw body beside the parsed one) and the client's
//! address.

use hmac::{Hmac, Mac};
use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    handler, handler::AnyHandler, middleware, middleware::Middleware, route, Ctx, Endpoint,
    HttpError, NoBody, NoParams, NoQuery,
};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::built;

/// The webhook's shared secret.
pub const WEBHOOK_KEY: &[u8] = b"whsec";

/// The header that carries the signature: `sha256=<lowercase hex HMAC-SHA256>`.
pub const SIGNATURE_HEADER: &str = "x-signature";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct WebhookEvent {
    #[validate(length(min = 1, max = 50))]
    pub event: String,
}

/// The webhook's signature, declared as a header param: the document lists it, generated
/// clients and the typed client send it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct WebhookSignature {
    /// `sha256=` and the lowercase hex HMAC-SHA256 of the exact request body with the key
    /// `whsec`.
    #[validate(length(min = 71, max = 71))]
    pub x_signature: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct WebhookAck {
    pub ok: bool,
    pub event: String,
    /// The length of the signed body, in bytes.
    pub bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct WhoAmI {
    /// The peer's IP address as the server saw it.
    pub ip: String,
}

pub fn webhook(
) -> Endpoint<NoParams, NoQuery, WebhookEvent, WebhookAck, pactum::error::NoErrors, WebhookSignature>
{
    built(
        Endpoint::post(route!("/webhooks"))
            .headers::<WebhookSignature>()
            .body::<WebhookEvent>()
            .response::<WebhookAck>()
            .status(pactum::http::StatusCode::OK)
            .middleware(signed())
            .name("webhook")
            .summary("Receive an event signed over its exact bytes")
            .tag("raw")
            .http_error(
                pactum::http::StatusCode::UNAUTHORIZED,
                "`Invalid signature`: `X-Signature` is missing or is not `sha256=` and the \
                 lowercase hex HMAC-SHA256 of the exact body with the key `whsec`; checked \
                 before the body's rules.",
            )
            .build(),
    )
}

pub fn whoami() -> Endpoint<NoParams, NoQuery, NoBody, WhoAmI> {
    built(
        Endpoint::get(route!("/whoami"))
            .response::<WhoAmI>()
            .name("whoami")
            .summary("The client's address as the server saw it")
            .tag("raw")
            .build(),
    )
}

/// `sha256=<hex>`: the signature of `body` with [`WEBHOOK_KEY`], as senders compute it.
pub fn sign(body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(WEBHOOK_KEY).expect("HMAC takes any key");
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

/// Checks `X-Signature` over the exact body bytes, before the body is parsed: 401
/// `Invalid signature` when it is missing or wrong. The bytes are read once: the pipeline
/// parses the same ones.
pub fn signed() -> Middleware {
    middleware::from_fn(|mut req, next| async move {
        let invalid = || HttpError::unauthorized("Invalid signature");
        let signature = req
            .headers()
            .get(SIGNATURE_HEADER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("sha256="))
            .and_then(decode_hex)
            .ok_or_else(invalid)?;
        let bytes = req.body_bytes().await?;
        let mut mac = Hmac::<Sha256>::new_from_slice(WEBHOOK_KEY).expect("HMAC takes any key");
        mac.update(&bytes);
        // Constant-time comparison.
        mac.verify_slice(&signature).map_err(|_| invalid())?;
        next.run(req).await
    })
}

/// Lowercase hex, as the signature header carries it.
fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// The handlers of rows 20 and 21.
pub fn raw_handlers() -> Vec<AnyHandler> {
    vec![
        handler(
            webhook(),
            |ctx: Ctx<NoParams, NoQuery, WebhookEvent, WebhookSignature>| async move {
                Ok(WebhookAck {
                    ok: true,
                    bytes: ctx.raw_body().len(),
                    event: ctx.body.event,
                })
            },
        )
        .documented(),
        handler(whoami(), |ctx: Ctx| async move {
            let ip = ctx
                .client_ip()
                .ok_or_else(|| HttpError::internal("no peer address"))?;
            Ok(WhoAmI { ip: ip.to_string() })
        })
        .documented(),
    ]
}
