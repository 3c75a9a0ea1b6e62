//! Server-sent events: a contract whose response is [`Events<T>`](Events)
//! (`.response::<Events<Tick>>()`) answers a `text/event-stream` of [`Event`]s, with a
//! keep-alive comment every [`DEFAULT_KEEP_ALIVE`] unless the stream sets its own. The guide's
//! [`sse`](crate::guide::sse) chapter shows one end to end.

pub use crate::contract::event::Event;
pub use crate::contract::events::{Events, DEFAULT_KEEP_ALIVE};
pub use crate::contract::raw_event::{EventSource, RawEvent};
