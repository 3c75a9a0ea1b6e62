//! [`OpenApiVersion`]: which OpenAPI a document follows; the rewrite of a built document's
//! event streams (3.2's `itemSchema`) for 3.1 and 3.0.3, and of a built 3.1 document as 3.0.3.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::refs::refs_to;
use super::schema::{to_openapi3, SCHEMAS};

/// The OpenAPI version a document is written in: [`OpenApi::openapi_version`](super::OpenApi::openapi_version).
///
/// 3.1.0 by default: its schemas are JSON Schema 2020-12, as schemars writes them. 3.0.3 is
/// for the generators that read only 3.0 (progenitor, openapi-generator's older templates,
/// NSwag…): the same operations, with schemas in 3.0's dialect — `nullable: true` in place of
/// a `null` type or variant, `enum: [v]` for `const`, one `example` for `examples`, boolean
/// `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum`, a `$ref` with siblings
/// wrapped in an `allOf`, and keywords 3.0 lacks dropped or kept as `x-` extensions (the
/// `contentMediaType` and `contentSchema` of a server-sent event's `data` become
/// `x-contentMediaType` and `x-contentSchema`), and a file a `format: binary` string. 3.2.0 is
/// 3.1 with `itemSchema`: a stream of server-sent events is described one event at a time, as
/// 3.2 readers expect; 3.1 and 3.0.3 describe the body of such a stream as a string (what it is
/// on the wire) and keep the event's schema, whole, in the media type's `x-itemSchema`.
///
/// ```
/// use pactum::openapi::{OpenApi, OpenApiVersion};
///
/// let doc = OpenApi::new("Empty", "0.1.0").openapi_version(OpenApiVersion::V3_0_3).build();
/// assert_eq!(doc.as_value()["openapi"], "3.0.3");
/// assert_eq!(OpenApiVersion::default().as_str(), "3.1.0");
/// assert_eq!(OpenApiVersion::V3_2_0.as_str(), "3.2.0");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OpenApiVersion {
    /// OpenAPI 3.1.0, schemas in JSON Schema 2020-12 (the default).
    #[default]
    V3_1_0,
    /// OpenAPI 3.0.3, schemas in its Schema Object dialect.
    V3_0_3,
    /// OpenAPI 3.2.0: 3.1's schemas, and `itemSchema` for each event of a server-sent event
    /// stream.
    V3_2_0,
}

impl OpenApiVersion {
    /// The document's `openapi` field: `"3.1.0"`, `"3.0.3"` or `"3.2.0"`.
    ///
    /// ```
    /// assert_eq!(pactum::openapi::OpenApiVersion::V3_0_3.as_str(), "3.0.3");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V3_1_0 => "3.1.0",
            Self::V3_0_3 => "3.0.3",
            Self::V3_2_0 => "3.2.0",
        }
    }
}

/// Rewrites a built 3.1 document (a JSON object) as 3.0.3: its version, and every schema in
/// it, where OpenAPI puts them.
pub(super) fn to_3_0_3(doc: &mut Map<String, Value>) {
    doc.insert("openapi".to_owned(), OpenApiVersion::V3_0_3.as_str().into());
    if let Some(Value::Object(components)) = doc.get_mut("components") {
        if let Some(Value::Object(schemas)) = components.get_mut("schemas") {
            schemas.values_mut().for_each(to_openapi3);
        }
        for key in ["responses", "parameters", "requestBodies", "headers"] {
            if let Some(Value::Object(items)) = components.get_mut(key) {
                items.values_mut().for_each(holder);
            }
        }
    }
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for (key, value) in item.iter_mut() {
                if key == "parameters" {
                    each(value, holder);
                } else if let Value::Object(op) = value {
                    operation(op);
                }
            }
        }
    }
}

fn each(list: &mut Value, f: fn(&mut Value)) {
    if let Value::Array(items) = list {
        items.iter_mut().for_each(f);
    }
}

fn operation(op: &mut Map<String, Value>) {
    if let Some(parameters) = op.get_mut("parameters") {
        each(parameters, holder);
    }
    if let Some(body) = op.get_mut("requestBody") {
        holder(body);
    }
    if let Some(Value::Object(responses)) = op.get_mut("responses") {
        responses.values_mut().for_each(holder);
    }
}

/// A parameter, header, request body, response or media type: the objects that hold a
/// `schema`, directly or under `content` and `headers`.
fn holder(value: &mut Value) {
    let Some(object) = value.as_object_mut() else {
        return;
    };
    for key in ["schema", "x-itemSchema"] {
        if let Some(schema) = object.get_mut(key) {
            to_openapi3(schema);
        }
    }
    for key in ["content", "headers"] {
        if let Some(Value::Object(items)) = object.get_mut(key) {
            items.values_mut().for_each(holder);
        }
    }
    // The event schema pactum writes names the keyword its `data` now carries as an extension.
    if let Some(Value::Object(events)) = object
        .get_mut("content")
        .and_then(|content| content.get_mut("text/event-stream"))
        .and_then(|media| media.get_mut("x-itemSchema"))
    {
        if let Some(Value::String(text)) = events.get_mut("description") {
            *text = text.replace("`contentSchema`", "`x-contentSchema`");
        }
    }
}

/// For 3.1 and 3.0.3, which have no `itemSchema`: each media type that has one (a stream of
/// server-sent events) gets a `schema` for its whole body — a string, which is what the
/// stream is to a reader of these versions — and keeps the event's schema in `x-itemSchema`,
/// with the schemas it references inlined (no `$ref` in an extension: redocly's
/// `spec-strict-refs`). A schema component then referenced by nothing but an extension is
/// dropped (it would be an unused component).
pub(super) fn item_schemas_as_extensions(doc: &mut Map<String, Value>) {
    let schemas = match doc.get("components").and_then(|c| c.get("schemas")) {
        Some(Value::Object(schemas)) => schemas.clone(),
        _ => Map::new(),
    };
    let mut moved = false;
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for op in item.values_mut().filter_map(Value::as_object_mut) {
                let responses = op.get_mut("responses").and_then(Value::as_object_mut);
                for answer in responses.into_iter().flat_map(|r| r.values_mut()) {
                    let content = answer.get_mut("content").and_then(Value::as_object_mut);
                    for (media_type, media) in content.into_iter().flat_map(|c| c.iter_mut()) {
                        if let Value::Object(media) = media {
                            moved |= item_schema_as_extension(media_type, media, &schemas);
                        }
                    }
                }
            }
        }
    }
    if moved {
        drop_unreferenced_schemas(doc);
    }
}

fn item_schema_as_extension(
    media_type: &str,
    media: &mut Map<String, Value>,
    schemas: &Map<String, Value>,
) -> bool {
    let Some(mut item) = media.remove("itemSchema") else {
        return false;
    };
    let data = item
        .pointer("/properties/data/contentSchema/$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(SCHEMAS))
        .map_or_else(
            || "as `x-itemSchema` describes".to_owned(),
            |name| format!("a `{name}`"),
        );
    inline_refs(&mut item, schemas, &mut Vec::new());
    let description = format!(
        "The stream as text (`{media_type}`), one event after another. Each event is \
         described by this media type's `x-itemSchema` (OpenAPI 3.2's `itemSchema`): its \
         `data` is the JSON of {data}."
    );
    media.insert(
        "schema".to_owned(),
        json!({
            "type": "string",
            "contentMediaType": media_type,
            "description": description,
        }),
    );
    media.insert("x-itemSchema".to_owned(), item);
    true
}

/// Replaces every `$ref` to a schema component in `value` by the component itself (in an
/// `allOf` when the reference has siblings), but for a type that contains itself, whose
/// reference stays.
fn inline_refs(value: &mut Value, schemas: &Map<String, Value>, within: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            let name = object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(SCHEMAS))
                .map(str::to_owned);
            if let Some(name) = name {
                if let (false, Some(found)) = (within.contains(&name), schemas.get(&name)) {
                    let mut found = found.clone();
                    within.push(name);
                    inline_refs(&mut found, schemas, within);
                    within.pop();
                    object.remove("$ref");
                    if object.is_empty() {
                        *value = found;
                    } else {
                        object.insert("allOf".to_owned(), Value::Array(vec![found]));
                    }
                    return;
                }
            }
            object
                .values_mut()
                .for_each(|v| inline_refs(v, schemas, within));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| inline_refs(v, schemas, within)),
        _ => {}
    }
}

/// Removes the schema components that nothing outside `components/schemas` reaches, through
/// any chain of references.
fn drop_unreferenced_schemas(doc: &mut Map<String, Value>) {
    let Some(Value::Object(schemas)) = doc
        .get_mut("components")
        .and_then(|c| c.get_mut("schemas"))
        .map(std::mem::take)
    else {
        return;
    };
    let mut reached = BTreeSet::new();
    let mut pending = Vec::new();
    // The schemas are out of `doc` now: what it references is what the rest uses.
    doc.values()
        .for_each(|part| refs_to(part, SCHEMAS, &mut pending));
    while let Some(name) = pending.pop() {
        if let (true, Some(schema)) = (reached.insert(name.clone()), schemas.get(&name)) {
            refs_to(schema, SCHEMAS, &mut pending);
        }
    }
    let kept = schemas
        .into_iter()
        .filter(|(name, _)| reached.contains(name))
        .collect();
    if let Some(Value::Object(components)) = doc.get_mut("components") {
        components.insert("schemas".to_owned(), Value::Object(kept));
    }
}
