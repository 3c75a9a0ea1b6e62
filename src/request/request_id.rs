//! Request ids: the incoming `x-request-id` header when it is sane, else one made from a
//! per-process random seed and a counter. Made lazily: routing a request costs one
//! thread-local increment; the id is written out only when something reads it (the span, a
//! handler, the error formatter).

use std::borrow::Cow;
use std::cell::Cell;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use http::{HeaderMap, HeaderName};

/// The header a request id is taken from: `x-request-id`.
///
/// The pipeline reads it (see [`Ctx::request_id`](crate::Ctx::request_id)) but does not add
/// it to responses. To echo the id, as tower-http's `PropagateRequestId` does, add it in a
/// server-wide middleware:
///
/// ```
/// use http::HeaderValue;
/// use pactum::{middleware, Pipeline, pipeline::REQUEST_ID_HEADER};
///
/// let echo_id = middleware::from_fn(|req, next| async move {
///     let id = HeaderValue::try_from(req.request_id().as_ref());
///     let mut response = next.run(req).await?;
///     if let Ok(id) = id {
///         response.headers_mut().insert(REQUEST_ID_HEADER, id);
///     }
///     Ok(response)
/// });
/// let pipeline = Pipeline::builder(vec![]).middleware(echo_id).build()?;
/// # Ok::<(), pactum::error::ConfigError>(())
/// ```
///
/// (An error answer does not pass through `next.run`'s `Ok`: to echo it on errors too, use
/// [`PipelineBuilder::error_formatter_with`](crate::pipeline::PipelineBuilder::error_formatter_with).)
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The longest incoming id kept, in bytes; a longer one is replaced by a generated id.
pub(crate) const MAX_REQUEST_ID_LEN: usize = 200;

/// The next request's serial number (from 1; 0 is a context built by hand).
///
/// Each thread takes a block of [`SERIAL_BLOCK`] serials from the process-wide counter and
/// hands them out in order: a request costs a thread-local increment, not an atomic
/// read-modify-write (a locked instruction, tens of cycles). Serials stay unique within the
/// process; across threads they are not in arrival order.
pub(crate) fn next_serial() -> u64 {
    thread_local! {
        /// The thread's next serial and the end of its block.
        static BLOCK: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    }
    BLOCK
        .try_with(|block| {
            let (mut next, mut end) = block.get();
            if next == end {
                next = SERIAL.fetch_add(SERIAL_BLOCK, Ordering::Relaxed);
                end = next + SERIAL_BLOCK;
            }
            block.set((next + 1, end));
            next
        })
        // A thread being torn down takes one serial alone.
        .unwrap_or_else(|_| SERIAL.fetch_add(1, Ordering::Relaxed))
}

/// How many serials a thread takes from the process-wide counter at once.
const SERIAL_BLOCK: u64 = 1024;

/// The process-wide counter serial blocks are taken from (from 1; 0 is a context built by
/// hand).
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// The request's id: its `x-request-id` header when present and sane (1 to 200 bytes of
/// visible ASCII), else the id generated from `serial`.
pub(crate) fn request_id(headers: &HeaderMap, serial: u64) -> Cow<'_, str> {
    match headers.get(REQUEST_ID_HEADER).map(|v| v.as_bytes()) {
        Some(bytes) if is_sane(bytes) => {
            // Visible ASCII is UTF-8.
            Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default())
        }
        _ => Cow::Owned(generated(serial)),
    }
}

fn is_sane(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes.len() <= MAX_REQUEST_ID_LEN
        && bytes.iter().all(|b| (0x21..=0x7e).contains(b))
}

/// `<16 hex digits of this process's random seed>-<serial in hex>`: unique within the
/// process, and across processes with a 64-bit chance.
fn generated(serial: u64) -> String {
    static SEED: OnceLock<u64> = OnceLock::new();
    let seed = SEED.get_or_init(|| {
        // std's hasher keys are random per process (seeded from the OS).
        let mut hasher = std::hash::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    });
    format!("{seed:016x}-{serial:x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn serials_are_unique_across_threads_and_in_order_within_one() {
        let taken: Vec<Vec<u64>> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| (0..3 * SERIAL_BLOCK).map(|_| next_serial()).collect()))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for serials in &taken {
            assert!(serials.windows(2).all(|w| w[0] < w[1]), "in order");
        }
        let mut all: Vec<u64> = taken.concat();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count, "no serial handed out twice");
        assert!(!all.contains(&0), "0 is a context built by hand");
    }

    #[test]
    fn a_sane_header_is_taken() {
        let mut headers = HeaderMap::new();
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static("abc-123"));
        assert_eq!(request_id(&headers, 7), "abc-123");
    }

    #[test]
    fn an_insane_header_is_replaced() {
        let mut headers = HeaderMap::new();
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static("has space"));
        let id = request_id(&headers, 7);
        assert!(id.ends_with("-7"), "{id}");
        let long = "a".repeat(MAX_REQUEST_ID_LEN + 1);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_str(&long).unwrap());
        assert!(request_id(&headers, 7).ends_with("-7"));
        let longest = "a".repeat(MAX_REQUEST_ID_LEN);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_str(&longest).unwrap());
        assert_eq!(request_id(&headers, 7), longest);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static(""));
        assert!(request_id(&headers, 7).ends_with("-7"));
    }

    #[test]
    fn generated_ids_differ_by_serial_and_share_the_seed() {
        let headers = HeaderMap::new();
        let (a, b) = (
            request_id(&headers, next_serial()),
            request_id(&headers, next_serial()),
        );
        assert_ne!(a, b);
        assert_eq!(a.split('-').next(), b.split('-').next());
        assert_eq!(a.split('-').next().map(str::len), Some(16));
    }
}
