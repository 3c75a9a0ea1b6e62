//! What the errors say and carry.
use super::*;

#[test]
fn predicates_follow_the_kind() {
    let e = Error::validation(Part::Body, vec![Detail::new(vec!["name".into()], "bad")]);
    assert!(e.is_validation());
    assert_eq!(e.validation_part(), Some(Part::Body));
    assert!(!e.is_transport() && !e.is_status() && !e.is_decode() && !e.is_timeout());
    assert_eq!(e.details()[0].message, "bad");
    assert_eq!(
        e.to_string(),
        "the body failed validation; nothing was sent; name: bad"
    );

    let e = Error::builder("invalid base URL \"x\": relative URL without a base");
    assert!(e.is_builder() && e.source().is_none());
    assert_eq!(
        e.to_string(),
        "could not build the client or request: invalid base URL \"x\": relative URL without a base"
    );

    let e = Error::timeout();
    assert!(e.is_timeout() && e.is_transport());
    assert!(e.source().is_some());

    let body = ErrorBody {
        error: "Not found".into(),
        details: vec![],
        code: Some("missing".into()),
    };
    let e = Error::status_error(StatusCode::NOT_FOUND, body);
    assert!(e.is_status());
    assert_eq!(e.status(), Some(StatusCode::NOT_FOUND));
    assert_eq!(e.error_body().unwrap().code.as_deref(), Some("missing"));
    assert_eq!(e.to_string(), "HTTP 404 Not Found: Not found");
    assert_eq!(e.validation_part(), None);
}

#[test]
fn error_is_send_sync_and_small() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<Error>();
    assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
}
