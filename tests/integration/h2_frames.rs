//! HTTP/2 frames written by hand, byte by byte, for clients that break the rules on purpose
//! (the `h2` crate will not send a rapid reset or a CONTINUATION flood); and a reader of the
//! server's frames. Only what the abuse tests need: no HPACK beyond literal fields.

use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;
pub const WINDOW_UPDATE: u8 = 0x8;
pub const CONTINUATION: u8 = 0x9;

pub const END_STREAM: u8 = 0x1;
pub const ACK: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;

pub const NO_ERROR: u32 = 0x0;
pub const REFUSED_STREAM: u32 = 0x7;
pub const CANCEL: u32 = 0x8;
pub const ENHANCE_YOUR_CALM: u32 = 0xb;

pub const SETTINGS_INITIAL_WINDOW_SIZE: u16 = 0x4;

/// One frame: 9-byte header, then the payload.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).expect("payload under 16 MiB");
    let mut out = Vec::with_capacity(9 + payload.len());
    out.extend_from_slice(&len.to_be_bytes()[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&stream.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

pub fn settings(values: &[(u16, u32)]) -> Vec<u8> {
    let mut payload = Vec::new();
    for (id, value) in values {
        payload.extend_from_slice(&id.to_be_bytes());
        payload.extend_from_slice(&value.to_be_bytes());
    }
    frame(SETTINGS, 0, 0, &payload)
}

/// A WINDOW_UPDATE frame: `increment` more bytes on `stream` (0: the connection).
pub fn window_update(stream: u32, increment: u32) -> Vec<u8> {
    frame(WINDOW_UPDATE, 0, stream, &increment.to_be_bytes())
}

pub fn rst_stream(stream: u32, code: u32) -> Vec<u8> {
    frame(RST_STREAM, 0, stream, &code.to_be_bytes())
}

/// An HPACK string literal, not Huffman-coded (7-bit prefix length).
pub fn string(out: &mut Vec<u8>, s: &[u8]) {
    let mut n = s.len();
    if n < 127 {
        out.push(n as u8);
    } else {
        out.push(127);
        n -= 127;
        while n >= 128 {
            out.push((n % 128) as u8 | 0x80);
            n /= 128;
        }
        out.push(n as u8);
    }
    out.extend_from_slice(s);
}

/// A header field literal without indexing, with a new name.
pub fn field(out: &mut Vec<u8>, name: &str, value: &str) {
    out.push(0x00);
    string(out, name.as_bytes());
    string(out, value.as_bytes());
}

/// A request's header block: `:method` and `:scheme` from the static table, `:path` and
/// `:authority` literal, then `extra`.
pub fn request_block(method: &str, path: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let mut block = vec![
        match method {
            "GET" => 0x82,
            "POST" => 0x83,
            other => panic!("no static entry for {other}"),
        },
        0x86, // :scheme http
    ];
    block.push(0x04); // :path, literal without indexing
    string(&mut block, path.as_bytes());
    block.push(0x01); // :authority
    string(&mut block, b"localhost");
    for (name, value) in extra {
        field(&mut block, name, value);
    }
    block
}

/// A GET on `stream`, whole (END_STREAM, END_HEADERS).
pub fn get(stream: u32, path: &str) -> Vec<u8> {
    frame(
        HEADERS,
        END_STREAM | END_HEADERS,
        stream,
        &request_block("GET", path, &[]),
    )
}

/// A frame the server sent.
#[derive(Debug, Clone)]
pub struct Frame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
}

impl Frame {
    /// The error code of a RST_STREAM or GOAWAY.
    pub fn code(&self) -> u32 {
        let at = if self.kind == GOAWAY { 4 } else { 0 };
        u32::from_be_bytes(self.payload[at..at + 4].try_into().expect("4 bytes"))
    }
}

/// What the server did next.
#[derive(Debug)]
pub enum Next {
    Frame(Frame),
    /// EOF or reset: the server closed the connection.
    Closed,
    /// Nothing within the time given.
    Quiet,
}

/// A client connection speaking raw frames.
pub struct Raw<I> {
    pub io: I,
    buf: Vec<u8>,
    pub opened: Instant,
}

impl<I: AsyncRead + AsyncWrite + Unpin> Raw<I> {
    /// Sends the preface and a SETTINGS frame with `values`.
    pub async fn open(mut io: I, values: &[(u16, u32)]) -> Self {
        let mut hello = PREFACE.to_vec();
        hello.extend(settings(values));
        io.write_all(&hello).await.expect("preface written");
        Self {
            io,
            buf: Vec::new(),
            opened: Instant::now(),
        }
    }

    /// Writes `bytes`; `false` when the server had closed the connection.
    pub async fn send(&mut self, bytes: &[u8]) -> bool {
        self.io.write_all(bytes).await.is_ok() && self.io.flush().await.is_ok()
    }

    /// The next frame, within `limit`.
    pub async fn next(&mut self, limit: Duration) -> Next {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if self.buf.len() >= 9 {
                let len = usize::from(self.buf[0]) << 16
                    | usize::from(self.buf[1]) << 8
                    | usize::from(self.buf[2]);
                if self.buf.len() >= 9 + len {
                    let head: Vec<u8> = self.buf.drain(..9 + len).collect();
                    return Next::Frame(Frame {
                        kind: head[3],
                        flags: head[4],
                        stream: u32::from_be_bytes(head[5..9].try_into().expect("4 bytes"))
                            & 0x7fff_ffff,
                        payload: head[9..].to_vec(),
                    });
                }
            }
            let mut chunk = [0u8; 16 * 1024];
            match tokio::time::timeout_at(deadline, self.io.read(&mut chunk)).await {
                Err(_) => return Next::Quiet,
                Ok(Ok(0) | Err(_)) => return Next::Closed,
                Ok(Ok(n)) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// Every frame until the server closes the connection; panics if it is still open after
    /// `limit`. Returns the frames with when each came (since [`Raw::open`]), and when the
    /// connection closed.
    pub async fn until_closed(&mut self, limit: Duration) -> (Vec<(Duration, Frame)>, Duration) {
        let deadline = Instant::now() + limit;
        let mut frames = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left).await {
                Next::Frame(frame) => frames.push((self.opened.elapsed(), frame)),
                Next::Closed => return (frames, self.opened.elapsed()),
                Next::Quiet => panic!(
                    "still open after {limit:?}; frames: {:?}",
                    frames
                        .iter()
                        .map(|(at, f): &(Duration, Frame)| (at, f.kind, f.stream))
                        .collect::<Vec<_>>()
                ),
            }
        }
    }
}

/// The GOAWAY among `frames`, with when it came.
pub fn goaway(frames: &[(Duration, Frame)]) -> Option<(Duration, &Frame)> {
    frames
        .iter()
        .find(|(_, f)| f.kind == GOAWAY)
        .map(|(at, f)| (*at, f))
}
