//! [`Replay`]: the bytes [`HeadDeadline`](super::head_deadline::HeadDeadline) read to tell
//! the protocol, handed out again first.

use tokio::io::ReadBuf;

/// At most the HTTP/2 preface's 24 bytes.
const MOST: usize = 24;

/// The first bytes of a connection, read to tell its protocol, kept until handed out: a
/// pointer in every connection's task (a `Bytes` was 32 bytes), boxed while it holds any
/// (one 26-byte allocation), freed once handed out.
#[derive(Debug, Default)]
pub(super) struct Replay(Option<Box<Kept>>);

/// Up to 24 bytes, `bytes[start..end]`.
#[derive(Debug)]
struct Kept {
    bytes: [u8; MOST],
    start: u8,
    end: u8,
}

impl Replay {
    /// A copy of `bytes` (at most 24).
    pub(super) fn copy_from_slice(bytes: &[u8]) -> Self {
        if bytes.is_empty() {
            return Self::default();
        }
        let mut kept = Kept {
            bytes: [0; MOST],
            start: 0,
            // At most 24.
            end: bytes.len() as u8,
        };
        kept.bytes[..bytes.len()].copy_from_slice(bytes);
        Self(Some(Box::new(kept)))
    }

    /// Whether every byte was handed out.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Hands out as many of the bytes kept as `buf` has room for; freed once all are.
    pub(super) fn put_into(&mut self, buf: &mut ReadBuf<'_>) {
        let Some(kept) = self.0.as_mut() else {
            return;
        };
        let rest = &kept.bytes[usize::from(kept.start)..usize::from(kept.end)];
        let n = rest.len().min(buf.remaining());
        buf.put_slice(&rest[..n]);
        // At most the 24 bytes kept.
        kept.start += n as u8;
        if kept.start == kept.end {
            self.0 = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handed_out_as_room_allows_then_freed() {
        let mut replay = Replay::copy_from_slice(b"PRI * HTTP/2.0");
        let mut small = [0; 4];
        let mut buf = ReadBuf::new(&mut small);
        replay.put_into(&mut buf);
        assert_eq!(buf.filled(), b"PRI ");
        assert!(!replay.is_empty());
        let mut large = [0; 100];
        let mut buf = ReadBuf::new(&mut large);
        replay.put_into(&mut buf);
        assert_eq!(buf.filled(), b"* HTTP/2.0");
        assert!(replay.is_empty());
        replay.put_into(&mut buf);
        assert_eq!(buf.filled(), b"* HTTP/2.0", "nothing more");
        assert!(Replay::copy_from_slice(b"").is_empty());
        assert!(Replay::default().is_empty());
    }
}
