//! Route parsing, matching syntax and rendering.
use super::*;

fn parse(raw: &'static str, kind: RouteKind) -> Result<RouteTemplate, ConfigError> {
    RouteTemplate::parse(Cow::Borrowed(raw), kind)
}

#[test]
fn kinds_are_checked() {
    assert!(parse("/health", RouteKind::Static).is_ok());
    assert!(parse("/", RouteKind::Static).is_ok());
    assert!(parse("/users/:id", RouteKind::Static).is_err());
    assert!(parse("/users", RouteKind::Pattern).is_err());
    assert!(parse("/files/*path", RouteKind::Pattern).is_err());
    assert!(parse("/files/:id", RouteKind::Dynamic).is_err());
    assert!(parse("/files/*path/x", RouteKind::Dynamic).is_err());
    assert!(parse("users", RouteKind::Static).is_err());
    assert!(parse("/a/:x/:x", RouteKind::Pattern).is_err());
    assert!(parse("/a/:", RouteKind::Pattern).is_err());
    assert!(parse("/a/:b-c", RouteKind::Pattern).is_err());
}

#[test]
fn names_and_matcher_syntax() {
    let t = parse("/orgs/:org/files/*path", RouteKind::Dynamic).unwrap();
    assert_eq!(t.param_names().collect::<Vec<_>>(), ["org", "path"]);
    assert_eq!(t.to_matcher_syntax(), "/orgs/{org}/files/{*path}");
    assert_eq!(
        parse("/", RouteKind::Static).unwrap().to_matcher_syntax(),
        "/"
    );
}

#[test]
fn braces_are_the_other_spelling_of_params() {
    // `{id}` (axum 0.8, OpenAPI) and `:id` make the same route; `{*path}` and `*path` too.
    for (braces, colon, kind) in [
        ("/users/{id}", "/users/:id", RouteKind::Pattern),
        (
            "/orgs/{org}/repos/:repo",
            "/orgs/:org/repos/:repo",
            RouteKind::Pattern,
        ),
        ("/files/{*path}", "/files/*path", RouteKind::Dynamic),
        ("/o/{org}/f/{*path}", "/o/:org/f/*path", RouteKind::Dynamic),
    ] {
        let (braces, colon) = (parse(braces, kind).unwrap(), parse(colon, kind).unwrap());
        assert_eq!(braces.segments(), colon.segments());
        assert_eq!(braces.to_matcher_syntax(), colon.to_matcher_syntax());
    }
    // Never a silent static route: a braced param needs a pattern route, and a brace that is
    // not a whole segment is refused, with a reason that shows the spelling.
    assert!(parse("/users/{id}", RouteKind::Static).is_err());
    assert!(parse("/files/{*path}", RouteKind::Pattern).is_err());
    assert!(parse("/files/{*path}/x", RouteKind::Dynamic).is_err());
    for bad in [
        "/a{b}",
        "/users/{id}.json",
        "/users/{id",
        "/users/id}",
        "/{}",
        "/{a-b}",
    ] {
        let err = parse(bad, RouteKind::Pattern).unwrap_err().to_string();
        assert!(
            err.contains("segment") || err.contains("name"),
            "{bad}: {err}"
        );
    }
    let err = parse("/users/{id}.json", RouteKind::Static)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`{name}`"), "{err}");
}

#[test]
fn render_encodes_per_segment() {
    let t = parse("/orgs/:org/files/*path", RouteKind::Dynamic).unwrap();
    let path = t
        .render(|name| match name {
            "org" => Some("a b/c".into()),
            _ => Some("x/ü y/z".into()),
        })
        .unwrap();
    assert_eq!(path, "/orgs/a%20b%2Fc/files/x/%C3%BC%20y/z");
    assert_eq!(t.render(|_| None).unwrap_err().name(), "org");
}
