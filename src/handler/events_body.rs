//! The body of an [`Events`](crate::sse::Events) answer: each event written as it comes, in the
//! `text/event-stream` format, with keep-alive comments while the stream is silent — the
//! pipeline's [`StreamWriter`], which the contract's `Slot::write_stream` hands its events.

use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use crate::contract::event::Event;
use crate::contract::{EventItems as Events, Slot, StreamWriter};
use crate::error::BoxError;
use crate::response::{EndingOnShutdown, EndsOnShutdown, ResponseBody};
use crate::validation::details_from_rules;

/// A keep-alive comment: a line starting with `:`, which clients ignore.
const KEEP_ALIVE: &[u8] = b":\n\n";

/// Writes a streamed answer's events into a [`ResponseBody`] that ends once the server shuts
/// down, with the [`EndsOnShutdown`] that tells it (the answer's extension); one box for both.
pub(super) struct EventsWriter;

impl StreamWriter for EventsWriter {
    type Body = (ResponseBody, EndsOnShutdown);

    fn events<T: Slot>(
        self,
        events: Events<T>,
        keep_alive: Option<Duration>,
    ) -> (ResponseBody, EndsOnShutdown) {
        let ends = EndsOnShutdown::default();
        let body = ResponseBody::streamed(EndingOnShutdown {
            body: EventsBody {
                events,
                keep_alive: KeepAlive::new(keep_alive),
                ended: false,
            },
            ends: ends.clone(),
        });
        (body, ends)
    }
}

struct EventsBody<T> {
    events: Events<T>,
    keep_alive: KeepAlive,
    ended: bool,
}

impl<T: Slot> http_body::Body for EventsBody<T> {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if self.ended {
            return Poll::Ready(None);
        }
        let written = match self.events.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(event))) => write_event(&event),
            Poll::Ready(Some(Err(error))) => Err(error),
            Poll::Ready(None) => {
                self.ended = true;
                return Poll::Ready(None);
            }
            Poll::Pending => {
                return match self.keep_alive.poll_due(cx) {
                    true => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(KEEP_ALIVE))))),
                    false => Poll::Pending,
                };
            }
        };
        match written {
            Ok(bytes) => {
                self.keep_alive.restart();
                Poll::Ready(Some(Ok(Frame::data(bytes))))
            }
            Err(error) => {
                // The answer's head is sent: all that is left is to break it off.
                tracing::error!(error = %error, "event stream ended by an error");
                self.ended = true;
                Poll::Ready(Some(Err(error)))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

/// One event in the `text/event-stream` format: `id`, `event`, `retry`, then its data's
/// JSON on one `data:` line (serde_json writes no line break), then a blank line.
///
/// # Errors
///
/// The data fails its rules or does not serialise; the id holds a line break or NUL; the
/// name a line break.
fn write_event<T: Slot>(event: &Event<T>) -> Result<Bytes, BoxError> {
    event.data().check().map_err(|errors| {
        format!(
            "an event's data fails its rules: {:?}",
            details_from_rules(&errors)
        )
    })?;
    let mut out = Vec::with_capacity(64);
    if let Some(id) = event.id() {
        if id.contains(['\n', '\r', '\0']) {
            return Err("an event id holds a line break or NUL".into());
        }
        writeln!(out, "id: {id}")?;
    }
    if let Some(name) = event.name() {
        if name.contains(['\n', '\r']) {
            return Err("an event name holds a line break".into());
        }
        writeln!(out, "event: {name}")?;
    }
    if let Some(retry) = event.retry() {
        writeln!(out, "retry: {}", retry.as_millis())?;
    }
    out.extend_from_slice(b"data: ");
    serde_json::to_writer(&mut out, event.data())?;
    out.extend_from_slice(b"\n\n");
    Ok(Bytes::from(out))
}

/// When a silent stream is due a keep-alive comment: on tokio's timer (feature `server`).
struct KeepAlive {
    #[cfg(feature = "server")]
    timer: Option<(Duration, Option<Pin<Box<tokio::time::Sleep>>>)>,
}

impl KeepAlive {
    fn new(every: Option<Duration>) -> Self {
        #[cfg(feature = "server")]
        {
            Self {
                timer: every.map(|every| (every, None)),
            }
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = every;
            Self {}
        }
    }

    /// Whether the stream has been silent for the keep-alive period; the task is woken when
    /// it will have been. The period starts again.
    fn poll_due(&mut self, cx: &mut Context<'_>) -> bool {
        #[cfg(feature = "server")]
        if let Some((every, timer)) = &mut self.timer {
            let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(*every)));
            if std::future::Future::poll(timer.as_mut(), cx).is_ready() {
                timer.as_mut().reset(tokio::time::Instant::now() + *every);
                return true;
            }
        }
        let _ = cx;
        false
    }

    /// An event was written: the silence starts again.
    fn restart(&mut self) {
        #[cfg(feature = "server")]
        if let Some((_, timer)) = &mut self.timer {
            // Set again when the stream next waits.
            *timer = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use validator::Validate;

    use super::*;

    #[derive(Serialize, Deserialize, Validate)]
    struct Tick {
        #[validate(range(max = 10))]
        n: u32,
        text: String,
    }

    #[test]
    fn an_event_is_its_fields_then_its_data_on_one_line() {
        let tick = |n| Tick {
            n,
            text: "a\nb".into(),
        };
        let event = Event::new(tick(1))
            .with_id("1")
            .with_name("tick")
            .with_retry(Duration::from_millis(1500));
        assert_eq!(
            write_event(&event).unwrap(),
            "id: 1\nevent: tick\nretry: 1500\ndata: {\"n\":1,\"text\":\"a\\nb\"}\n\n"
        );
        assert_eq!(
            write_event(&Event::new(tick(2))).unwrap(),
            "data: {\"n\":2,\"text\":\"a\\nb\"}\n\n"
        );
    }

    #[test]
    fn what_cannot_be_written_is_an_error() {
        let tick = || Tick {
            n: 1,
            text: String::new(),
        };
        assert!(write_event(&Event::new(tick()).with_id("a\nb")).is_err());
        assert!(write_event(&Event::new(tick()).with_id("a\0")).is_err());
        assert!(write_event(&Event::new(tick()).with_name("a\rb")).is_err());
        let too_big = Tick {
            n: 11,
            text: String::new(),
        };
        assert!(write_event(&Event::new(too_big)).is_err());
    }
}
