//! [`RawEvent`] and [`EventSource`]: the events a client reads off the wire, before their data
//! is decoded.

use std::pin::Pin;
use std::time::Duration;

use futures_core::Stream;

use crate::error::BoxError;

/// One event as a client read it off the wire, before its data is decoded: what the typed
/// client hands to [`Slot::from_event_source`]. Not an API.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct RawEvent {
    /// The `id:` field, if the event had one.
    pub id: Option<String>,
    /// The `event:` field, if the event had one.
    pub name: Option<String>,
    /// The `data:` lines, joined by `\n`.
    pub data: String,
    /// The `retry:` field, if the event had one.
    pub retry: Option<Duration>,
}

/// The events a client reads, one by one. Not an API.
#[doc(hidden)]
pub type EventSource = Pin<Box<dyn Stream<Item = Result<RawEvent, BoxError>> + Send>>;
