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
    assert_eq!(
        parse("/a{b}", RouteKind::Static)
            .unwrap()
            .to_matcher_syntax(),
        "/a{{b}}"
    );
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
    assert_eq!(t.render(|_| None), Err("org".to_owned()));
}
