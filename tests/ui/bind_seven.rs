// A handler binds at most six values.
use pactum::{bind, route, Endpoint};

fn main() {
    let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    let _ = bind(endpoint)
        .state(1u8)
        .state(2u16)
        .state(3u32)
        .state(4u64)
        .state(5i8)
        .state(6i16)
        .state(7i32);
}
