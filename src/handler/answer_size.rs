//! The size a handler's JSON answers have had, so the next one is written into a buffer of
//! the right size.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The length of the JSON a handler answered, remembered for its next answer: an answer of a
/// steady size is then written with one allocation, never grown, and handed to `Bytes`
/// without the second allocation a buffer with spare room costs it. A size that changes is
/// remembered when it outgrows the buffer or falls under half of it, so that answers of
/// varying sizes do not write to the shared counter on every request.
#[derive(Debug, Default)]
pub(crate) struct AnswerSize(AtomicUsize);

impl AnswerSize {
    /// Where a handler without a remembered size starts (serde_json's `to_vec` too).
    const FIRST: usize = 128;
    /// Larger answers are not remembered: a rare large one should not make every later
    /// buffer large.
    const MAX: usize = 64 * 1024;

    /// An empty buffer for the next answer.
    #[inline]
    pub(crate) fn buffer(&self) -> Vec<u8> {
        match self.0.load(Relaxed) {
            0 => Vec::with_capacity(Self::FIRST),
            len => Vec::with_capacity(len),
        }
    }

    /// Remembers the length of an answer written into [`AnswerSize::buffer`].
    #[inline]
    pub(crate) fn record(&self, len: usize) {
        let known = self.0.load(Relaxed);
        if len <= Self::MAX && (len > known || len < known / 2) {
            self.0.store(len, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerSize;

    #[test]
    fn a_steady_size_is_allocated_exactly() {
        let size = AnswerSize::default();
        assert_eq!(size.buffer().capacity(), AnswerSize::FIRST);
        size.record(300);
        assert_eq!(size.buffer().capacity(), 300);
        // Smaller, but not by half: the buffer stays.
        size.record(200);
        assert_eq!(size.buffer().capacity(), 300);
        size.record(100);
        assert_eq!(size.buffer().capacity(), 100);
        // Too large to remember.
        size.record(1 << 20);
        assert_eq!(size.buffer().capacity(), 100);
    }
}
