//! The buffer a large body is gathered in, kept per thread and used again by the next large
//! body once the last one's bytes are dropped: no allocation and no free of the body's size
//! per request.
//!
//! On glibc's allocator, allocating the body's buffer (a "large" block, over 1 KiB) made it
//! merge every small block the previous request freed first, and the next parse took its
//! strings by the slow path (`benches/README.md`, "Large bodies").

use std::cell::RefCell;

use bytes::{Bytes, BytesMut};

/// A buffer grown past this is freed rather than kept: a thread keeps at most this much.
const KEPT_AT_MOST: usize = 1024 * 1024;

thread_local! {
    static KEPT: RefCell<BytesMut> = RefCell::new(BytesMut::new());
}

/// An empty buffer with room for `len` bytes: the thread's kept one, whose space is taken
/// back when the bytes last gathered in it are all dropped (else a new one).
pub(crate) fn take(len: usize) -> BytesMut {
    let mut buffer = KEPT.with(|kept| std::mem::take(&mut *kept.borrow_mut()));
    buffer.reserve(len);
    buffer
}

/// The bytes gathered in a [`take`]n buffer; the buffer is kept for the thread's next large
/// body (unless it grew past [`KEPT_AT_MOST`]), its space back once these bytes are dropped.
pub(crate) fn freeze(mut buffer: BytesMut) -> Bytes {
    let kept = buffer.capacity() <= KEPT_AT_MOST;
    let bytes = buffer.split().freeze();
    if kept {
        KEPT.with(|slot| *slot.borrow_mut() = buffer);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::{freeze, take};

    /// Gathers `body` in the thread's kept buffer, as `BodyRead` does.
    fn gather(body: &[u8]) -> bytes::Bytes {
        let mut buffer = take(body.len());
        buffer.extend_from_slice(body);
        freeze(buffer)
    }

    #[test]
    fn the_space_comes_back_once_the_bytes_are_dropped() {
        let body = vec![7u8; 100_000];
        let first = gather(&body);
        let at = first.as_ptr();
        drop(first);
        let second = gather(&body);
        assert_eq!(second.as_ptr(), at, "the same space, no allocation");
        assert_eq!(&second[..], &body[..]);
        // Still held: the next body gets space of its own, and both stay intact.
        let third = gather(&[1u8; 50_000]);
        assert_ne!(third.as_ptr(), at);
        assert_eq!(&second[..], &body[..]);
        assert!(third.iter().all(|b| *b == 1));
    }

    #[test]
    fn a_buffer_past_the_cap_is_not_kept() {
        let big = gather(&vec![0u8; super::KEPT_AT_MOST + 1]);
        drop(big);
        // Kept, its space would come back whole here.
        assert!(take(10).capacity() < super::KEPT_AT_MOST);
    }
}
