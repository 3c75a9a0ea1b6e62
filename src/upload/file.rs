//! [`FilePart`]: a file of a multipart form.

use std::fmt;

use bytes::Bytes;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// The struct name a [`FilePart`] is written and read as: how the form's reader and writer
/// tell a file from a nested struct.
pub(crate) const FILE_PART: &str = "$pactum::upload::FilePart";
const FIELDS: &[&str] = &["filename", "content_type", "bytes"];

/// A file sent in a [`Multipart`](crate::upload::Multipart) form: its bytes, with the file name and
/// content type the sender gave (either may be missing).
///
/// A field of this type takes the part of that name, whatever it carries: a part without a
/// file name (as some clients send small files) is a file without a name. The bytes are held
/// in memory, within the field's limit
/// ([`field_limit`](crate::contract::EndpointBuilder::field_limit)); for a body too large for that,
/// declare a [`ByteStream`](crate::upload::ByteStream) body.
///
/// ```
/// use pactum::upload::FilePart;
///
/// let file = FilePart::new("hello").with_filename("hello.txt").with_content_type("text/plain");
/// assert_eq!(file.filename(), Some("hello.txt"));
/// assert_eq!(file.content_type(), Some("text/plain"));
/// assert_eq!(file.bytes().as_ref(), b"hello");
/// assert_eq!(file.len(), 5);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilePart {
    filename: Option<String>,
    content_type: Option<String>,
    bytes: Bytes,
}

impl FilePart {
    /// A file of these bytes, without a name or content type (the typed client then sends
    /// it as `application/octet-stream`).
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        Self {
            filename: None,
            content_type: None,
            bytes: bytes.into(),
        }
    }

    /// This file with a file name (sent in the part's `Content-Disposition`).
    #[must_use]
    pub fn with_filename(mut self, filename: impl Into<String>) -> Self {
        self.filename = Some(filename.into());
        self
    }

    /// This file with a content type (sent as the part's `Content-Type`).
    #[must_use]
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }

    /// The file name the sender gave, if any. Take it as a hint, never as a path: it is what
    /// the client wrote ([`safe_filename`](Self::safe_filename) makes one to use on disk). A
    /// name that is not UTF-8 is refused with a 400 naming the part before the handler runs.
    pub fn filename(&self) -> Option<&str> {
        self.filename.as_deref()
    }

    /// The file name as the client sent it, made safe to join to a directory of the server's:
    /// its last path component (after the last `/` or `\`), without control characters,
    /// leading dots or surrounding spaces, at most 255 bytes. `None` when nothing is left (no
    /// name, `..`, `/`). The name is still the client's: keep files apart by a name the
    /// server makes, and use this one for display or as a hint.
    ///
    /// ```
    /// use pactum::upload::FilePart;
    ///
    /// let named = |name: &str| FilePart::new("x").with_filename(name);
    /// assert_eq!(named("report.pdf").safe_filename().as_deref(), Some("report.pdf"));
    /// assert_eq!(named("../../etc/passwd").safe_filename().as_deref(), Some("passwd"));
    /// assert_eq!(named("C:\\Users\\a\\notes.txt").safe_filename().as_deref(), Some("notes.txt"));
    /// assert_eq!(named(".bashrc").safe_filename().as_deref(), Some("bashrc"));
    /// assert_eq!(named("..").safe_filename(), None);
    /// assert_eq!(FilePart::new("x").safe_filename(), None);
    /// ```
    pub fn safe_filename(&self) -> Option<String> {
        let name = self.filename.as_deref()?;
        let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
        let kept: String = last.chars().filter(|c| !c.is_control()).collect();
        let trimmed = kept.trim().trim_start_matches('.').trim();
        let mut end = trimmed.len().min(255);
        while !trimmed.is_char_boundary(end) {
            end -= 1;
        }
        let safe = &trimmed[..end];
        (!safe.is_empty()).then(|| safe.to_owned())
    }

    /// The part's content type, if the sender gave one.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The file's bytes, owned.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The file's size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Written as a struct of its name, content type and bytes (serde bytes): the typed client's
/// form writer sends it as a file part; JSON gets the bytes as an array of numbers.
impl Serialize for FilePart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut file = serializer.serialize_struct(FILE_PART, 3)?;
        file.serialize_field("filename", &self.filename)?;
        file.serialize_field("content_type", &self.content_type)?;
        file.serialize_field("bytes", &RawBytes(&self.bytes))?;
        file.end()
    }
}

struct RawBytes<'a>(&'a [u8]);

impl Serialize for RawBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

impl<'de> Deserialize<'de> for FilePart {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct(FILE_PART, FIELDS, FileVisitor)
    }
}

struct FileVisitor;

impl<'de> Visitor<'de> for FileVisitor {
    type Value = FilePart;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a file")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FilePart, A::Error> {
        let mut file = FilePart::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "filename" => file.filename = map.next_value()?,
                "content_type" => file.content_type = map.next_value()?,
                "bytes" => file.bytes = map.next_value::<ByteBuf>()?.0,
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(file)
    }
}

/// Bytes read from serde bytes, a string, or a sequence of numbers (JSON).
struct ByteBuf(Bytes);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_byte_buf(ByteBufVisitor)
    }
}

struct ByteBufVisitor;

impl<'de> Visitor<'de> for ByteBufVisitor {
    type Value = ByteBuf;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
        Ok(ByteBuf(Bytes::copy_from_slice(v)))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
        Ok(ByteBuf(Bytes::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ByteBuf, E> {
        self.visit_bytes(v.as_bytes())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte);
        }
        Ok(ByteBuf(Bytes::from(bytes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let file = FilePart::new(vec![0, 255]).with_filename("a.bin");
        let json = serde_json::to_string(&file).unwrap();
        assert_eq!(
            json,
            r#"{"filename":"a.bin","content_type":null,"bytes":[0,255]}"#
        );
        assert_eq!(serde_json::from_str::<FilePart>(&json).unwrap(), file);
    }
}
