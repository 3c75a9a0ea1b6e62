//! [`Download`]: an answer that is a stream of bytes, sent as it comes (never held whole).

use std::fmt;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::HeaderValue;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use validator::ValidationErrors;

use super::slot::{Declared, Format, Slot};
use super::streamed::{ByteChunks, StreamedAnswer};
use crate::error::BoxError;

/// The default content type of a [`Download`].
const OCTET_STREAM: &str = "application/octet-stream";

/// What `filename*=UTF-8''…` leaves as it is (RFC 8187's `attr-char`).
const ATTR_CHAR: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'#')
    .remove(b'$')
    .remove(b'&')
    .remove(b'+')
    .remove(b'-')
    .remove(b'.')
    .remove(b'^')
    .remove(b'_')
    .remove(b'`')
    .remove(b'|')
    .remove(b'~');

/// A streamed byte answer: `.response::<Download>()`.
///
/// The server sends the chunks as the stream yields them — nothing is held whole, each chunk
/// is asked for once the connection has taken the previous one — with the value's content
/// type (`application/octet-stream` unless set), its `Content-Length` when it is known
/// ([`with_length`](Self::with_length), [`from_bytes`](Self::from_bytes)), or chunked
/// (HTTP/1.1) when not, and a `Content-Disposition: attachment` when a file name is set. A
/// `HEAD` request gets the headers (the length too) and no body.
///
/// Where the stream fails — an `Err`, or fewer or more bytes than the declared length — the
/// error is logged and the connection is broken off: the client sees a truncated answer, never
/// a clean end. The answer's body counts against the server's send deadline like any other
/// (a client that stops reading is dropped once the idle timeout passes), and a graceful
/// shutdown lets it finish within the shutdown deadline rather than ending it early (a
/// download cut short would look complete without a length).
///
/// The OpenAPI document gives `application/octet-stream` with a binary string schema
/// (`contentMediaType`; `format: binary` in 3.0.3), as for [`Binary`](crate::contract::Binary).
/// The typed client hands back a `Download` too: a [`Stream`] of the chunks as they are read,
/// with the answer's content type and length ([`bytes`](Self::bytes) collects them).
///
/// ```
/// use bytes::Bytes;
/// use pactum::{contract::Download, handler, route, Endpoint};
/// use pactum::http::HeaderValue;
///
/// let export = Endpoint::get(route!("/export.csv")).response::<Download>().build()?;
/// let h = handler(export, |_| async {
///     let rows = (0..1000).map(|n| Ok::<_, std::io::Error>(Bytes::from(format!("{n},row\n"))));
///     Ok(Download::new(futures_util::stream::iter(rows))
///         .with_content_type(HeaderValue::from_static("text/csv"))
///         .with_filename("export.csv"))
/// });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Download {
    /// In a `Mutex` so that the type is `Sync`, as a contract's types are; the stream is only
    /// polled through `&mut` (`Mutex::get_mut`), so the lock is never taken. `None` once
    /// handed over.
    chunks: Mutex<Option<ByteChunks>>,
    content_type: HeaderValue,
    length: Option<u64>,
    disposition: Option<HeaderValue>,
}

impl Download {
    /// The chunks of `stream`, in order, sent as `application/octet-stream` with no declared
    /// length; an `Err` breaks the answer off.
    ///
    /// ```
    /// use bytes::Bytes;
    /// let chunks = [Ok::<_, std::io::Error>(Bytes::from("a")), Ok(Bytes::from("b"))];
    /// let download = pactum::contract::Download::new(futures_util::stream::iter(chunks));
    /// assert_eq!(download.content_type(), "application/octet-stream");
    /// assert_eq!(download.length(), None);
    /// ```
    pub fn new<S, B, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<B, E>> + Send + 'static,
        B: Into<Bytes>,
        E: Into<BoxError>,
    {
        Self::from_chunks(Box::pin(Chunked { stream }), None)
    }

    /// Bytes already in memory, with their length.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), pactum::error::BoxError> {
    /// let download = pactum::contract::Download::from_bytes("hello");
    /// assert_eq!(download.length(), Some(5));
    /// assert_eq!(download.bytes().await?, "hello");
    /// # Ok(()) }
    /// ```
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        let length = bytes.len() as u64;
        Self::from_chunks(Box::pin(Once(Some(bytes))), Some(length))
    }

    /// What `reader` reads (a `tokio::fs::File`, a pipe…), in chunks of up to 64 KiB, as it
    /// reads them; a read error breaks the answer off. Set the length with
    /// [`with_length`](Self::with_length) when it is known (a file's metadata).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), pactum::error::BoxError> {
    /// let download = pactum::contract::Download::from_reader(&b"read as it comes"[..]);
    /// assert_eq!(download.bytes().await?, "read as it comes");
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "server")]
    #[cfg_attr(docsrs, doc(cfg(feature = "server")))]
    pub fn from_reader<R>(reader: R) -> Self
    where
        R: tokio::io::AsyncRead + Send + 'static,
    {
        Self::from_chunks(Box::pin(reader::Reader::new(reader)), None)
    }

    fn from_chunks(chunks: ByteChunks, length: Option<u64>) -> Self {
        Self {
            chunks: Mutex::new(Some(chunks)),
            content_type: HeaderValue::from_static(OCTET_STREAM),
            length,
            disposition: None,
        }
    }

    /// Sends the bytes with another content type.
    ///
    /// ```
    /// use pactum::http::HeaderValue;
    /// let d = pactum::contract::Download::from_bytes("a,b\n").with_content_type(HeaderValue::from_static("text/csv"));
    /// assert_eq!(d.content_type(), "text/csv");
    /// ```
    #[must_use]
    pub fn with_content_type(mut self, content_type: HeaderValue) -> Self {
        self.content_type = content_type;
        self
    }

    /// Declares the body's length: the answer's `Content-Length`. The server sends exactly
    /// that many bytes: a stream that yields more, or ends before, breaks the answer off (the
    /// error is logged; the client sees a truncated body).
    ///
    /// ```
    /// let d = pactum::contract::Download::new(futures_util::stream::empty::<Result<bytes::Bytes, std::io::Error>>()).with_length(0);
    /// assert_eq!(d.length(), Some(0));
    /// ```
    #[must_use]
    pub fn with_length(mut self, length: u64) -> Self {
        self.length = Some(length);
        self
    }

    /// Asks the client to save the body as a file named `filename`:
    /// `Content-Disposition: attachment; filename="…"`, with `filename*=UTF-8''…` too when
    /// the name is not plain ASCII (RFC 6266). Quotes, backslashes and control characters are
    /// replaced with `_` in the plain form.
    ///
    /// ```
    /// let d = pactum::contract::Download::from_bytes("x").with_filename("café.txt");
    /// assert_eq!(
    ///     d.content_disposition().unwrap(),
    ///     "attachment; filename=\"caf_.txt\"; filename*=UTF-8''caf%C3%A9.txt"
    /// );
    /// ```
    #[must_use]
    pub fn with_filename(mut self, filename: &str) -> Self {
        let plain: String = filename
            .chars()
            .map(|c| match c {
                ' ' | '!' | '#'..='[' | ']'..='~' => c,
                _ => '_',
            })
            .collect();
        let mut value = format!("attachment; filename=\"{plain}\"");
        if plain != filename {
            value.push_str("; filename*=UTF-8''");
            value.extend(utf8_percent_encode(filename, ATTR_CHAR));
        }
        // Only visible ASCII is left: always a valid header value.
        self.disposition = HeaderValue::from_str(&value).ok();
        self
    }

    /// The content type.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Download::from_bytes("").content_type(), "application/octet-stream");
    /// ```
    pub fn content_type(&self) -> &HeaderValue {
        &self.content_type
    }

    /// The body's length, when known: declared by the server, or the answer's
    /// `Content-Length` on the client.
    ///
    /// ```
    /// assert_eq!(pactum::contract::Download::from_bytes("abc").length(), Some(3));
    /// ```
    pub fn length(&self) -> Option<u64> {
        self.length
    }

    /// The `Content-Disposition`, when set ([`with_filename`](Self::with_filename), or the
    /// answer's on the client).
    ///
    /// ```
    /// assert!(pactum::contract::Download::from_bytes("").content_disposition().is_none());
    /// ```
    pub fn content_disposition(&self) -> Option<&HeaderValue> {
        self.disposition.as_ref()
    }

    /// Reads the rest of the body into one buffer.
    ///
    /// # Errors
    ///
    /// Why the stream broke (a connection closed before the end, on the client).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), pactum::error::BoxError> {
    /// let chunks = ["a", "bc"].map(|s| Ok::<_, std::io::Error>(bytes::Bytes::from(s)));
    /// let download = pactum::contract::Download::new(futures_util::stream::iter(chunks));
    /// assert_eq!(download.bytes().await?, "abc");
    /// # Ok(()) }
    /// ```
    pub async fn bytes(mut self) -> Result<Bytes, BoxError> {
        // A declared length sizes the buffer, within reason (it is the peer's word).
        let capacity = self.length.unwrap_or(0).min(16 << 20);
        let mut out = BytesMut::with_capacity(usize::try_from(capacity).unwrap_or(0));
        while let Some(chunk) = poll_fn(|cx| Pin::new(&mut self).poll_next(cx)).await {
            out.extend_from_slice(&chunk?);
        }
        Ok(out.freeze())
    }
}

impl fmt::Debug for Download {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Download")
            .field("content_type", &self.content_type)
            .field("length", &self.length)
            .field("disposition", &self.disposition)
            .finish_non_exhaustive()
    }
}

/// The chunks as they come (on the client, as they are read); empty once handed to the
/// server.
impl Stream for Download {
    type Item = Result<Bytes, BoxError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let chunks = self
            .get_mut()
            .chunks
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        match chunks {
            Some(chunks) => chunks.as_mut().poll_next(cx),
            None => Poll::Ready(None),
        }
    }
}

/// Not a JSON value: a `Download` fills a response slot only.
impl Serialize for Download {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(ser::Error::custom("a download is not a JSON value"))
    }
}

/// Not a JSON value: a `Download` fills a response slot only.
impl<'de> Deserialize<'de> for Download {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom("a download is not a JSON value"))
    }
}

#[diagnostic::do_not_recommend]
impl Slot for Download {
    type Presence = Declared;
    const FORMAT: Format = Format::Download;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn into_streamed(self) -> Option<StreamedAnswer> {
        let chunks = self
            .chunks
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .unwrap_or_else(|| Box::pin(Once(None)));
        Some(StreamedAnswer {
            chunks,
            content_type: self.content_type,
            length: self.length,
            disposition: self.disposition,
        })
    }

    fn from_streamed(answer: StreamedAnswer) -> Result<Self, String> {
        Ok(Self {
            chunks: Mutex::new(Some(answer.chunks)),
            content_type: answer.content_type,
            length: answer.length,
            disposition: answer.disposition,
        })
    }
}

pin_project_lite::pin_project! {
    /// A user's stream, its chunks made `Bytes` and its errors boxed.
    struct Chunked<S> {
        #[pin]
        stream: S,
    }
}

impl<S, B, E> Stream for Chunked<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Into<Bytes>,
    E: Into<BoxError>,
{
    type Item = Result<Bytes, BoxError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.project()
            .stream
            .poll_next(cx)
            .map(|item| item.map(|chunk| chunk.map(Into::into).map_err(Into::into)))
    }
}

/// One chunk, then the end.
struct Once(Option<Bytes>);

impl Stream for Once {
    type Item = Result<Bytes, BoxError>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.take().map(Ok))
    }
}

#[cfg(feature = "server")]
mod reader {
    //! An `AsyncRead` as a stream of chunks (tokio-util's `ReaderStream`, which pactum does
    //! not depend on).

    use std::pin::Pin;
    use std::task::{ready, Context, Poll};

    use bytes::{Bytes, BytesMut};
    use futures_core::Stream;
    use tokio::io::{AsyncRead, ReadBuf};

    use crate::error::BoxError;

    /// The most read at once.
    const CHUNK: usize = 64 * 1024;

    pin_project_lite::pin_project! {
        pub(super) struct Reader<R> {
            #[pin]
            reader: Option<R>,
            buffer: BytesMut,
        }
    }

    impl<R> Reader<R> {
        pub(super) fn new(reader: R) -> Self {
            Self {
                reader: Some(reader),
                buffer: BytesMut::new(),
            }
        }
    }

    impl<R: AsyncRead> Stream for Reader<R> {
        type Item = Result<Bytes, BoxError>;

        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            let mut this = self.project();
            let Some(reader) = this.reader.as_mut().as_pin_mut() else {
                return Poll::Ready(None);
            };
            this.buffer.resize(CHUNK, 0);
            let mut read = ReadBuf::new(&mut this.buffer[..]);
            let result = ready!(reader.poll_read(cx, &mut read));
            let filled = read.filled().len();
            match result {
                Ok(()) if filled == 0 => {
                    this.reader.set(None);
                    Poll::Ready(None)
                }
                Ok(()) => {
                    this.buffer.truncate(filled);
                    Poll::Ready(Some(Ok(this.buffer.split().freeze())))
                }
                Err(error) => {
                    this.reader.set(None);
                    Poll::Ready(Some(Err(error.into())))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(parts: &[&'static str]) -> Download {
        let parts: Vec<Result<Bytes, std::io::Error>> = parts
            .iter()
            .map(|s| Ok(Bytes::from_static(s.as_bytes())))
            .collect();
        Download::new(futures_util::stream::iter(parts))
    }

    #[tokio::test]
    async fn a_download_yields_its_chunks_in_order() {
        let mut download = chunks(&["ab", "", "cd"]);
        let mut seen = Vec::new();
        while let Some(chunk) = poll_fn(|cx| Pin::new(&mut download).poll_next(cx)).await {
            seen.push(chunk.unwrap());
        }
        assert_eq!(seen, ["ab", "", "cd"]);
        assert_eq!(chunks(&["x", "yz"]).bytes().await.unwrap(), "xyz");
    }

    #[tokio::test]
    async fn an_error_breaks_the_stream() {
        let parts: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(Bytes::from_static(b"a")),
            Err(std::io::Error::other("disk gone")),
        ];
        let error = Download::new(futures_util::stream::iter(parts))
            .bytes()
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "disk gone");
    }

    #[tokio::test]
    async fn streamed_parts_round_trip() {
        let download = Download::from_bytes("hello")
            .with_content_type(HeaderValue::from_static("text/plain"))
            .with_filename("a.txt");
        let parts = download.into_streamed().unwrap();
        assert_eq!(parts.length, Some(5));
        assert_eq!(parts.content_type, "text/plain");
        assert_eq!(
            parts.disposition.as_ref().unwrap(),
            "attachment; filename=\"a.txt\""
        );
        let back = Download::from_streamed(parts).unwrap();
        assert_eq!(back.length(), Some(5));
        assert_eq!(back.bytes().await.unwrap(), "hello");
    }

    #[test]
    fn a_file_name_cannot_break_the_header() {
        let d = Download::from_bytes("").with_filename("a\"b\\c\r\nset-cookie: x");
        let value = d.content_disposition().unwrap().to_str().unwrap();
        assert!(value.starts_with("attachment; filename=\"a_b_c__set-cookie: x\"; filename*=UTF-8''a%22b%5Cc%0D%0Aset-cookie%3A%20x"));
        assert!(!value.contains(['\r', '\n']));
    }

    #[test]
    fn a_download_is_not_json() {
        assert!(serde_json::to_string(&Download::from_bytes("")).is_err());
        assert!(serde_json::from_str::<Download>("\"x\"").is_err());
    }

    #[cfg(feature = "server")]
    #[tokio::test]
    async fn a_reader_is_read_in_chunks() {
        let data = vec![7u8; 200 * 1024];
        let mut download = Download::from_reader(std::io::Cursor::new(data.clone()));
        let mut sizes = Vec::new();
        let mut all = Vec::new();
        while let Some(chunk) = poll_fn(|cx| Pin::new(&mut download).poll_next(cx)).await {
            let chunk = chunk.unwrap();
            sizes.push(chunk.len());
            all.extend_from_slice(&chunk);
        }
        assert_eq!(all, data);
        assert!(sizes.iter().all(|&n| n <= 64 * 1024), "{sizes:?}");
        assert!(sizes.len() >= 4, "{sizes:?}");
    }
}
