use pactum::{route, Endpoint};

fn main() {
    let _ = Endpoint::delete(route::dynamic("/files/*path")).build();
}
