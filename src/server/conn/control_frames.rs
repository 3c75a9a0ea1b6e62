//! [`ControlFrames`]: a cut-off for HTTP/2 PING and SETTINGS floods.
//!
//! h2 answers every PING and SETTINGS frame a client sends; it keeps one answer pending and
//! reads nothing more until it is written, so memory stays bounded, but a client can keep a
//! core busy answering them. h2 0.4 has no limit for them (it has one for resets), so the
//! connection counts them itself, from the frame headers of the bytes it reads (9 bytes a
//! frame; payloads are skipped, not parsed), and a connection that sends more than
//! [`LIMIT`] of them (acknowledgements aside) within [`WINDOW`] is closed.

use std::time::Duration;

use tokio::time::Instant;

/// The most PING and SETTINGS frames a connection may send within [`WINDOW`].
pub(crate) const LIMIT: u32 = 1_000;
/// See [`LIMIT`].
pub(crate) const WINDOW: Duration = Duration::from_secs(10);

const SETTINGS: u8 = 0x4;
const PING: u8 = 0x6;
const ACK: u8 = 0x1;
const HEADER: usize = 9;

/// Where an HTTP/2 connection's reading is in its frames, and how many control frames it has
/// counted since when.
#[derive(Debug, Default)]
pub(crate) struct ControlFrames {
    /// Payload bytes of the current frame still to skip (a frame's length is 24 bits).
    skip: u32,
    header: [u8; HEADER],
    have: u8,
    count: u32,
    since: Option<Instant>,
}

impl ControlFrames {
    /// Reads the frame headers in `bytes`, the next bytes of the connection after its preface:
    /// `true` once the client has sent too many PING or SETTINGS frames.
    pub(crate) fn flooded(&mut self, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            if self.skip > 0 {
                let n = bytes.len().min(self.skip as usize);
                // `n` is at most `skip`, a `u32`.
                self.skip -= n as u32;
                bytes = &bytes[n..];
                continue;
            }
            let have = usize::from(self.have);
            let n = (HEADER - have).min(bytes.len());
            self.header[have..have + n].copy_from_slice(&bytes[..n]);
            // `n` is at most `HEADER`, 9.
            self.have += n as u8;
            bytes = &bytes[n..];
            if usize::from(self.have) < HEADER {
                break;
            }
            self.have = 0;
            let [l0, l1, l2, kind, flags, ..] = self.header;
            self.skip = u32::from_be_bytes([0, l0, l1, l2]);
            if matches!(kind, PING | SETTINGS) && flags & ACK == 0 && self.counted() {
                return true;
            }
        }
        false
    }

    /// Counts one control frame: `true` past the limit within the window.
    fn counted(&mut self) -> bool {
        self.count += 1;
        if self.count <= LIMIT {
            self.since.get_or_insert_with(Instant::now);
            return false;
        }
        let now = Instant::now();
        if self.since.is_some_and(|since| now - since < WINDOW) {
            return true;
        }
        // A new window, starting with this frame.
        self.count = 1;
        self.since = Some(now);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(kind: u8, flags: u8, payload: usize) -> Vec<u8> {
        let mut out = (payload as u32).to_be_bytes()[1..].to_vec();
        out.extend_from_slice(&[kind, flags, 0, 0, 0, 0]);
        out.extend(std::iter::repeat_n(0xAA, payload));
        out
    }

    #[tokio::test]
    async fn pings_past_the_limit_are_a_flood_whatever_the_reads() {
        let mut frames = ControlFrames::default();
        let pings = frame(PING, 0, 8).repeat(LIMIT as usize);
        // Read a few bytes at a time: headers and payloads split across reads.
        for chunk in pings.chunks(7) {
            assert!(!frames.flooded(chunk));
        }
        assert!(frames.flooded(&frame(SETTINGS, 0, 6)));
    }

    #[tokio::test]
    async fn acknowledgements_and_other_frames_are_not_counted() {
        let mut frames = ControlFrames::default();
        let mut bytes = Vec::new();
        for _ in 0..2 * LIMIT {
            bytes.extend(frame(PING, ACK, 8));
            bytes.extend(frame(SETTINGS, ACK, 0));
            // A DATA frame whose payload looks like PING headers.
            bytes.extend(frame(0x0, 0, 18));
        }
        assert!(!frames.flooded(&bytes));
        assert_eq!(frames.count, 0);
    }

    #[tokio::test]
    async fn the_count_starts_again_after_the_window() {
        let mut frames = ControlFrames::default();
        let pings = frame(PING, 0, 8).repeat(LIMIT as usize);
        assert!(!frames.flooded(&pings));
        // The window began a window ago.
        frames.since = Instant::now().checked_sub(WINDOW);
        assert!(!frames.flooded(&pings[..17]));
        assert_eq!(frames.count, 1);
    }
}
