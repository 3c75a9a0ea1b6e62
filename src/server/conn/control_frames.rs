//! [`ControlFrames`]: a cut-off for HTTP/2 PING and SETTINGS floods.
//!
//! h2 answers every PING and SETTINGS frame a client sends; it keeps one answer pending and
//! reads nothing more until it is written, so memory stays bounded, but a client can keep a
//! core busy answering them. h2 0.4 has no limit for them (it has one for resets), so the
//! connection counts them itself, from the frame headers of the bytes it reads (9 bytes a
//! frame; payloads are skipped, not parsed), and a connection that sends more than
//! [`LIMIT`] of them (acknowledgements aside) within [`WINDOW`] is closed.

use std::sync::OnceLock;
use std::time::Duration;

use tokio::time::Instant;

/// The most PING and SETTINGS frames a connection may send within [`WINDOW`].
pub(crate) const LIMIT: u32 = 1_000;
/// See [`LIMIT`].
pub(crate) const WINDOW: Duration = Duration::from_secs(10);
/// [`WINDOW`] in milliseconds of [`millis`]' clock.
const WINDOW_MS: u32 = WINDOW.as_millis() as u32;

const SETTINGS: u8 = 0x4;
const PING: u8 = 0x6;
const ACK: u8 = 0x1;
const HEADER: usize = 9;
/// The header's bytes kept: its length, type and flags (not its stream id).
const KEPT: usize = 5;

/// Where an HTTP/2 connection's reading is in its frames, and how many control frames it has
/// counted since when.
///
/// In every HTTP/2 connection's task (its IO's): 16 bytes (40 with the whole header kept, a
/// `u32` count and an `Option<Instant>`).
#[derive(Debug, Default)]
pub(crate) struct ControlFrames {
    /// Payload bytes of the current frame still to skip (a frame's length is 24 bits).
    skip: u32,
    header: [u8; KEPT],
    /// How many of the current frame header's 9 bytes were read.
    have: u8,
    /// At most `LIMIT + 1` within a window (a flood then).
    count: u16,
    /// When the window started, on [`millis`]' clock: set with its first frame (`count` 1).
    since: u32,
}

/// Milliseconds on a clock of the process (tokio's, from its first read here), wrapping
/// after 49 days: a window is read with a wrapping subtraction, wrong only for a window
/// started a multiple of 49 days before (within 10 s), on a connection that sent over
/// [`LIMIT`] control frames in it.
fn millis() -> u32 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    // Truncated to the wrapping clock.
    Instant::now().saturating_duration_since(start).as_millis() as u32
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
            let kept = KEPT.saturating_sub(have).min(n);
            if kept > 0 {
                self.header[have..have + kept].copy_from_slice(&bytes[..kept]);
            }
            // `n` is at most `HEADER`, 9.
            self.have += n as u8;
            bytes = &bytes[n..];
            if usize::from(self.have) < HEADER {
                break;
            }
            self.have = 0;
            let [l0, l1, l2, kind, flags] = self.header;
            self.skip = u32::from_be_bytes([0, l0, l1, l2]);
            if matches!(kind, PING | SETTINGS) && flags & ACK == 0 && self.counted() {
                return true;
            }
        }
        false
    }

    /// Counts one control frame: `true` past the limit within the window.
    fn counted(&mut self) -> bool {
        self.count = self.count.saturating_add(1);
        if u32::from(self.count) <= LIMIT {
            if self.count == 1 {
                self.since = millis();
            }
            return false;
        }
        let now = millis();
        if now.wrapping_sub(self.since) < WINDOW_MS {
            return true;
        }
        // A new window, starting with this frame.
        self.count = 1;
        self.since = now;
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
        frames.since = millis().wrapping_sub(WINDOW_MS);
        assert!(!frames.flooded(&pings[..17]));
        assert_eq!(frames.count, 1);
    }
}
