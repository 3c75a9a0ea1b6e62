//! The route table: a radix tree (matchit) from path to the handlers of each method.

use std::collections::HashMap;
use std::sync::Arc;

use http::header::HeaderValue;
use http::Method;
use percent_encoding::percent_decode_str;

use super::path_index::PathIndex;
use super::security_check::required as security_check;
use super::AnswerMode;
use crate::error::ConfigError;
use crate::handler::AnyHandler;
use crate::middleware::Middleware;
use crate::request::CallHandler;
use crate::request::RawParams;
use crate::route::RouteName;
use crate::security::SecurityScheme;
use smallvec::SmallVec;

pub(crate) struct RouteTable {
    paths: PathIndex,
    /// The served routes, then one more: `*`, the server itself, which `OPTIONS *` asks
    /// about (RFC 9110 §9.3.7), its `Allow` every method some route serves.
    pub(crate) routes: Vec<RouteEntry>,
}

pub(crate) struct RouteEntry {
    pub(crate) template: RouteName,
    /// The names of its params, in route order (the radix tree's order too).
    param_names: Vec<RouteName>,
    /// The route ends in a catch-all whose segments are checked (no empty, `.` or `..`).
    pub(crate) checks_tail: bool,
    pub(crate) methods: Vec<MethodEntry>,
    /// `Allow` for this path: its methods, HEAD when it has GET, and OPTIONS.
    pub(crate) allow: HeaderValue,
}

pub(crate) struct MethodEntry {
    pub(crate) method: Method,
    pub(crate) handler: Arc<dyn CallHandler>,
    /// Server-wide middleware, then the contract's, then the handler's: outermost first.
    pub(crate) chain: Arc<[Middleware]>,
    pub(crate) body_limit: usize,
}

/// Where a request goes, found by [`Pipeline::route`](crate::Pipeline::route) and consumed by
/// [`Pipeline::dispatch`](crate::Pipeline::dispatch).
#[derive(Debug, Clone)]
pub struct Routed {
    pub(crate) route: usize,
    pub(crate) target: Target,
    /// Percent-decoded (name, value) pairs, in route order.
    pub(crate) params: RawParams,
    pub(crate) mode: AnswerMode,
}

impl Routed {
    /// Whether the answer carries its body (not for a `HEAD` request): pass it to
    /// [`Pipeline::answer`](crate::Pipeline::answer).
    pub fn answer_mode(&self) -> AnswerMode {
        self.mode
    }
}

/// What routing found for a request whose path exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// `methods[index]` serves it (a HEAD is served by the GET handler).
    Handler(usize),
    /// OPTIONS: answered 204 with `Allow`.
    Options,
    /// The path exists, the method does not: 405 with `Allow`.
    MethodNotAllowed,
}

impl RouteTable {
    pub(crate) fn new(
        handlers: Vec<AnyHandler>,
        server_middleware: &[Middleware],
        verified_elsewhere: &[SecurityScheme],
        default_body_limit: usize,
    ) -> Result<Self, ConfigError> {
        let mut routes: Vec<RouteEntry> = Vec::new();
        let mut by_path: HashMap<String, usize> = HashMap::new();
        let mut paths = PathIndex::default();
        for AnyHandler {
            spec,
            call: handler,
            middleware,
            ..
        } in handlers
        {
            let key = spec.route.to_matcher_syntax();
            let index = match by_path.get(&key) {
                Some(&index) => index,
                None => {
                    paths.insert(&spec.route, &key, routes.len()).map_err(|e| {
                        ConfigError::ConflictingRoutes {
                            route: spec.route.to_string(),
                            reason: e.to_string(),
                        }
                    })?;
                    by_path.insert(key, routes.len());
                    routes.push(RouteEntry {
                        template: spec.route.name(),
                        param_names: spec.route.param_route_names(),
                        checks_tail: spec.route.checks_tail(),
                        methods: Vec::new(),
                        allow: HeaderValue::from_static(""),
                    });
                    routes.len() - 1
                }
            };
            let entry = &mut routes[index];
            if entry.methods.iter().any(|m| m.method == spec.method) {
                return Err(ConfigError::DuplicateRoute {
                    method: spec.method.clone(),
                    route: spec.route.to_string(),
                });
            }
            // Fail closed: each declared scheme is verified by something around the handler.
            // Read here, once: nothing of it is left on the request path.
            for security in &spec.settings.security {
                let scheme = security.scheme();
                let verifies = |m: &Middleware| m.verifies_scheme(scheme);
                let verified = verified_elsewhere.contains(scheme)
                    || server_middleware.iter().any(verifies)
                    || spec.contract_middleware().iter().any(verifies)
                    || middleware.iter().any(verifies);
                if !verified {
                    return Err(ConfigError::UnverifiedSecurity {
                        method: spec.method.clone(),
                        route: spec.route.to_string(),
                        scheme: security.name().to_owned(),
                    });
                }
            }
            // The server's middleware, the check of the contract's credentials, the contract's,
            // then the handler's own (`bind`): closest to the handler.
            let chain: Arc<[Middleware]> = server_middleware
                .iter()
                .cloned()
                .chain(security_check(&spec.settings.security))
                .chain(spec.contract_middleware().iter().cloned())
                .chain(middleware)
                .collect();
            entry.methods.push(MethodEntry {
                method: spec.method.clone(),
                chain,
                body_limit: spec.settings.body_limit.unwrap_or(default_body_limit),
                handler,
            });
        }
        for entry in &mut routes {
            entry.allow = allow_header(entry.methods.iter().map(|m| &m.method));
        }
        let served = routes.iter().flat_map(|e| e.methods.iter().map(|m| &m.method));
        let server = RouteEntry {
            template: RouteName::from("*"),
            param_names: Vec::new(),
            checks_tail: false,
            methods: Vec::new(),
            allow: allow_header(served),
        };
        routes.push(server);
        Ok(Self { paths, routes })
    }

    /// Finds the route for `path` and what serves `method` there; `None` when no route has
    /// this path. Params come back percent-decoded.
    pub(crate) fn lookup(&self, method: &Method, path: &str) -> Option<Routed> {
        let Some((route, found)) = self.paths.at(path) else {
            return self.server_options(method, path);
        };
        let entry = &self.routes[route];
        let position = |m: &Method| entry.methods.iter().position(|e| e.method == *m);
        let target = if let Some(index) = position(method) {
            Target::Handler(index)
        } else if *method == Method::HEAD {
            match position(&Method::GET) {
                Some(index) => Target::Handler(index),
                None => Target::MethodNotAllowed,
            }
        } else if *method == Method::OPTIONS {
            Target::Options
        } else {
            Target::MethodNotAllowed
        };
        let params = match (target, found) {
            (Target::Handler(_), Some(found)) => decode_params(&found, entry),
            _ => RawParams::default(),
        };
        Some(Routed {
            route,
            target,
            params,
            mode: AnswerMode::of(method),
        })
    }
}

impl RouteTable {
    /// `OPTIONS *`, which asks about the server itself: answered 204 with the `Allow` of
    /// every method some route serves (a table with no route answers it 404, as it answers
    /// everything). No route has the path `*` (each starts with `/`), so this is only asked
    /// when no route matched.
    #[cold]
    fn server_options(&self, method: &Method, path: &str) -> Option<Routed> {
        let serves_any = self.routes.len() > 1;
        (serves_any && *method == Method::OPTIONS && path == "*").then(|| Routed {
            route: self.routes.len() - 1,
            target: Target::Options,
            params: RawParams::default(),
            mode: AnswerMode::of(method),
        })
    }
}

/// Percent-decodes matched params. A value that is not UTF-8 once decoded, or a checked
/// catch-all (the last param) with an empty, `.` or `..` segment, is kept (lossily) and
/// marked refused: the 400 comes when the params are deserialised.
fn decode_params(matched: &matchit::Params<'_, '_>, entry: &RouteEntry) -> RawParams {
    let mut raw = RawParams {
        pairs: SmallVec::with_capacity(matched.len()),
        refused: None,
    };
    let last = matched.len().saturating_sub(1);
    for (index, ((_, value), name)) in matched.iter().zip(&entry.param_names).enumerate() {
        let decoded = match percent_decode_str(value).decode_utf8() {
            Ok(decoded) => decoded.into_owned(),
            Err(_) => {
                raw.refuse(name, "is not valid UTF-8 once percent-decoded");
                percent_decode_str(value).decode_utf8_lossy().into_owned()
            }
        };
        if entry.checks_tail && index == last && has_dot_segment(&decoded) {
            raw.refuse(name, "must not have an empty, `.` or `..` segment");
        }
        raw.pairs.push((name.clone(), decoded));
    }
    raw
}

fn has_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|segment| matches!(segment, "" | "." | ".."))
}

fn allow_header<'a>(methods: impl Iterator<Item = &'a Method> + Clone) -> HeaderValue {
    const ORDER: [Method; 5] = [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::PATCH,
        Method::DELETE,
    ];
    let mut names: Vec<&str> = Vec::new();
    for method in &ORDER {
        if methods.clone().any(|m| m == method) {
            names.push(method.as_str());
            if *method == Method::GET {
                names.push("HEAD");
            }
        }
    }
    names.push("OPTIONS");
    HeaderValue::from_str(&names.join(", ")).expect("method names are valid header text")
}
