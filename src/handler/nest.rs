//! [`nest`]: a handler list under a path prefix.

use std::sync::Arc;

use super::AnyHandler;
use crate::error::ConfigError;

/// Puts `handlers` under `prefix`: each route becomes `prefix` + route (`/api/v1` +
/// `/users/:id` = `/api/v1/users/:id`; a route `/` becomes `/api/v1`). What the warp adapter
/// does with `warp::path("api").and(filter)`, for the native server and any pipeline.
/// Routing, 404, 405 and `OPTIONS` work on the prefixed paths; a request outside the prefix
/// is not routed (404). Lists nest again, and join with `extend`.
///
/// The contracts are unchanged: the typed client still calls `/users/:id`, so give it a base
/// URL ending in the prefix (`http://host/api/v1`). Likewise an OpenAPI document built from
/// the contracts lists the contract's paths: declare the prefix as the document's server
/// (`openapi::Collector::server("/api/v1")`), which is where OpenAPI puts a base path.
///
/// ```
/// use pactum::{handler, handler::nest, route, pipeline::Body, Endpoint, contract::NoContent, Pipeline};
///
/// let ping = Endpoint::get(route!("/ping")).build()?;
/// let v1 = vec![handler(ping.clone(), |_| async { Ok(NoContent) }).into()];
/// let v2 = vec![handler(ping, |_| async { Ok(NoContent) }).into()];
/// let mut handlers = nest("/api/v1", v1)?;
/// handlers.extend(nest("/api/v2", v2)?);
/// let pipeline = Pipeline::new(handlers)?;
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let ok = pipeline.handle(http::Request::get("/api/v2/ping").body(Body::empty())?).await;
/// assert_eq!(ok.status(), 204);
/// let outside = pipeline.handle(http::Request::get("/ping").body(Body::empty())?).await;
/// assert_eq!(outside.status(), 404);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ConfigError::InvalidRoute`] when `prefix` does not start with `/`, ends with `/`, has an
/// empty segment, or holds a `:name` or `*name` segment (a prefix is literal).
pub fn nest(
    prefix: &str,
    handlers: impl IntoIterator<Item = AnyHandler>,
) -> Result<Vec<AnyHandler>, ConfigError> {
    handlers
        .into_iter()
        .map(|mut handler| {
            let mut spec = (*handler.spec).clone();
            spec.route = spec.route.prefixed(prefix)?;
            handler.spec = Arc::new(spec);
            Ok(handler)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{contract::NoContent, handler, Endpoint};

    fn ping() -> AnyHandler {
        let ping = Endpoint::get(crate::route::static_path("/ping"))
            .build()
            .unwrap();
        handler(ping, |_| async { Ok(NoContent) }).into()
    }

    #[test]
    fn routes_are_prefixed_and_nest_again() {
        let nested = nest("/api", nest("/v1", [ping()]).unwrap()).unwrap();
        assert_eq!(nested[0].spec.route.as_str(), "/api/v1/ping");
        let root = Endpoint::get(crate::route::static_path("/"))
            .build()
            .unwrap();
        let root: AnyHandler = handler(root, |_| async { Ok(NoContent) }).into();
        assert_eq!(nest("/api", [root]).unwrap()[0].spec.route.as_str(), "/api");
    }

    #[test]
    fn bad_prefixes_are_refused() {
        for prefix in ["api", "/api/", "/", "", "/a//b", "/:version", "/*rest"] {
            let refused = nest(prefix, [ping()]);
            assert!(
                matches!(refused, Err(ConfigError::InvalidRoute { .. })),
                "{prefix:?}"
            );
        }
    }
}
