//! [`Part`]: which part of a call failed its validation rules.

use std::fmt;

/// Which part of a call failed its validation rules. See [`Error::validation_part`](crate::Error::validation_part).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// The path params, checked before sending (rules, and values that cannot be a URL path
    /// segment: empty, `.` or `..`).
    Params,
    /// The query, checked before it is put into the URL.
    Query,
    /// The JSON body, checked before sending.
    Body,
    /// The header params, checked before they are put into headers.
    HeaderParams,
    /// The cookie params, checked before they are put into the `Cookie` header.
    CookieParams,
    /// The response value, checked after it was received and decoded.
    Response,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Params => "params",
            Self::Query => "query",
            Self::Body => "body",
            Self::HeaderParams => "header params",
            Self::CookieParams => "cookie params",
            Self::Response => "response",
        })
    }
}
