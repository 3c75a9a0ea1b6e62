//! Row 24, an upload: `POST /uploads` takes a `multipart/form-data` form with a text field
//! `title` and a file `file` of at most 1 MiB, and answers with the file's size and SHA-256.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    handler, handler::AnyHandler, route, upload::FilePart, upload::Multipart, Ctx, Endpoint,
    NoParams, NoQuery,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::built;

/// The largest file `POST /uploads` takes: 1 MiB, the file's own bytes.
pub const MAX_UPLOAD: usize = 1 << 20;

/// The form of `POST /uploads`: these two fields and no other (an unknown field is a 400, and
/// the document says `additionalProperties: false`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    #[validate(length(min = 1, max = 100))]
    pub title: String,
    /// At most 1 MiB.
    pub file: FilePart,
}

/// What `POST /uploads` answers: the title, the file's name, size and SHA-256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Uploaded {
    pub title: String,
    pub filename: String,
    pub size: usize,
    /// Lowercase hex of the SHA-256 of the file's bytes.
    pub sha256: String,
}

pub fn upload() -> Endpoint<NoParams, NoQuery, Multipart<Upload>, Uploaded> {
    built(
        Endpoint::post(route!("/uploads"))
            .body::<Multipart<Upload>>()
            .field_limit("file", MAX_UPLOAD)
            // The whole form: the file, the title and the framing around them.
            .body_limit(MAX_UPLOAD + 64 * 1024)
            .response::<Uploaded>()
            .name("upload")
            .summary("Upload a titled file")
            .tag("uploads")
            .build(),
    )
}

/// Lowercase hex of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The handler of row 24.
pub fn upload_handler() -> AnyHandler {
    handler(
        upload(),
        |ctx: Ctx<NoParams, NoQuery, Multipart<Upload>>| async move {
            let Upload { title, file } = ctx.body.into_inner();
            Ok(Uploaded {
                title,
                filename: file.filename().unwrap_or_default().to_owned(),
                size: file.len(),
                sha256: sha256_hex(file.bytes()),
            })
        },
    )
    .documented()
}
