//! [`Rejection`]: the answers the pipeline gives on its own, each named once with its status
//! and message.

use http::StatusCode;

/// An answer the pipeline gives on its own (not one a handler or middleware returned), with
/// its fixed status and message. [`Error::rejection`](crate::Error::rejection) tells which;
/// the OpenAPI document lists them from here.
///
/// ```
/// use pactum::{handler, route, pipeline::Body, Endpoint, Pipeline, error::Rejection};
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let pipeline = Pipeline::new(vec![handler(ping, |_| async { Ok(pactum::contract::NoContent) }).into()])?;
/// let request = http::Request::delete("/ping").body(Body::empty())?;
/// let routed = pipeline.route(request.method(), request.uri().path()).unwrap();
/// let error = pipeline.dispatch(routed, request).await.unwrap_err();
/// assert_eq!(error.rejection(), Some(Rejection::MethodNotAllowed));
/// assert_eq!(Rejection::MethodNotAllowed.status(), 405);
/// assert_eq!(Rejection::MethodNotAllowed.message(), "Method not allowed");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rejection {
    /// 400 `Validation failed`: params, query or body do not fit their type or rules; the
    /// details say where.
    ValidationFailed,
    /// 400 `Invalid JSON`: a declared body is not JSON, or is empty; one detail with the
    /// parser's message.
    InvalidJson,
    /// 400 `Failed to read request body`: the body stream failed while it was read.
    BodyUnreadable,
    /// 400 `Invalid multipart body`: a [`Multipart`](crate::upload::Multipart) body without a
    /// boundary, or with broken framing; one detail with the reader's message.
    InvalidMultipart,
    /// 401 `Unauthorized`: the contract requires a credential
    /// ([`Security`](crate::Security)) the request does not carry; with
    /// `WWW-Authenticate: Bearer` when a bearer token would do.
    Unauthorized,
    /// 404 `Not found`: no route has this path.
    NotFound,
    /// 405 `Method not allowed`: the path exists with other methods (listed in `Allow`).
    MethodNotAllowed,
    /// 413 `Payload too large`: the body is over its limit.
    PayloadTooLarge,
    /// 415 `Unsupported media type`: a declared body is not `application/json` or `+json`
    /// (`multipart/form-data` for a [`Multipart`](crate::upload::Multipart) body).
    UnsupportedMediaType,
    /// 500 `Internal server error`: a handler or middleware panicked.
    Panicked,
    /// 500 `Response validation failed`: the handler's value broke its rules (logged, not
    /// sent).
    ResponseValidationFailed,
    /// 500 `Response serialization failed`: the handler's value could not be written as JSON.
    ResponseSerializationFailed,
    /// 503 `Request timeout`: the request took longer than the pipeline's request timeout.
    /// Logged at `warn`, at most once a second.
    RequestTimeout,
    /// 400 `Bad request`: the native server could not parse the request head (request line,
    /// header bytes, `Content-Length`, `Transfer-Encoding`), or an HTTP/1 request does not have
    /// exactly one valid `Host` (RFC 9112 §3.2); answered by the connection, before routing,
    /// and the connection closed.
    MalformedRequest,
    /// 414 `URI too long`: the request target is longer than the native server parses (64 KiB,
    /// so only with a larger `max_head_bytes`); answered by the connection, before routing.
    UriTooLong,
    /// 431 `Request header fields too large`: the request head is over the native server's
    /// `max_head_bytes` or has more than `max_headers` headers (HTTP/1.1 and HTTP/2);
    /// answered by the connection, before routing.
    HeadTooLarge,
    /// 400 `Invalid request URI`: the request target is not a URI; answered by an adapter that
    /// receives the target as text (the warp adapter), before routing.
    InvalidUri,
}

impl Rejection {
    /// Every rejection, in the order above.
    pub const ALL: [Rejection; 17] = [
        Self::ValidationFailed,
        Self::InvalidJson,
        Self::BodyUnreadable,
        Self::InvalidMultipart,
        Self::Unauthorized,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::PayloadTooLarge,
        Self::UnsupportedMediaType,
        Self::Panicked,
        Self::ResponseValidationFailed,
        Self::ResponseSerializationFailed,
        Self::RequestTimeout,
        Self::MalformedRequest,
        Self::UriTooLong,
        Self::HeadTooLarge,
        Self::InvalidUri,
    ];

    /// The status it is answered with.
    pub const fn status(self) -> StatusCode {
        match self {
            Self::ValidationFailed
            | Self::InvalidJson
            | Self::BodyUnreadable
            | Self::InvalidMultipart
            | Self::MalformedRequest
            | Self::InvalidUri => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Panicked | Self::ResponseValidationFailed | Self::ResponseSerializationFailed => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            Self::RequestTimeout => StatusCode::SERVICE_UNAVAILABLE,
            Self::UriTooLong => StatusCode::URI_TOO_LONG,
            Self::HeadTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        }
    }

    /// The `error` message of its body.
    pub const fn message(self) -> &'static str {
        match self {
            Self::ValidationFailed => "Validation failed",
            Self::InvalidJson => "Invalid JSON",
            Self::BodyUnreadable => "Failed to read request body",
            Self::InvalidMultipart => "Invalid multipart body",
            Self::Unauthorized => "Unauthorized",
            Self::NotFound => "Not found",
            Self::MethodNotAllowed => "Method not allowed",
            Self::PayloadTooLarge => "Payload too large",
            Self::UnsupportedMediaType => "Unsupported media type",
            Self::Panicked => "Internal server error",
            Self::ResponseValidationFailed => "Response validation failed",
            Self::ResponseSerializationFailed => "Response serialization failed",
            Self::RequestTimeout => "Request timeout",
            Self::MalformedRequest => "Bad request",
            Self::UriTooLong => "URI too long",
            Self::HeadTooLarge => "Request header fields too large",
            Self::InvalidUri => "Invalid request URI",
        }
    }
}
