//! The 401 check of a contract's [`Security`]: the request must carry one of its credentials.

use std::sync::Arc;

use http::header::WWW_AUTHENTICATE;
use http::HeaderValue;

use crate::error::Rejection;
use crate::middleware::{self, Middleware};
use crate::security::{Security, SecurityScheme};

/// The pipeline's check of a contract's [`Security`]: a middleware, run inside the server's
/// own and outside the contract's, that answers [`Rejection::Unauthorized`] when the request
/// carries none of the credentials; `None` for a contract that requires none.
pub(super) fn required(security: &[Security]) -> Option<Middleware> {
    if security.is_empty() {
        return None;
    }
    let security: Arc<[Security]> = security.into();
    let bearer = security
        .iter()
        .any(|s| matches!(s.scheme(), SecurityScheme::Bearer));
    Some(middleware::from_fn(move |req, next| {
        let present = security.iter().any(|s| s.is_present(req.headers()));
        async move {
            if !present {
                let error = Rejection::Unauthorized.error();
                let error = if bearer {
                    error.with_header(
                        WWW_AUTHENTICATE,
                        HeaderValue::from_static("Bearer"),
                    )
                } else {
                    error
                };
                return Err(error.into());
            }
            next.run(req).await
        }
    }))
}
