// State is cloned for each request: a type that is not `Clone` cannot be bound as state.
use pactum::{bind, route, Endpoint};

struct Pool;

fn main() {
    let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    let _ = bind(endpoint).state(Pool);
}
