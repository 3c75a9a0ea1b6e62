//! What may fill a contract slot (params, query, body, response), the markers for an empty
//! slot, and the traits the pipeline implements for the slot's hidden hooks
//! ([`BodyReader`], [`StreamWriter`]).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderValue;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny};
use serde::ser::{Serialize, Serializer};
use validator::{Validate, ValidationErrors};

use super::body_kind::{BodyKind, EncodedBody};
use super::event::Event;
use super::raw_event::EventSource;
use super::streamed::StreamedAnswer;
use crate::error::{BoxError, Error};

mod sealed {
    pub trait Sealed {}
}

/// Whether a slot holds a declared type ([`Declared`]) or one of the empty markers ([`Absent`]).
///
/// The typed client starts each part of a call from this: a declared part must be given.
pub trait Presence: sealed::Sealed + 'static {
    /// `true` for [`Declared`].
    const DECLARED: bool;
}

/// The slot holds a type the contract declared.
#[derive(Debug)]
pub enum Declared {}

/// The slot is empty ([`NoParams`], [`NoQuery`], [`NoBody`], [`NoContent`], [`NoHeaders`],
/// [`NoCookies`]).
#[derive(Debug)]
pub enum Absent {}

impl sealed::Sealed for Declared {}
impl sealed::Sealed for Absent {}
impl Presence for Declared {
    const DECLARED: bool = true;
}
impl Presence for Absent {
    const DECLARED: bool = false;
}

/// A type that can fill a contract slot: serde gives its shape, `validator` its rules.
///
/// Every `Serialize + DeserializeOwned + Validate + Send + Sync + 'static` type is one, so
/// derive `Validate` on each contract type — a type without `#[validate(..)]` rules passes
/// trivially. `Vec<T>` and `Option<T>` of such types are slots too.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate)]
/// struct NewUser {
///     #[validate(length(min = 1, max = 50))]
///     name: String,
///     #[validate(email)]
///     email: String,
/// }
/// fn is_slot<T: pactum::contract::Slot>() {}
/// is_slot::<NewUser>();
/// is_slot::<Vec<NewUser>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used in a contract: derive `Serialize`, `Deserialize` and `validator::Validate`",
    label = "not a contract type",
    note = "a type without `#[validate(..)]` rules validates trivially",
    note = "if `{Self}` derives `Validate` already, its `validator` is not pactum's: depend on `validator = \"0.21\"`, the version pactum uses"
)]
pub trait Slot: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// [`Declared`] for user types, [`Absent`] for the empty markers.
    type Presence: Presence;

    /// The value of an empty slot; `None` for declared types.
    #[doc(hidden)]
    fn absent() -> Option<Self>;

    /// Checks the value's `validator` rules.
    ///
    /// # Errors
    ///
    /// The rules that failed.
    fn check(&self) -> Result<(), ValidationErrors>;

    /// How the value travels as a response: JSON for every type but pactum's
    /// [`Text`](crate::contract::Text), [`Binary`](crate::contract::Binary) and [`Redirect`](crate::contract::Redirect).
    #[doc(hidden)]
    const FORMAT: Format = Format::Json;

    /// The answer of a non-JSON response value (never called for [`Format::Json`]).
    #[doc(hidden)]
    fn to_raw(&self) -> RawAnswer {
        RawAnswer::default()
    }

    /// The value a non-JSON answer stands for (never called for [`Format::Json`]).
    ///
    /// # Errors
    ///
    /// Why the answer is not one.
    #[doc(hidden)]
    fn from_raw(raw: RawAnswer) -> Result<Self, String> {
        let _ = raw;
        Err("a JSON value is not read from a raw answer".to_owned())
    }

    /// The streamed body of a [`Format::EventStream`] answer, written by the pipeline's
    /// `writer` (never called for another format); `None`: no body, a `204 No Content`
    /// ([`Events::finished`](crate::sse::Events::finished)).
    #[doc(hidden)]
    fn write_stream<W: StreamWriter>(self, writer: W) -> Option<W::Body> {
        drop(writer);
        None
    }

    /// The value a client reading a [`Format::EventStream`] answer hands back (never called
    /// for another).
    ///
    /// # Errors
    ///
    /// Why the answer is not one.
    #[doc(hidden)]
    fn from_event_source(source: EventSource) -> Result<Self, String> {
        let _ = source;
        Err("only a stream of events is read from an event stream".to_owned())
    }

    /// Whether the value sets response headers of its own ([`WithHeaders`](crate::contract::WithHeaders)):
    /// a constant, so that other answers keep no branch.
    #[doc(hidden)]
    const ANSWER_HEADERS: bool = false;

    /// The response headers the value sets (only asked when [`Slot::ANSWER_HEADERS`]).
    ///
    /// # Errors
    ///
    /// A header the value cannot be written as.
    #[doc(hidden)]
    fn answer_headers(&self) -> Result<Vec<(http::HeaderName, HeaderValue)>, String> {
        Ok(Vec::new())
    }

    /// The value of a JSON answer read from its body and headers together, for a type that
    /// needs both ([`WithHeaders`](crate::contract::WithHeaders)); `None`: read from the body
    /// with serde.
    #[doc(hidden)]
    fn read_json_answer(
        body: &[u8],
        headers: &http::HeaderMap,
    ) -> Option<Result<Self, Vec<crate::error::Detail>>> {
        let _ = (body, headers);
        None
    }

    /// How the value travels as a request body: JSON for every type but pactum's
    /// [`Multipart`](crate::upload::Multipart) and [`ByteStream`](crate::upload::ByteStream). A constant per
    /// body type: a JSON body takes the JSON path with no branch.
    #[doc(hidden)]
    const BODY: BodyKind = BodyKind::Json;

    /// Reads a request body that is not JSON with the pipeline's `reader` (never called for
    /// [`BodyKind::Json`]).
    #[doc(hidden)]
    fn read_body<Rd: BodyReader>(reader: Rd) -> Rd::Read<Self> {
        reader.refuse()
    }

    /// The request body the typed client sends for a value that is not JSON (never called
    /// for [`BodyKind::Json`]).
    ///
    /// # Errors
    ///
    /// Why the value cannot be sent.
    #[doc(hidden)]
    fn encode_body(&self) -> Result<EncodedBody, String> {
        Err("a JSON value is sent as JSON".to_owned())
    }

    /// The parts of a [`Format::Download`] answer, which the pipeline streams (never called
    /// for another format).
    #[doc(hidden)]
    fn into_streamed(self) -> Option<StreamedAnswer> {
        None
    }

    /// The value a client reading a [`Format::Download`] answer hands back (never called for
    /// another).
    ///
    /// # Errors
    ///
    /// Why the answer is not one.
    #[doc(hidden)]
    fn from_streamed(answer: StreamedAnswer) -> Result<Self, String> {
        drop(answer);
        Err("only a download is read as a stream of bytes".to_owned())
    }
}

// The hooks' other side: what the pipeline implements for them, so that this layer names
// none of its types. In this file because each refers to `Slot` as `Slot` refers to it.

/// A request body's chunks as they arrive, each checked against the body limit: what a
/// [`ByteStream`](crate::upload::ByteStream) reads.
#[doc(hidden)]
pub type Chunks = Pin<Box<dyn Stream<Item = Result<Bytes, Error>> + Send>>;

/// What reads a request body that is not JSON, for a body type's
/// [`Slot::read_body`](super::Slot::read_body): the pipeline's, with the request's body, its
/// limits and its headers. Each method ends with the value `wrap` makes of what was read.
#[doc(hidden)]
pub trait BodyReader {
    /// A body being read.
    type Read<O: Send + 'static>: Future<Output = Result<O, Error>> + Send + 'static;

    /// Reads a `multipart/form-data` body whole into a `T`, validated.
    fn form<T: Slot, O: Send + 'static>(self, wrap: fn(T) -> O) -> Self::Read<O>;

    /// Hands the body over as it arrives.
    fn chunks<O: Send + 'static>(self, wrap: fn(Chunks) -> O) -> Self::Read<O>;

    /// Refuses to read the body: a type that is read as JSON has no reader of its own.
    fn refuse<O: Send + 'static>(self) -> Self::Read<O>;
}

/// The events of an [`Events`](crate::sse::Events) answer, as the server writes them.
#[doc(hidden)]
pub type EventItems<T> = Pin<Box<dyn Stream<Item = Result<Event<T>, BoxError>> + Send>>;

/// What writes a streamed answer, for a response type's `Slot::write_stream`: the
/// pipeline's (`handler::events_body`), so that this layer names no body type.
#[doc(hidden)]
pub trait StreamWriter {
    /// The answer's body.
    type Body;

    /// Writes each event as it comes in the `text/event-stream` format, with a keep-alive
    /// comment after `keep_alive` of silence.
    fn events<T: Slot>(self, events: EventItems<T>, keep_alive: Option<Duration>) -> Self::Body;
}

/// How a response value travels (see [`Slot::FORMAT`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `application/json`, written by serde: every user type.
    Json,
    /// `text/plain; charset=utf-8`: [`Text`](crate::contract::Text).
    Text,
    /// Bytes with their own content type, `application/octet-stream` by default:
    /// [`Binary`](crate::contract::Binary).
    Binary,
    /// No body, a `Location` header and a 3xx status (303 by default):
    /// [`Redirect`](crate::contract::Redirect).
    Redirect,
    /// `text/event-stream`, streamed: [`Events`](crate::sse::Events).
    EventStream,
    /// Bytes with their own content type (and length when known), streamed:
    /// [`Download`](crate::contract::Download).
    Download,
}

/// A non-JSON answer's parts: its body, content type and `Location`.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct RawAnswer {
    /// The body.
    pub body: Bytes,
    /// The `Content-Type`, if any.
    pub content_type: Option<HeaderValue>,
    /// The `Location`, if any.
    pub location: Option<HeaderValue>,
}

// `do_not_recommend`, here and on the empty markers' impls: a type that is not a slot reports
// `Slot`'s message alone, not the first missing trait with a list of its implementers.
#[diagnostic::do_not_recommend]
impl<T> Slot for T
where
    T: Serialize + DeserializeOwned + Validate + Send + Sync + 'static,
{
    type Presence = Declared;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        self.validate()
    }
}

macro_rules! empty_slot {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct $name;

        #[diagnostic::do_not_recommend]
        impl Slot for $name {
            type Presence = Absent;
            fn absent() -> Option<Self> {
                Some($name)
            }
            fn check(&self) -> Result<(), ValidationErrors> {
                Ok(())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_unit()
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                IgnoredAny::deserialize(deserializer).map(|_| $name)
            }
        }
    )*};
}

empty_slot! {
    /// The params slot of a contract whose route has no params.
    NoParams;
    /// The query slot of a contract that reads no query.
    NoQuery;
    /// The body slot of a contract that reads no body.
    NoBody;
    /// The response slot of a contract that answers with no body (`204 No Content` unless a
    /// status is declared).
    NoContent;
    /// The header params slot of a contract that declares no header.
    NoHeaders;
    /// The cookie params slot of a contract that declares no cookie.
    NoCookies;
}
