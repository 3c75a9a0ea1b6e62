//! Row 19, server-sent events: `GET /events?count=n` streams `n` events, event `i` with id `i`
//! and data `{"n":i}`, then ends. A reconnecting client's `Last-Event-ID: k` resumes after
//! event `k` (events `k+1..=n`); with nothing after it (`k >= n`) the answer is a 204, which
//! tells the client to stop. An id that is not a number starts from event 1.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{
    handler, handler::AnyHandler, route, sse::Event, sse::Events, Ctx, Endpoint, NoBody, NoParams,
};
use serde::{Deserialize, Serialize};

use super::built;

/// `?count=`, 1 to 100.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct EventsQuery {
    #[validate(range(min = 1, max = 100))]
    pub count: u32,
}

/// One event's data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Tick {
    pub n: u32,
}

pub fn events() -> Endpoint<NoParams, EventsQuery, NoBody, Events<Tick>> {
    built(
        Endpoint::get(route!("/events"))
            .query::<EventsQuery>()
            .response::<Events<Tick>>()
            .name("events")
            .summary("Stream `count` server-sent events")
            .tag("ops")
            .build(),
    )
}

/// `count` events, numbered from 1, then the end of the stream; after `Last-Event-ID: k`,
/// events `k+1..=count`, or a 204 when there are none.
pub fn events_handler() -> AnyHandler {
    handler(events(), |ctx: Ctx<NoParams, EventsQuery>| async move {
        // Not a number (or none): from the start.
        let after: u32 = ctx
            .last_event_id()
            .and_then(|id| id.parse().ok())
            .unwrap_or(0);
        if after >= ctx.query.count {
            return Ok(Events::finished());
        }
        let ticks =
            (after + 1..=ctx.query.count).map(|n| Event::new(Tick { n }).with_id(n.to_string()));
        Ok(Events::new(futures_util::stream::iter(ticks)))
    })
    .documented()
}
