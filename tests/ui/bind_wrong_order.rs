// The bound values come in the order they were bound: state, then the provider's `User`.
use pactum::middleware::{self, Request};
use pactum::{bind, route, Ctx, Endpoint, contract::NoContent};

#[derive(Clone)]
struct Store;

#[derive(Clone)]
struct User;

fn main() {
    let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    let auth = middleware::provide(|_: &Request| async { Ok(User) });
    let _ = bind(endpoint)
        .state(Store)
        .provide(auth)
        .to(|_ctx: Ctx, (_user, _store): (User, Store)| async move { Ok(NoContent) });
}
