// A function that asks for a `User` when nothing provides one: only a `Store` is bound.
use pactum::{bind, route, Ctx, Endpoint, contract::NoContent};

#[derive(Clone)]
struct Store;

#[derive(Clone)]
struct User;

async fn whoami(_ctx: Ctx, (_store, _user): (Store, User)) -> Result<NoContent, pactum::Error> {
    Ok(NoContent)
}

fn main() {
    let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    let _ = bind(endpoint.clone())
        .state(Store)
        .to(|_ctx: Ctx, (_store, _user): (Store, User)| async move { Ok(NoContent) });
    // The same with a named function.
    let _ = bind(endpoint).state(Store).to(whoami);
}
