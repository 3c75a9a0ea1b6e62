//! [`Response`]: the response the pipeline makes.

/// A response as the pipeline makes it: a fully buffered body.
pub type Response = http::Response<bytes::Bytes>;
