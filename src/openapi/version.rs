//! [`OpenApiVersion`]: which OpenAPI a document follows, and the rewrite of a built 3.1
//! document as 3.0.3.

use serde_json::{Map, Value};

use super::schema::to_openapi3;

/// The OpenAPI version a document is written in: [`OpenApi::openapi_version`](super::OpenApi::openapi_version).
///
/// 3.1.0 by default: its schemas are JSON Schema 2020-12, as schemars writes them. 3.0.3 is
/// for the generators that read only 3.0 (progenitor, openapi-generator's older templates,
/// NSwag…): the same operations, with schemas in 3.0's dialect — `nullable: true` in place of
/// a `null` type or variant, `enum: [v]` for `const`, one `example` for `examples`, boolean
/// `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum`, a `$ref` with siblings
/// wrapped in an `allOf`, and keywords 3.0 lacks dropped or kept as `x-` extensions (the
/// `contentMediaType` and `contentSchema` of a server-sent event's `data` become
/// `x-contentMediaType` and `x-contentSchema`).
///
/// ```
/// use pactum::openapi::{OpenApi, OpenApiVersion};
///
/// let doc = OpenApi::new("Empty", "0.1.0").openapi_version(OpenApiVersion::V3_0_3).build();
/// assert_eq!(doc.as_value()["openapi"], "3.0.3");
/// assert_eq!(OpenApiVersion::default().as_str(), "3.1.0");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OpenApiVersion {
    /// OpenAPI 3.1.0, schemas in JSON Schema 2020-12 (the default).
    #[default]
    V3_1_0,
    /// OpenAPI 3.0.3, schemas in its Schema Object dialect.
    V3_0_3,
}

impl OpenApiVersion {
    /// The document's `openapi` field: `"3.1.0"` or `"3.0.3"`.
    ///
    /// ```
    /// assert_eq!(pactum::openapi::OpenApiVersion::V3_0_3.as_str(), "3.0.3");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V3_1_0 => "3.1.0",
            Self::V3_0_3 => "3.0.3",
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
    if let Some(schema) = object.get_mut("schema") {
        to_openapi3(schema);
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
        .and_then(|media| media.get_mut("schema"))
    {
        if let Some(Value::String(text)) = events.get_mut("description") {
            *text = text.replace("`contentSchema`", "`x-contentSchema`");
        }
    }
}
