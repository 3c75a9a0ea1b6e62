//! Row 19, server-sent events: `GET /events?count=n` streams `n` events, event `i` with id `i`
//! and data `{"n":i}`, then ends.

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

/// `count` events, numbered from 1, then the end of the stream.
pub fn events_handler() -> AnyHandler {
    handler(events(), |ctx: Ctx<NoParams, EventsQuery>| async move {
        let ticks = (1..=ctx.query.count).map(|n| Event::new(Tick { n }).with_id(n.to_string()));
        Ok(Events::new(futures_util::stream::iter(ticks)))
    })
    .documented()
}
