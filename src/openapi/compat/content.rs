//! The `content` of a body (request or response): its media types, and the schema of each.

use serde_json::Value;

use super::diff::{object, Diff, ARROW};
use super::kind::{ChangeKind, Side};
use super::schema::compare_schema;

/// Compares two `content` maps (media type → `{schema}`) at `at` (`POST /users → request`).
/// The body is named `body` in locations, `body(multipart/form-data)` when it is not JSON.
pub(super) fn compare_content<'a>(
    diff: &mut Diff<'a>,
    side: Side,
    at: &str,
    old: Option<&'a Value>,
    new: Option<&'a Value>,
) {
    let (old, new) = (object(old), object(new));
    for (media_type, old_media) in old {
        let path = if media_type == "application/json" {
            "body".to_owned()
        } else {
            format!("body({media_type})")
        };
        let Some(new_media) = new.get(media_type) else {
            let what = format!("{media_type} removed");
            diff.push(
                ChangeKind::MediaTypeRemoved,
                side,
                &format!("{at}{ARROW}{path}"),
                what,
            );
            continue;
        };
        if let (Some(a), Some(b)) = (old_media.get("schema"), new_media.get("schema")) {
            compare_schema(diff, side, at, &path, a, b);
        }
    }
    for media_type in new.keys().filter(|m| !old.contains_key(*m)) {
        let what = format!("{media_type} added");
        diff.push(
            ChangeKind::MediaTypeAdded,
            side,
            &format!("{at}{ARROW}body"),
            what,
        );
    }
}
