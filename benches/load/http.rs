//! A minimal blocking HTTP/1.1 client on one keep-alive connection: to check that the
//! servers answer byte for byte the same, and to send an exact number of requests to a server
//! running under callgrind.

use std::io::{self, Read, Write};
use std::net::TcpStream;

/// The benchmark endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Endpoint {
    Hello,
    Posts,
    Create,
    /// A large body: measured by instructions only (not under wrk, not by the clients).
    Batch,
    /// The same body with one invalid item: the error path (a 400, whose body differs by
    /// server).
    BatchInvalid,
}

impl Endpoint {
    /// The small requests: under wrk, callgrind and the client benchmark.
    pub(crate) const ALL: [Self; 3] = [Self::Hello, Self::Posts, Self::Create];
    /// The large bodies: under callgrind.
    pub(crate) const LARGE: [Self; 2] = [Self::Batch, Self::BatchInvalid];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Hello => "GET /hello",
            Self::Posts => "GET /users/:id/posts",
            Self::Create => "POST /users",
            Self::Batch => "POST /batch",
            Self::BatchInvalid => "POST /batch (invalid)",
        }
    }

    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::Hello => "hello",
            Self::Posts => "posts",
            Self::Create => "create",
            Self::Batch => "batch",
            Self::BatchInvalid => "batch-invalid",
        }
    }

    pub(crate) fn parse(key: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .chain(Self::LARGE)
            .find(|e| e.key() == key)
    }

    /// The request target (path and query).
    pub(crate) fn target(self) -> &'static str {
        match self {
            Self::Hello => "/hello",
            Self::Posts => crate::api::POSTS_PATH,
            Self::Create => "/users",
            Self::Batch | Self::BatchInvalid => "/batch",
        }
    }

    /// The status every server answers with.
    pub(crate) fn expected_status(self) -> &'static str {
        match self {
            Self::Create => "HTTP/1.1 201 Created\r\n",
            Self::BatchInvalid => "HTTP/1.1 400 Bad Request\r\n",
            _ => "HTTP/1.1 200 OK\r\n",
        }
    }

    /// The exact request bytes.
    pub(crate) fn request(self, port: u16) -> Vec<u8> {
        let post = |body: &str| {
            format!(
                "POST {} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                self.target(),
                body.len(),
            )
        };
        match self {
            Self::Hello | Self::Posts => format!(
                "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n",
                self.target()
            ),
            Self::Create => post(crate::api::NEW_USER_JSON),
            Self::Batch => post(crate::api::batch_json()),
            Self::BatchInvalid => post(crate::api::invalid_batch_json()),
        }
        .into_bytes()
    }
}

/// One keep-alive connection.
pub(crate) struct Conn {
    stream: TcpStream,
    port: u16,
    buf: Vec<u8>,
}

impl Conn {
    pub(crate) fn connect(port: u16) -> io::Result<Self> {
        let stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(std::time::Duration::from_secs(120)))?;
        Ok(Self {
            stream,
            port,
            buf: Vec::with_capacity(4096),
        })
    }

    /// Sends one request and returns the whole raw response (head and body).
    pub(crate) fn send(&mut self, endpoint: Endpoint) -> io::Result<Vec<u8>> {
        self.stream.write_all(&endpoint.request(self.port))?;
        self.read_response()
    }

    fn read_response(&mut self) -> io::Result<Vec<u8>> {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = find(&self.buf, b"\r\n\r\n") {
                let head_len = end + 4;
                let head = String::from_utf8_lossy(&self.buf[..head_len]).to_string();
                let length = head
                    .lines()
                    .find_map(|line| {
                        let (name, value) = line.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())
                            .flatten()
                    })
                    .ok_or_else(|| io::Error::other(format!("no content-length in {head:?}")))?;
                let total = head_len + length;
                while self.buf.len() < total {
                    let n = self.stream.read(&mut chunk)?;
                    if n == 0 {
                        return Err(io::ErrorKind::UnexpectedEof.into());
                    }
                    self.buf.extend_from_slice(&chunk[..n]);
                }
                let rest = self.buf.split_off(total);
                return Ok(std::mem::replace(&mut self.buf, rest));
            }
            let n = self.stream.read(&mut chunk)?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The response with the value of its `date` header blanked and without pactum's
/// `x-request-id` (which the peers do not send; its cost stays in pactum's figures): every
/// other byte must match.
pub(crate) fn normalise(response: &[u8]) -> String {
    let text = String::from_utf8_lossy(response);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let head: Vec<String> = head
        .split("\r\n")
        .filter_map(|line| match line.split_once(':') {
            Some((name, _)) if name.eq_ignore_ascii_case("date") => Some(format!("{name}: <date>")),
            Some((name, _)) if name.eq_ignore_ascii_case("x-request-id") => None,
            _ => Some(line.to_owned()),
        })
        .collect();
    format!("{}\r\n\r\n{body}", head.join("\r\n"))
}
