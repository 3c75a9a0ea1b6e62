use pactum::{route, Endpoint};

fn main() {
    let _ = Endpoint::get(route::pattern("/users/:id")).build();
}
