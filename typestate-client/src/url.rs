//! Building request URLs: the base URL's path, the route's path, the query string.

use pactum::route::Segment;
use pactum::{contract::state::Presence, contract::Slot, error::Detail, Endpoint};
use serde::Serialize;
use url::Url;

use crate::error::{Error, Part};

mod sealed {
    pub trait Sealed {}
}

/// A value that can be the client's base URL: `&str`, `String`, `&String`, [`Url`] or `&Url`.
///
/// The URL must be absolute `http` or `https`, with no query and no fragment. Its path is
/// kept: every route is appended to it (`http://host/api` + `/users` →
/// `http://host/api/users`, with or without a trailing `/` on the base).
pub trait IntoBaseUrl: sealed::Sealed {
    #[doc(hidden)]
    fn into_base_url(self) -> Result<Url, Error>;
}

impl sealed::Sealed for &str {}
impl IntoBaseUrl for &str {
    fn into_base_url(self) -> Result<Url, Error> {
        let url = Url::parse(self)
            .map_err(|e| Error::builder(format!("invalid base URL {self:?}: {e}")))?;
        check_base(url)
    }
}

impl sealed::Sealed for String {}
impl IntoBaseUrl for String {
    fn into_base_url(self) -> Result<Url, Error> {
        self.as_str().into_base_url()
    }
}

impl sealed::Sealed for &String {}
impl IntoBaseUrl for &String {
    fn into_base_url(self) -> Result<Url, Error> {
        self.as_str().into_base_url()
    }
}

impl sealed::Sealed for Url {}
impl IntoBaseUrl for Url {
    fn into_base_url(self) -> Result<Url, Error> {
        check_base(self)
    }
}

impl sealed::Sealed for &Url {}
impl IntoBaseUrl for &Url {
    fn into_base_url(self) -> Result<Url, Error> {
        check_base(self.clone())
    }
}

fn check_base(url: Url) -> Result<Url, Error> {
    let problem = if !matches!(url.scheme(), "http" | "https") {
        Some("the scheme must be http or https")
    } else if url.cannot_be_a_base() || url.host().is_none() {
        Some("it must be an absolute URL with a host")
    } else if url.query().is_some() {
        Some("it must not have a query")
    } else if url.fragment().is_some() {
        Some("it must not have a fragment")
    } else {
        None
    };
    match problem {
        Some(problem) => Err(Error::builder(format!("invalid base URL {url}: {problem}"))),
        None => Ok(url),
    }
}

/// The request URL: the base's path (trailing `/` dropped), then `path` (which starts with
/// `/`), then `?query` when the query is not empty.
pub(crate) fn join(base: &Url, path: &str, query: &str) -> Url {
    let mut url = base.clone();
    let prefix = base.path().trim_end_matches('/');
    if prefix.is_empty() {
        url.set_path(path);
    } else {
        let mut full = String::with_capacity(prefix.len() + path.len());
        full.push_str(prefix);
        full.push_str(path);
        url.set_path(&full);
    }
    url.set_query((!query.is_empty()).then_some(query));
    url
}

/// Serialises a query so that the server (serde_qs, default `Config`) parses the same value
/// back: nested keys in brackets, lists indexed (`tags[0]=a&tags[1]=b`), spaces as `+`,
/// reserved characters percent-encoded.
pub(crate) fn encode_query<Q: Serialize>(query: &Q) -> Result<String, Error> {
    serde_qs::Config::new()
        .array_format(serde_qs::ArrayFormat::Indexed)
        .serialize_string(query)
        .map_err(|e| {
            Error::builder(format!(
                "the query cannot be encoded as a query string (it must be a struct or a map): {e}"
            ))
        })
}

/// The request path for `params` (`None` when the contract declares none): each value checked
/// (not empty, not `.` or `..`, which no URL can carry as a segment; a catch-all value without
/// empty segments, which the server refuses unless the route allows dot segments) and
/// percent-encoded into its segment by the contract.
pub(crate) fn path<P: Slot, Q, B, R, E, H, C>(
    endpoint: &Endpoint<P, Q, B, R, E, H, C>,
    params: Option<&P>,
) -> Result<String, Error> {
    let route = endpoint.route();
    let Some(params) = params.filter(|_| <P::Presence as Presence>::DECLARED) else {
        // No params: a static route renders as written.
        return route
            .render(|_| None)
            .map_err(|missing| missing_param(missing.name()));
    };
    let value = serde_json::to_value(params).map_err(|e| {
        Error::validation(Part::Params, vec![Detail::new(Vec::new(), e.to_string())])
    })?;
    let mut details = Vec::new();
    for segment in route.segments() {
        let (name, catch_all) = match segment {
            Segment::Param(name) => (name, false),
            Segment::CatchAll(name) => (name, true),
            // Fixed text, or a kind of segment a later pactum adds (`Segment` may grow).
            _ => continue,
        };
        let Some(serde_json::Value::String(text)) = value.get(name.as_str()) else {
            continue; // numbers and bools are fine; other shapes are reported by `path_for`
        };
        let message = if text.is_empty() {
            Some("must not be empty: an empty path segment cannot be routed")
        } else if !catch_all && matches!(text.as_str(), "." | "..") {
            Some("cannot be `.` or `..`: URLs remove such path segments")
        } else if catch_all && text.split('/').any(|piece| matches!(piece, "." | "..")) {
            Some("cannot hold a `.` or `..` segment: URLs remove such path segments")
        } else if catch_all && !route.allows_dot_segments() && text.split('/').any(str::is_empty) {
            Some("cannot hold an empty segment: the route refuses them")
        } else {
            None
        };
        if let Some(message) = message {
            details.push(Detail::new(vec![name.as_str().into()], message));
        }
    }
    if !details.is_empty() {
        return Err(Error::validation(Part::Params, details));
    }
    // The value serialised above, rendered: the params are serialised once per call.
    route.render_json(&value).map_err(|missing| {
        Error::validation(
            Part::Params,
            vec![Detail::new(
                vec![missing.name().into()],
                "must be a string, number or bool",
            )],
        )
    })
}

fn missing_param(name: &str) -> Error {
    Error::validation(
        Part::Params,
        vec![Detail::new(vec![name.into()], "is required by the route")],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    fn base(s: &str) -> Url {
        s.into_base_url().unwrap()
    }

    #[test]
    fn base_path_is_kept() {
        assert_eq!(
            join(&base("http://h/api"), "/users", "").as_str(),
            "http://h/api/users"
        );
        assert_eq!(
            join(&base("http://h/api/"), "/users", "").as_str(),
            "http://h/api/users"
        );
        assert_eq!(
            join(&base("http://h"), "/users", "").as_str(),
            "http://h/users"
        );
        assert_eq!(join(&base("http://h/"), "/", "").as_str(), "http://h/");
        assert_eq!(
            join(&base("https://h:8443/a/b/"), "/c/d", "x=1").as_str(),
            "https://h:8443/a/b/c/d?x=1"
        );
    }

    #[test]
    fn encoded_paths_and_queries_are_left_alone() {
        let url = join(
            &base("http://h/api"),
            "/files/a%20b%2Fc/%C3%BC",
            "tags[0]=a+b&tags[1]=%26%3D&q=%25",
        );
        assert_eq!(url.path(), "/api/files/a%20b%2Fc/%C3%BC");
        assert_eq!(url.query(), Some("tags[0]=a+b&tags[1]=%26%3D&q=%25"));
    }

    #[test]
    fn bad_base_urls_are_builder_errors() {
        for bad in [
            "not a url",
            "ftp://h/",
            "mailto:a@b",
            "http://h/?q=1",
            "http://h/#frag",
            "/relative",
        ] {
            let err = bad.into_base_url().unwrap_err();
            assert!(err.is_builder(), "{bad}: {err:?}");
        }
    }

    #[derive(Serialize)]
    struct Filter {
        tags: Vec<String>,
        page: Option<u32>,
        q: String,
        nested: Inner,
    }

    #[derive(Serialize)]
    struct Inner {
        a: bool,
    }

    #[test]
    fn query_lists_are_indexed_and_values_escaped() {
        let q = Filter {
            tags: vec!["a b".into(), "x&y=z".into()],
            page: None,
            q: "50%+[1]".into(),
            nested: Inner { a: true },
        };
        assert_eq!(
            encode_query(&q).unwrap(),
            "tags[0]=a+b&tags[1]=x%26y%3Dz&page&q=50%25%2B%5B1%5D&nested[a]=true"
        );
    }

    /// The server's side: `serde_qs` with the default `Config`, as `pactum` parses queries.
    fn server_parse<T: serde::de::DeserializeOwned>(qs: &str) -> T {
        serde_qs::Config::new().deserialize_str(qs).unwrap()
    }

    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Numbers {
        float: f64,
        small: f32,
        big: i64,
        huge: u64,
        #[serde(default)]
        floats: Vec<f64>,
        flag: bool,
        maybe: Option<u8>,
    }

    proptest::proptest! {
        /// Every finite `f64` (and the integer extremes) reaches the server bit for bit.
        #[test]
        fn numbers_round_trip(
            float in proptest::num::f64::ANY.prop_filter("finite", |f| f.is_finite()),
            small in proptest::num::f32::ANY.prop_filter("finite", |f| f.is_finite()),
            big: i64,
            huge: u64,
            floats in proptest::collection::vec(proptest::num::f64::NORMAL, 0..12),
            flag: bool,
            maybe: Option<u8>,
        ) {
            let value = Numbers { float, small, big, huge, floats, flag, maybe };
            let back: Numbers = server_parse(&encode_query(&value).unwrap());
            proptest::prop_assert_eq!(back.float.to_bits(), value.float.to_bits());
            proptest::prop_assert_eq!(back.small.to_bits(), value.small.to_bits());
            proptest::prop_assert_eq!(back, value);
        }

        /// Any text, in a value or inside a list, reaches the server unchanged.
        #[test]
        fn text_round_trips(text: String, list: Vec<String>, maybe: Option<String>) {
            #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
            struct Texts {
                text: String,
                #[serde(default)]
                list: Vec<String>,
                maybe: Option<String>,
            }
            let value = Texts { text, list, maybe };
            let back: Texts = server_parse(&encode_query(&value).unwrap());
            proptest::prop_assert_eq!(back, value);
        }
    }
}
