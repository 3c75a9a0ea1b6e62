//! The builder's settings and the failures it reports at `build`.
use super::*;

#[test]
fn builder_reports_the_first_failure_at_build() {
    let err = Client::builder()
        .base_url("http://h")
        .default_header("bad header", "x")
        .default_header("x-ok", "bad\nvalue")
        .build()
        .unwrap_err();
    assert!(err.is_builder());
    assert!(Client::builder().build().unwrap_err().is_builder());
    assert!(Client::new("nope").unwrap_err().is_builder());
    let err = Client::builder()
        .base_url("http://h")
        .add_root_certificate("not pem")
        .build()
        .unwrap_err();
    assert!(err.is_builder());
    let err = Client::builder()
        .base_url("http://h")
        .reqwest_client(
            reqwest::Client::builder()
                .tls_backend_preconfigured(tls::client_config(Vec::new()).unwrap())
                .build()
                .unwrap(),
        )
        .configure_reqwest(|b| b)
        .build()
        .unwrap_err();
    assert!(err.is_builder());
}

#[test]
fn settings_are_kept() {
    let client = Client::builder()
        .base_url("http://h:8080/api/")
        .bearer_auth("t0ken")
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    assert_eq!(client.base_url().as_str(), "http://h:8080/api/");
    assert_eq!(client.timeout(), Some(Duration::from_secs(2)));
    assert!(!client.is_in_process());
    assert!(client.inner.headers[AUTHORIZATION].is_sensitive());
    assert!(!format!("{client:?}").contains("t0ken"));
    assert_eq!(
        Client::new("http://h").unwrap().timeout(),
        Some(DEFAULT_TIMEOUT)
    );
    assert_eq!(
        Client::builder()
            .base_url("http://h")
            .no_timeout()
            .build()
            .unwrap()
            .timeout(),
        None
    );
}
