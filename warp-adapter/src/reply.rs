//! The pipeline's [`pactum::pipeline::Response`] as warp's reply.

use http_body_util::BodyDataStream;
use warp::reply::{Reply, Response};

/// A whole body as warp's bytes body; a streamed one (server-sent events) as warp's stream,
/// frame by frame. Status, headers and extensions are kept.
pub(crate) fn into_warp(response: pactum::pipeline::Response) -> Response {
    let (parts, body) = response.into_parts();
    let body = match body.into_bytes() {
        Ok(bytes) => return http::Response::from_parts(parts, bytes).into_response(),
        Err(streamed) => warp::reply::stream(BodyDataStream::new(streamed))
            .into_response()
            .into_body(),
    };
    http::Response::from_parts(parts, body)
}
