//! Over real sockets against the warp adapter, mounted under a prefix that the client's base
//! URL carries.

use pactum_client::Client;
use warp::Filter;

use crate::scenarios;
use crate::support::contracts::*;
use crate::support::*;

async fn warp_server() -> pactum::server::Server {
    let api = warp::path("api").and(pactum_warp::filter(handlers()).unwrap());
    pactum_warp::serve(api, pactum_test_kit::options())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_over_warp() {
    let server = warp_server().await;
    for prefix in ["/api", "/api/"] {
        let client = Client::new(base_url(&server, prefix)).unwrap();
        let seen = client.call(&seen()).send().await.unwrap();
        assert_eq!(seen.path, "/api/seen");
    }
    let client = Client::new(base_url(&server, "/api")).unwrap();
    scenarios::all(&client).await;
    let client = scenarios::with_defaults(Client::builder().base_url(base_url(&server, "/api")));
    scenarios::headers_are_sent(&client).await;
    // Outside the filter's routes warp answers: an empty 404, read as its reason phrase.
    let err = client.call(&missing()).send().await.unwrap_err();
    assert_eq!(err.error_body().unwrap().error, "Not Found");
    server.shutdown().await;
}
