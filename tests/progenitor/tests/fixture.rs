//! The generated client against a running fixture (`PACTUM_BASE_URL`, set by `run.sh`); without
//! it, only that the client compiled and has the fixture's operations.

use pactum_progenitor_check::types::{NewUser, NewUserName};
use pactum_progenitor_check::{Client, Error};

fn client() -> Option<Client> {
    let base = std::env::var("PACTUM_BASE_URL").ok()?;
    Some(Client::new(&base))
}

#[tokio::test]
async fn the_generated_client_talks_to_the_fixture() {
    let Some(client) = client() else {
        eprintln!("PACTUM_BASE_URL not set: compiled only");
        return;
    };
    let health = client.health().await.expect("GET /health").into_inner();
    assert_eq!(health.status, "ok");

    let new = NewUser {
        name: NewUserName::try_from("Ada".to_owned()).expect("a valid name"),
        // `format: email`, no pattern (the server's rule is not a regular expression): a
        // plain `String` (progenitor made a checked newtype of the old copied pattern).
        email: "ada@example.com".to_owned(),
        age: Some(36),
        tags: vec!["math".parse().expect("a valid tag")],
        active: None,
    };
    let created = client.create_user(&new).await.expect("POST /users");
    assert_eq!(created.status(), 201);
    let user = created.into_inner();
    assert_eq!(user.email, "ada@example.com");
    assert!(user.active);

    let fetched = client.get_user(user.id).await.expect("GET /users/{id}");
    assert_eq!(fetched.into_inner().id, user.id);

    // A documented error answer arrives typed, as the document's `ErrorBody`.
    match client.get_user(u64::MAX).await {
        Err(Error::ErrorResponse(answer)) => {
            assert_eq!(answer.status(), 404);
            assert_eq!(answer.into_inner().error, "User not found");
        }
        other => panic!("expected the 404 answer, got {other:?}"),
    }

    // Validation: the client refuses what the document refuses before sending it.
    assert!(NewUserName::try_from(String::new()).is_err());
}
