//! An event stream's events as the typed client reads them: parsed, and resumed after a broken
//! connection as the client's [`Reconnect`] policy says.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};
use http::header::{HeaderName, HeaderValue};
use http::StatusCode;
use pactum::error::BoxError;
use pactum::sse::{EventSource, RawEvent};

use crate::client::Client;
use crate::reconnect::Reconnect;
use crate::transport::{ByteStream, Prepared, Received, ReceivedBody};

/// The header a resuming client sends: the id of the last event it received.
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// What a stream needs to be resumed: the client, and the request to send again.
pub(crate) struct Resume {
    pub(crate) client: Client,
    pub(crate) request: Box<Prepared>,
}

/// One connection's events, parsed.
type Parsed = Pin<
    Box<dyn Stream<Item = Result<eventsource_stream::Event, EventStreamError<BoxError>>> + Send>,
>;

fn parse(bytes: ByteStream) -> Parsed {
    Box::pin(bytes.eventsource())
}

/// The events of a `text/event-stream` answer, parsed; resumed after a broken connection
/// when `resume` is given and its client's policy allows.
pub(crate) fn raw_events(bytes: ByteStream, resume: Option<Resume>) -> EventSource {
    let resume = resume.filter(|resume| resume.client.inner.reconnect.retries() > 0);
    let Some(resume) = resume else {
        return Box::pin(parse(bytes).map(|read| read.map(raw).map_err(broke)));
    };
    let reading = Reading {
        events: Some(parse(bytes)),
        delay: resume.client.inner.reconnect.delay(),
        policy: resume.client.inner.reconnect,
        resume,
        last_id: None,
        seen: false,
        attempts: 0,
    };
    Box::pin(futures_util::stream::unfold(reading, Reading::next))
}

/// An event as [`RawEvent`], the parser's defaults (no id, the `message` type) as `None`.
fn raw(event: eventsource_stream::Event) -> RawEvent {
    RawEvent {
        id: Some(event.id).filter(|id| !id.is_empty()),
        // The type every event has when it names none.
        name: Some(event.event).filter(|name| name != "message"),
        data: event.data,
        retry: event.retry,
    }
}

fn broke(error: EventStreamError<BoxError>) -> BoxError {
    format!("the event stream broke: {error}").into()
}

/// A stream being read, and what resuming it takes.
struct Reading {
    /// `None` once the stream has ended.
    events: Option<Parsed>,
    resume: Resume,
    policy: Reconnect,
    /// The wait before an attempt: the policy's, then the server's last `retry:`.
    delay: Duration,
    /// The id of the last event handed out that had one.
    last_id: Option<String>,
    /// Whether any event was handed out.
    seen: bool,
    /// Attempts since the last event.
    attempts: u32,
}

impl Reading {
    async fn next(mut self) -> Option<(Result<RawEvent, BoxError>, Self)> {
        loop {
            let read = self.events.as_mut()?.next().await;
            match read {
                Some(Ok(event)) => {
                    if !event.id.is_empty() {
                        self.last_id = Some(event.id.clone());
                    }
                    if let Some(retry) = event.retry {
                        self.delay = retry;
                    }
                    self.seen = true;
                    self.attempts = 0;
                    return Some((Ok(raw(event)), self));
                }
                // A clean end: the server ended the stream.
                None => return None,
                Some(Err(EventStreamError::Transport(error)))
                    if self.last_id.is_some() || !self.seen =>
                {
                    match self.resumed(error).await {
                        Ok(Some(events)) => self.events = Some(events),
                        Ok(None) => return None,
                        Err(error) => {
                            self.events = None;
                            return Some((Err(error), self));
                        }
                    }
                }
                Some(Err(error)) => {
                    self.events = None;
                    return Some((Err(broke(error)), self));
                }
            }
        }
    }

    /// The stream read again after it broke with `error`: its new events, or `None` when
    /// the server has nothing more (204).
    async fn resumed(&mut self, mut error: BoxError) -> Result<Option<Parsed>, BoxError> {
        while self.attempts < self.policy.retries() {
            self.attempts += 1;
            tokio::time::sleep(self.delay).await;
            let mut request = Prepared::clone(&self.resume.request);
            if let Some(id) = &self.last_id {
                // Any UTF-8 but NUL, CR and LF, which the parser never keeps in an id.
                let value = HeaderValue::from_bytes(id.as_bytes()).map_err(BoxError::from)?;
                request.headers.insert(LAST_EVENT_ID, value);
            }
            match self.resume.client.execute(request).await {
                Ok(Received {
                    status: StatusCode::NO_CONTENT,
                    ..
                }) => return Ok(None),
                Ok(Received {
                    body: ReceivedBody::Streamed(bytes),
                    ..
                }) => return Ok(Some(parse(bytes))),
                Ok(Received { status, .. }) => {
                    return Err(format!(
                        "the event stream broke ({error}); resuming it was answered {status}"
                    )
                    .into())
                }
                Err(failed) => error = failed.into(),
            }
        }
        Err(format!(
            "the event stream broke and {} attempts to resume it failed: {error}",
            self.policy.retries()
        )
        .into())
    }
}
