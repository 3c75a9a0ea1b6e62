use pactum::http::StatusCode;
use pactum::{route, Endpoint, error::ErrorAnswer};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
struct NotFound {
    id: u64,
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} not found", self.id)
    }
}

impl std::error::Error for NotFound {}

impl ErrorAnswer for NotFound {
    const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND];

    fn status(&self) -> StatusCode {
        StatusCode::NOT_FOUND
    }
}

fn main() {
    let _ = Endpoint::get(route::static_path("/me"))
        .errors::<NotFound>()
        .errors::<NotFound>()
        .build();
}
