//! Request ids: the incoming `x-request-id` header when a trusted proxy sent it and it is sane,
//! else one made from a per-process random seed and a counter. Made lazily: routing a request
//! costs one thread-local increment; the id is written out only when something reads it (the
//! response's `x-request-id`, the span, a handler, the error formatter).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use bytes::{Bytes, BytesMut};
use http::{HeaderMap, HeaderName, HeaderValue};

use super::Remote;

/// The header a request id is read from and echoed in: `x-request-id`.
///
/// A request's id is the `x-request-id` it came with when its peer is a trusted proxy
/// ([`PipelineBuilder::trusted_proxies`](crate::pipeline::PipelineBuilder::trusted_proxies))
/// and the value is sane (1 to 200 bytes of visible ASCII), else the id generated for it (16
/// hex digits). With
/// [`PipelineBuilder::echo_request_id`](crate::pipeline::PipelineBuilder::echo_request_id),
/// every answer carries it in this header, errors included.
/// The same id is on the request's tracing span, from
/// [`Ctx::request_id`](crate::Ctx::request_id) and in the error formatter's
/// [`RequestInfo`](crate::error::RequestInfo).
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

/// The request's id: its `x-request-id` header when `remote` believes it and it is sane (1 to
/// 200 bytes of visible ASCII), else the id generated from `remote`'s serial.
pub(crate) fn request_id<'h>(headers: &'h HeaderMap, remote: &Remote) -> Cow<'h, str> {
    match kept(headers, remote) {
        // Visible ASCII is UTF-8.
        Some(value) => Cow::Borrowed(value.to_str().unwrap_or_default()),
        None => Cow::Owned(generated_text(remote.serial())),
    }
}

/// The incoming id, when the peer is believed and the value is sane.
#[inline]
fn kept<'h>(headers: &'h HeaderMap, remote: &Remote) -> Option<&'h HeaderValue> {
    if !remote.trusted() {
        return None;
    }
    headers
        .get(REQUEST_ID_HEADER)
        .filter(|value| is_sane(value.as_bytes()))
}

fn is_sane(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes.len() <= MAX_REQUEST_ID_LEN
        && bytes.iter().all(|b| (0x21..=0x7e).contains(b))
}

/// The id generated for serial `serial`: the serial mixed with this process's random seed
/// (a bijection, so unique within the process; across processes with a 64-bit chance), so
/// that ids do not tell a client how many requests the server has answered. Written as 16
/// hex digits.
fn generated(serial: u64) -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    let seed = SEED.get_or_init(|| {
        // std's hasher keys are random per process (seeded from the OS).
        let mut hasher = std::hash::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    });
    // An odd multiplier is a bijection of `u64` (Fibonacci hashing's constant).
    serial.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed
}

/// The generated id of serial `serial`, as text.
fn generated_text(serial: u64) -> String {
    format!("{:016x}", generated(serial))
}

/// The generated id of serial `serial`, as a header value: its digits cut from a buffer of
/// the thread's (one allocation per 256 ids, not one per id).
fn generated_value(serial: u64) -> HeaderValue {
    thread_local! {
        static IDS: RefCell<BytesMut> = RefCell::new(BytesMut::new());
    }
    let digits = hex_digits(generated(serial));
    let bytes = IDS
        .try_with(|ids| {
            let mut ids = ids.borrow_mut();
            if ids.capacity() < digits.len() {
                *ids = BytesMut::with_capacity(256 * digits.len());
            }
            ids.extend_from_slice(&digits);
            ids.split().freeze()
        })
        // A thread being torn down allocates.
        .unwrap_or_else(|_| Bytes::copy_from_slice(&digits));
    HeaderValue::from_maybe_shared(bytes).expect("hex digits are a header value")
}

/// `id` as 16 lowercase hex digits, eight at a time: each nibble spread to a byte of its own,
/// then every byte made a digit at once (`0`–`9` is `'0' + n`, `a`–`f` is `'0' + n + 39`).
fn hex_digits(id: u64) -> [u8; 16] {
    fn eight(half: u32) -> [u8; 8] {
        let mut v = u64::from(half);
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        // 1 in each byte whose nibble is 10 or more.
        let letters = ((v + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
        (v + 0x3030_3030_3030_3030 + letters * 39).to_be_bytes()
    }
    let mut digits = [0u8; 16];
    digits[..8].copy_from_slice(&eight((id >> 32) as u32));
    digits[8..].copy_from_slice(&eight(id as u32));
    digits
}

/// The id a request's answer echoes in `x-request-id`: decided when the request is
/// dispatched (its headers move on to the handler), written when it is answered.
#[derive(Debug)]
pub(crate) enum EchoedId {
    /// The id generated for this serial.
    Generated(u64),
    /// The incoming id a trusted proxy sent (boxed: rare, and the futures stay small).
    Kept(Box<HeaderValue>),
}

impl EchoedId {
    /// The id of the request with `headers` from `remote`.
    #[inline]
    pub(crate) fn of(headers: &HeaderMap, remote: &Remote) -> Self {
        match kept(headers, remote) {
            Some(value) => Self::Kept(Box::new(value.clone())),
            None => Self::Generated(remote.serial()),
        }
    }

    /// Sets `x-request-id` on an answer that has none (a handler's own is kept).
    #[inline]
    pub(crate) fn echo(self, headers: &mut HeaderMap) {
        if let http::header::Entry::Vacant(vacant) = headers.entry(REQUEST_ID_HEADER) {
            vacant.insert(self.into_value());
        }
    }

    fn into_value(self) -> HeaderValue {
        match self {
            Self::Generated(serial) => generated_value(serial),
            Self::Kept(value) => *value,
        }
    }

    /// The id as text (for the error formatter's view).
    pub(crate) fn to_text(&self) -> String {
        match self {
            Self::Generated(serial) => generated_text(*serial),
            Self::Kept(value) => value.to_str().unwrap_or_default().to_owned(),
        }
    }
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

    fn remote(serial: u64, trusted: bool) -> Remote {
        let mut remote = Remote::new(None, trusted);
        remote.set_serial(serial);
        remote
    }

    #[test]
    fn a_sane_header_is_taken_from_a_trusted_peer_only() {
        let mut headers = HeaderMap::new();
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static("abc-123"));
        assert_eq!(request_id(&headers, &remote(7, true)), "abc-123");
        let untrusted = request_id(&headers, &remote(7, false));
        assert_eq!(untrusted, generated_text(7));
        let mut answer = HeaderMap::new();
        EchoedId::of(&headers, &remote(7, true)).echo(&mut answer);
        assert_eq!(answer[REQUEST_ID_HEADER], "abc-123");
        let mut answer = HeaderMap::new();
        EchoedId::of(&headers, &remote(7, false)).echo(&mut answer);
        assert_eq!(answer[REQUEST_ID_HEADER], untrusted.as_ref());
    }

    #[test]
    fn an_insane_header_is_replaced() {
        let generated_7 = generated_text(7);
        let trusted = remote(7, true);
        let mut headers = HeaderMap::new();
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static("has space"));
        assert_eq!(request_id(&headers, &trusted), generated_7);
        let long = "a".repeat(MAX_REQUEST_ID_LEN + 1);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_str(&long).unwrap());
        assert_eq!(request_id(&headers, &trusted), generated_7);
        let longest = "a".repeat(MAX_REQUEST_ID_LEN);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_str(&longest).unwrap());
        assert_eq!(request_id(&headers, &trusted), longest);
        headers.insert(REQUEST_ID_HEADER, HeaderValue::from_static(""));
        assert_eq!(request_id(&headers, &trusted), generated_7);
    }

    #[test]
    fn generated_ids_differ_by_serial_and_do_not_count() {
        let headers = HeaderMap::new();
        let ids: Vec<u64> = (1..=1000)
            .map(|serial| {
                let id = request_id(&headers, &remote(serial, false));
                assert_eq!(id.len(), 16, "{id}");
                u64::from_str_radix(&id, 16).unwrap()
            })
            .collect();
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), ids.len());
        // Consecutive serials are not consecutive ids.
        assert!(ids.windows(2).all(|w| w[0].abs_diff(w[1]) > 1_000_000), "{ids:?}");
    }

    #[test]
    fn an_answer_keeps_its_own_id() {
        let mut answer = HeaderMap::new();
        answer.insert(REQUEST_ID_HEADER, HeaderValue::from_static("mine"));
        EchoedId::Generated(3).echo(&mut answer);
        assert_eq!(answer[REQUEST_ID_HEADER], "mine");
        assert_eq!(answer.len(), 1);
    }

    #[test]
    fn header_values_spell_the_text_across_buffers() {
        // More ids than one buffer holds: the buffer is replaced, earlier values stay whole.
        let values: Vec<(HeaderValue, String)> = (1..=600)
            .map(|serial| (generated_value(serial), generated_text(serial)))
            .collect();
        for (value, text) in &values {
            assert_eq!(value, text.as_str());
        }
    }

    #[test]
    fn hex_digits_are_format_s() {
        for id in [0, 1, 0xa, 0xf0, u64::MAX, 0x0123_4567_89ab_cdef, generated(99)] {
            assert_eq!(hex_digits(id), format!("{id:016x}").as_bytes(), "{id:x}");
        }
    }
}
