//! [`Event`]: one server-sent event of an [`Events`](super::events::Events) answer.

use std::time::Duration;

/// One server-sent event: its `data` (written as JSON), and optionally its `id`, its `event`
/// name and a `retry` hint.
///
/// ```
/// use pactum::sse::Event;
///
/// let event = Event::new(7_u32).with_id("7").with_name("tick");
/// assert_eq!((event.data(), event.id(), event.name()), (&7, Some("7"), Some("tick")));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    pub(super) data: T,
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) retry: Option<Duration>,
}

impl<T> Event<T> {
    /// An event carrying `data`, without id or name.
    pub fn new(data: T) -> Self {
        Self {
            data,
            id: None,
            name: None,
            retry: None,
        }
    }

    /// Sets the event's `id` (what a reconnecting browser sends back as `Last-Event-ID`).
    ///
    /// An id holding a line break or NUL cannot be written: the server ends the stream there
    /// (logged at `error`).
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the event's name (its `event:` field; a browser's `addEventListener` name).
    ///
    /// A name holding a line break cannot be written: the server ends the stream there
    /// (logged at `error`).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Sets the reconnection time the client should use (`retry:`, in milliseconds).
    pub fn with_retry(mut self, retry: Duration) -> Self {
        self.retry = Some(retry);
        self
    }

    /// The event's value.
    pub fn data(&self) -> &T {
        &self.data
    }

    /// The event's value, owned.
    pub fn into_data(self) -> T {
        self.data
    }

    /// The event's id, if it has one.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The event's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The reconnection time, if set.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }
}
