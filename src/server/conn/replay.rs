//! [`Replay`]: the bytes [`HeadDeadline`](super::head_deadline::HeadDeadline) read to tell
//! the protocol, handed out again first.

use std::ops::Deref;

/// At most the HTTP/2 preface's 24 bytes.
const MOST: usize = 24;

/// The first bytes of a connection, read to tell its protocol, kept until handed out: a
/// pointer in every connection's task (a `Bytes` was 32 bytes), boxed while it holds any
/// (one 26-byte allocation), freed once handed out. Its methods are the ones of `Bytes` that
/// [`HeadDeadline`](super::head_deadline::HeadDeadline) reads.
#[derive(Debug, Default)]
pub(super) struct Replay(Option<Box<Bytes24>>);

impl Replay {
    /// None.
    pub(super) fn new() -> Self {
        Self(None)
    }

    /// A copy of `bytes`, at most 24.
    pub(super) fn copy_from_slice(bytes: &[u8]) -> Self {
        if bytes.is_empty() {
            return Self(None);
        }
        let mut kept = Bytes24 {
            bytes: [0; MOST],
            start: 0,
            // At most 24.
            end: bytes.len() as u8,
        };
        kept.bytes[..bytes.len()].copy_from_slice(bytes);
        Self(Some(Box::new(kept)))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub(super) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |kept| kept.len())
    }

    /// The first `n` bytes (at most all), which are no longer kept.
    pub(super) fn split_to(&mut self, n: usize) -> Bytes24 {
        let Some(kept) = self.0.as_mut() else {
            return Bytes24::default();
        };
        let mut first = **kept;
        // At most the bytes kept, 24.
        let n = n.min(kept.len()) as u8;
        first.end = first.start + n;
        kept.start += n;
        if kept.is_empty() {
            self.0 = None;
        }
        first
    }
}

/// Up to 24 bytes, `bytes[start..end]`.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Bytes24 {
    bytes: [u8; MOST],
    start: u8,
    end: u8,
}

impl Deref for Bytes24 {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[usize::from(self.start)..usize::from(self.end)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handed_out_in_parts_then_freed() {
        let mut replay = Replay::copy_from_slice(b"PRI * HTTP/2.0");
        assert_eq!(replay.len(), 14);
        assert_eq!(&*replay.split_to(4), b"PRI ");
        assert_eq!(replay.len(), 10);
        assert_eq!(&*replay.split_to(100), b"* HTTP/2.0");
        assert!(replay.is_empty());
        assert_eq!(replay.len(), 0);
        assert!(replay.split_to(3).is_empty());
        assert!(Replay::copy_from_slice(b"").is_empty());
        assert!(Replay::new().is_empty());
    }
}
