fn main() {
    let _ = pactum::route!("/users/:id/:id");
    let _ = pactum::route!("/files/*path/raw");
    let _ = pactum::route!("users");
    let _ = pactum::route!("/users/:user-id");
    let _ = pactum::route!("/users/{id}.json");
    let _ = pactum::route!("/files/{*path}/raw");
}
