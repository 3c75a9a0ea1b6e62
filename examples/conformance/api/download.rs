//! Row 27, a streamed download: `GET /download?size=N` streams `N` pseudo-random bytes, made
//! chunk by chunk as the connection takes them (never held whole), with their length.

use std::task::Poll;

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    contract::Download, handler, handler::AnyHandler, route, Ctx, Endpoint, NoBody, NoParams,
};
use serde::{Deserialize, Serialize};

use super::built;

/// The largest download: 100 MiB.
pub const DOWNLOAD_MAX: u64 = 100 * 1024 * 1024;

/// The size of each chunk the server makes: 64 KiB.
pub const DOWNLOAD_CHUNK: usize = 64 * 1024;

/// `?size=`, the number of bytes, at most [`DOWNLOAD_MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct DownloadQuery {
    #[validate(range(max = 104_857_600))]
    pub size: u64,
}

pub fn download() -> Endpoint<NoParams, DownloadQuery, NoBody, Download> {
    built(
        Endpoint::get(route!("/download"))
            .query::<DownloadQuery>()
            .response::<Download>()
            .name("download")
            .summary("Stream pseudo-random bytes")
            .description(
                "`size` bytes of a fixed pseudo-random sequence (byte `i` is byte `i % 8`, \
                 little-endian, of output `i / 8`, from 0, of SplitMix64 seeded with 0), \
                 streamed with their `Content-Length`.",
            )
            .tag("ops")
            .build(),
    )
}

/// Output `index` (from 0) of SplitMix64 seeded with 0: a cheap, well-mixed function of the
/// word's index.
fn splitmix64(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The bytes `offset..offset + out.len()` of every download, written into `out`: what the
/// server sends and a test recomputes.
pub fn download_bytes(offset: u64, out: &mut [u8]) {
    let mut at = offset;
    let mut rest = out;
    while !rest.is_empty() {
        let word = splitmix64(at / 8).to_le_bytes();
        let skip = (at % 8) as usize;
        let take = (8 - skip).min(rest.len());
        let (head, tail) = rest.split_at_mut(take);
        head.copy_from_slice(&word[skip..skip + take]);
        rest = tail;
        at += take as u64;
    }
}

/// `size` bytes in chunks of [`DOWNLOAD_CHUNK`], each made when asked for, with their length
/// and a file name.
pub fn download_handler() -> AnyHandler {
    handler(download(), |ctx: Ctx<NoParams, DownloadQuery>| async move {
        let size = ctx.query.size;
        let mut sent = 0u64;
        let chunks = futures_util::stream::poll_fn(move |_| {
            if sent == size {
                return Poll::Ready(None);
            }
            let len = (size - sent).min(DOWNLOAD_CHUNK as u64) as usize;
            let mut chunk = vec![0; len];
            download_bytes(sent, &mut chunk);
            sent += len as u64;
            Poll::Ready(Some(Ok::<_, std::io::Error>(chunk)))
        });
        Ok(Download::new(chunks)
            .with_length(size)
            .with_filename(&format!("download-{size}.bin")))
    })
    .documented()
}
