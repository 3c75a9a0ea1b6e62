use pactum::contract::NoContent;
use pactum::{handler, route, Endpoint, ServerOptions};

async fn run() {
    let ping = Endpoint::get(route!("/ping")).build().unwrap();
    let api = pactum_warp::filter(vec![handler(ping, |_| async { Ok(NoContent) }).into()]).unwrap();
    // A warp filter is served by `pactum_warp::serve`, not `pactum::serve`.
    let _ = pactum::serve(api, ServerOptions::default()).await;
}

fn main() {
    let _ = run();
}
