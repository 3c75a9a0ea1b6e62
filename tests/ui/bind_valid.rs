// What `bind` accepts: no bindings, unannotated closures (the tuple's types are inferred), a
// named async function, and six values.
use pactum::middleware::{self, Request};
use pactum::{bind, route, Ctx, Endpoint, contract::NoContent};
use std::sync::Arc;

#[derive(Clone)]
struct Store;

#[derive(Clone)]
struct User;

async fn whoami(_ctx: Ctx, (_store, _user): (Store, User)) -> Result<NoContent, pactum::Error> {
    Ok(NoContent)
}

fn main() {
    let endpoint = Endpoint::get(route!("/me")).build().unwrap();
    let auth = middleware::provide(|_: &Request| async { Ok(User) });
    let _ = bind(endpoint.clone()).to(|_ctx, ()| async { Ok(NoContent) });
    let _ = bind(endpoint.clone())
        .state(Store)
        .provide(auth.clone())
        .to(|_ctx, (store, user)| async move {
            let (_, _): (Store, User) = (store, user);
            Ok(NoContent)
        });
    let _ = bind(endpoint.clone()).state(Store).provide(auth.clone()).to(whoami);
    let _ = bind(endpoint)
        .state(1u8)
        .state(Arc::new(2u16))
        .provide(auth)
        .state("four")
        .state(5i64)
        .state(Store)
        .to(|_ctx: Ctx, (_a, _b, _user, _d, _e, _store): (u8, Arc<u16>, User, &str, i64, Store)| async {
            Ok(NoContent)
        });
}
