//! Row 28, typed response headers: `POST /tickets` answers 201 with the ticket, its
//! `Location` and the number of tickets in `X-Total-Count`, declared in the contract
//! (`WithHeaders`); its declared 429 carries a typed `Retry-After` (the subject `flood` stands
//! in for a client over its rate).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pactum::contract::WithHeaders;
use pactum::error::error_answer;
use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{handler, handler::AnyHandler, route, Ctx, Endpoint, NoParams, NoQuery};
use serde::{Deserialize, Serialize};

use super::built;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct NewTicket {
    #[validate(length(min = 1, max = 100))]
    pub subject: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Ticket {
    pub id: u64,
    pub subject: String,
}

/// The headers of a created ticket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct TicketCreated {
    /// Where the new ticket is: `/tickets/<id>`.
    #[validate(length(min = 1))]
    pub location: String,
    /// How many tickets there are, this one included.
    #[validate(range(min = 1))]
    pub x_total_count: u64,
}

pub type CreatedTicket = WithHeaders<Ticket, TicketCreated>;

/// A client over its rate: 429 `{"error":"Too many tickets","code":"flood"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TicketFlood {
    pub error: String,
    pub code: String,
}

impl std::fmt::Display for TicketFlood {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error)
    }
}

impl std::error::Error for TicketFlood {}

error_answer!(TicketFlood { _ => TOO_MANY_REQUESTS });

/// The headers of a 429: when to try again, in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct RetryAfter {
    #[validate(range(min = 1, max = 3600))]
    pub retry_after: u32,
}

pub type TicketRefused = WithHeaders<TicketFlood, RetryAfter>;

pub fn create_ticket() -> Endpoint<NoParams, NoQuery, NewTicket, CreatedTicket, TicketRefused> {
    built(
        Endpoint::post(route!("/tickets"))
            .body::<NewTicket>()
            .response::<CreatedTicket>()
            .errors::<TicketRefused>()
            .name("createTicket")
            .summary("Open a ticket: 201 with its Location and the tickets' count")
            .tag("raw")
            .build(),
    )
}

/// Numbers tickets from 1, per handler list (per server).
pub fn create_ticket_handler() -> AnyHandler {
    let count = Arc::new(AtomicU64::new(0));
    handler(
        create_ticket(),
        move |ctx: Ctx<NoParams, NoQuery, NewTicket>| {
            let count = Arc::clone(&count);
            async move {
                if ctx.body.subject == "flood" {
                    let flood = TicketFlood {
                        error: "Too many tickets".into(),
                        code: "flood".into(),
                    };
                    return Err(WithHeaders::new(flood, RetryAfter { retry_after: 30 }).into());
                }
                let id = count.fetch_add(1, Ordering::Relaxed) + 1;
                let headers = TicketCreated {
                    location: format!("/tickets/{id}"),
                    x_total_count: id,
                };
                let ticket = Ticket {
                    id,
                    subject: ctx.body.subject,
                };
                Ok(WithHeaders::new(ticket, headers))
            }
        },
    )
    .documented()
}
