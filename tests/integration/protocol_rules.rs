//! HTTP's own rules the server keeps, on every adapter, over raw sockets: `OPTIONS *` asks
//! about the server itself (RFC 9110 §9.3.7).

use crate::support::raw_response;
use crate::support::TestServer;

on_every_adapter!(options_asterisk_lists_every_method_the_server_serves);

/// `OPTIONS *` is answered 204 with `Allow`: every method some route serves (HEAD with GET),
/// and OPTIONS; no route has the path `*`, so it is not a 404.
async fn options_asterisk_lists_every_method_the_server_serves(app: &TestServer) {
    let answer = raw_response(
        app.addr,
        b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 204, "{}", answer.head);
    assert_eq!(
        answer.header("allow"),
        Some("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
        "{}",
        answer.head
    );
    // Any other method on `*` has no route.
    let answer = raw_response(
        app.addr,
        b"GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 404, "{}", answer.head);
}
