//! A request head copied out of the connection's read buffer, before a large body is read.
//!
//! hyper parses a head in place: its header values and its URI are slices of the
//! connection's read buffer. While one is alive, hyper cannot use that buffer again for the
//! body's next bytes and allocates another (8 KiB or more) for each read that needs room. A
//! large body needs several: its head is copied out first (a few small allocations).

use bytes::Bytes;
use http::{HeaderValue, Uri};

/// Copies `head`'s header values and URI into allocations of their own. A value or URI that
/// does not parse again (one a middleware made unchecked) is left as it is: only the saving
/// is lost.
pub(crate) fn detach(head: &mut http::request::Parts) {
    for value in head.headers.values_mut() {
        let copy = Bytes::copy_from_slice(value.as_bytes());
        if let Ok(mut owned) = HeaderValue::from_maybe_shared(copy) {
            owned.set_sensitive(value.is_sensitive());
            *value = owned;
        }
    }
    if let Ok(uri) = Uri::from_maybe_shared(Bytes::from(head.uri.to_string())) {
        head.uri = uri;
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use http::{HeaderValue, Request, Uri};

    use super::detach;

    #[test]
    fn nothing_of_the_head_points_into_its_buffer_after() {
        let buffer = Bytes::from_static(b"/users/7?x=1 application/json secret");
        let within = |p: *const u8| buffer.as_ptr_range().contains(&p);
        let (mut head, ()) = Request::builder()
            .uri(Uri::from_maybe_shared(buffer.slice(0..12)).unwrap())
            .header("content-type", HeaderValue::from_maybe_shared(buffer.slice(13..29)).unwrap())
            .body(())
            .unwrap()
            .into_parts();
        let mut secret = HeaderValue::from_maybe_shared(buffer.slice(30..)).unwrap();
        secret.set_sensitive(true);
        head.headers.append("authorization", secret);
        assert!(within(head.uri.path().as_ptr()));

        detach(&mut head);

        assert_eq!(head.uri, "/users/7?x=1");
        assert!(!within(head.uri.path().as_ptr()));
        assert_eq!(head.headers["content-type"], "application/json");
        assert_eq!(head.headers["authorization"], "secret");
        assert!(head.headers["authorization"].is_sensitive());
        assert!(head.headers.values().all(|v| !within(v.as_bytes().as_ptr())));
    }
}
