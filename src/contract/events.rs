//! [`Events`] and [`Event`]: an answer that is a stream of server-sent events, each carrying a
//! typed value.

use std::fmt;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use validator::ValidationErrors;

use super::event::Event;
use super::raw_event::{EventSource, RawEvent};
use super::slot::{Declared, EventItems, Format, RawAnswer, Slot, StreamWriter};
use crate::error::BoxError;

/// How long a stream stays silent before the server writes a keep-alive comment, unless set
/// with [`Events::keep_alive`].
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The items of an [`Events`] stream: an event, or why the stream broke.
type Item<T> = Result<Event<T>, BoxError>;

/// A `text/event-stream` answer: a stream of [`Event`]s whose `data` is the JSON of a `T`.
/// `.response::<Events<T>>()`.
///
/// The server writes each event as it comes (its `T`'s `validator` rules checked first), a
/// keep-alive comment after [`DEFAULT_KEEP_ALIVE`] of silence, and ends the answer when the
/// stream ends, when the client goes away (the stream is dropped), or when the server shuts
/// down gracefully (the answer ends cleanly; the stream is dropped). A stream with nothing
/// more to send is [`Events::finished`]: a `204 No Content`, which tells a reconnecting
/// client to stop (a resuming handler reads the client's
/// [`Ctx::last_event_id`](crate::Ctx::last_event_id)). The OpenAPI document
/// gives `text/event-stream` with `T`'s schema; the typed client hands back an `Events<T>`
/// that yields the events it reads, decoded and checked.
///
/// ```
/// use futures_util::stream;
/// use pactum::{handler, route, Endpoint, sse::Event, sse::Events};
/// use serde::{Deserialize, Serialize};
/// use validator::Validate;
///
/// #[derive(Serialize, Deserialize, Validate)]
/// struct Tick {
///     n: u32,
/// }
///
/// let ticks = Endpoint::get(route!("/ticks"))
///     .response::<Events<Tick>>()
///     .build()?;
/// let h = handler(ticks, |_| async {
///     Ok(Events::new(stream::iter((1..=3).map(|n| Event::new(Tick { n })))))
/// });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Events<T> {
    /// In a `Mutex` so that the type is `Sync`, as a contract's types are; the stream is only
    /// polled through `&mut` (`Mutex::get_mut`), so the lock is never taken. `None`:
    /// [`Events::finished`].
    events: Mutex<Option<EventItems<T>>>,
    keep_alive: Option<Duration>,
}

impl<T: Send + 'static> Events<T> {
    /// The events of `stream`, in order; the answer ends with it.
    pub fn new<S>(stream: S) -> Self
    where
        S: Stream<Item = Event<T>> + Send + 'static,
    {
        Self::from_results(Mapped {
            stream,
            _item: PhantomData,
        })
    }

    /// The events of a fallible `stream`: an `Err` ends the answer abruptly (the client sees
    /// a broken stream, not its end) and is logged at `error`.
    pub fn try_new<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<Event<T>, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        Self::from_results(Mapped {
            stream,
            _item: PhantomData,
        })
    }

    fn from_results<S: Stream<Item = Item<T>> + Send + 'static>(stream: S) -> Self {
        Self {
            events: Mutex::new(Some(Box::pin(stream))),
            keep_alive: Some(DEFAULT_KEEP_ALIVE),
        }
    }

    /// Sets how long the stream may stay silent before the server writes a keep-alive
    /// comment (`:` and a blank line, ignored by clients); `None` for none. Keep-alive
    /// comments need the native server's timer (feature `server`, on with both adapters).
    pub fn keep_alive(mut self, every: Option<Duration>) -> Self {
        self.keep_alive = every;
        self
    }

    /// The stream, as a client reads one: no keep-alive (that is the server's).
    fn from_client<S>(stream: S) -> Self
    where
        S: Stream<Item = Item<T>> + Send + 'static,
    {
        Self::from_results(stream).keep_alive(None)
    }
}

impl<T> Events<T> {
    /// No more events: the server answers `204 No Content` with no body, the SSE spec's way
    /// of telling a client (a browser's `EventSource`, pactum's typed client) to stop
    /// reconnecting. For a handler that resumes after the client's
    /// [`Last-Event-ID`](crate::Ctx::last_event_id) and has nothing after it. As a stream
    /// (what the typed client hands back for a 204), it yields nothing.
    ///
    /// ```
    /// use futures_util::stream;
    /// use pactum::{handler, route, Ctx, Endpoint, sse::Event, sse::Events};
    /// # #[derive(serde::Serialize, serde::Deserialize, validator::Validate)]
    /// # struct Tick { n: u32 }
    ///
    /// let ticks = Endpoint::get(route!("/ticks")).response::<Events<Tick>>().build()?;
    /// let h = handler(ticks, |ctx: Ctx| async move {
    ///     // Ids 1 to 3; resume after the last one the client saw.
    ///     let after: u32 = ctx.last_event_id().and_then(|id| id.parse().ok()).unwrap_or(0);
    ///     if after >= 3 {
    ///         return Ok(Events::finished());
    ///     }
    ///     let ticks = (after + 1..=3).map(|n| Event::new(Tick { n }).with_id(n.to_string()));
    ///     Ok(Events::new(stream::iter(ticks)))
    /// });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finished() -> Self {
        Self {
            events: Mutex::new(None),
            keep_alive: None,
        }
    }
}

impl<T> Stream for Events<T> {
    type Item = Item<T>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item<T>>> {
        // Never locked, so never poisoned; `into_inner` keeps the stream either way.
        let events = self
            .events
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        match events {
            Some(events) => events.as_mut().poll_next(cx),
            None => Poll::Ready(None),
        }
    }
}

impl<T> fmt::Debug for Events<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finished = match self.events.lock() {
            Ok(events) => events.is_none(),
            Err(poisoned) => poisoned.get_ref().is_none(),
        };
        f.debug_struct("Events")
            .field("finished", &finished)
            .field("keep_alive", &self.keep_alive)
            .finish_non_exhaustive()
    }
}

pin_project_lite::pin_project! {
    /// A stream of events or of results, as results.
    struct Mapped<S, T> {
        #[pin]
        stream: S,
        _item: PhantomData<fn() -> T>,
    }
}

/// What a stream's items become in [`Events`].
trait IntoItem<T> {
    fn into_item(self) -> Item<T>;
}

impl<T> IntoItem<T> for Event<T> {
    fn into_item(self) -> Item<T> {
        Ok(self)
    }
}

impl<T, E: Into<BoxError>> IntoItem<T> for Result<Event<T>, E> {
    fn into_item(self) -> Item<T> {
        self.map_err(Into::into)
    }
}

impl<S, T> Stream for Mapped<S, T>
where
    S: Stream<Item: IntoItem<T>>,
{
    type Item = Item<T>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item<T>>> {
        self.project()
            .stream
            .poll_next(cx)
            .map(|item| item.map(IntoItem::into_item))
    }
}

/// Not a JSON value: an `Events` fills a response slot only.
impl<T> Serialize for Events<T> {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(ser::Error::custom("a stream of events is not a JSON value"))
    }
}

/// Not a JSON value: an `Events` fills a response slot only.
impl<'de, T> Deserialize<'de> for Events<T> {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom("a stream of events is not a JSON value"))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Slot> Slot for Events<T> {
    type Presence = Declared;
    const FORMAT: Format = Format::EventStream;

    fn absent() -> Option<Self> {
        None
    }

    fn check(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    fn write_stream<W: StreamWriter>(self, writer: W) -> Option<W::Body> {
        let events = self
            .events
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)?;
        Some(writer.events(events, self.keep_alive))
    }

    fn from_raw(raw: RawAnswer) -> Result<Self, String> {
        let content_type = raw.content_type.as_ref().and_then(|v| v.to_str().ok());
        Err(format!(
            "the answer is not `text/event-stream` but {}",
            content_type.unwrap_or("without a content type")
        ))
    }

    fn from_event_source(source: EventSource) -> Result<Self, String> {
        Ok(Self::from_client(Decoded {
            source,
            _item: PhantomData,
        }))
    }
}

pin_project_lite::pin_project! {
    /// Raw events decoded into `Event<T>`s, each checked against `T`'s rules.
    struct Decoded<T> {
        source: EventSource,
        _item: PhantomData<fn() -> T>,
    }
}

impl<T: Slot> Stream for Decoded<T> {
    type Item = Item<T>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item<T>>> {
        let this = self.project();
        let raw = match std::task::ready!(this.source.as_mut().poll_next(cx)) {
            Some(Ok(raw)) => raw,
            Some(Err(error)) => return Poll::Ready(Some(Err(error))),
            None => return Poll::Ready(None),
        };
        Poll::Ready(Some(decode_event(raw)))
    }
}

/// An event's data read as a `T` and checked.
fn decode_event<T: Slot>(raw: RawEvent) -> Item<T> {
    let data: T = serde_json::from_str(&raw.data)
        .map_err(|e| format!("an event's data is not the contract's JSON: {e}"))?;
    data.check()
        .map_err(|e| format!("an event's data fails its rules: {e}"))?;
    Ok(Event {
        data,
        id: raw.id,
        name: raw.name,
        retry: raw.retry,
    })
}
