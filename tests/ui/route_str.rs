use pactum::Endpoint;

fn main() {
    // A plain `&str` is not a route: `route!("/health")` is.
    let _ = Endpoint::get("/health");
}
