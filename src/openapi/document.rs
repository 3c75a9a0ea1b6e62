//! [`Document`]: a built OpenAPI document, and the handler that serves it.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use validator::{Validate, ValidationErrors};

use crate::contract::{Endpoint, NoBody, NoParams, NoQuery};
use crate::error::ConfigError;
use crate::handler::{handler, AnyHandler};
use crate::route;

/// A built OpenAPI 3.1 document: a JSON value, cheap to clone. Made by
/// [`OpenApi::build`](super::OpenApi::build).
///
/// It serialises with the top-level fields in the specification's order (`openapi`, `info`,
/// `servers`, `paths`, `components`); everything below is in key order. Serve it with
/// [`Document::handler`], write it to a file with [`Document::to_pretty_string`].
///
/// ```
/// use pactum::openapi::OpenApi;
///
/// let doc = OpenApi::new("Empty", "0.1.0").build();
/// assert_eq!(doc.as_value()["openapi"], "3.1.0");
/// assert!(doc.to_pretty_string().starts_with("{\n  \"openapi\": \"3.1.0\",\n  \"info\""));
/// ```
#[derive(Clone, PartialEq)]
pub struct Document(Arc<Value>);

/// The top-level fields, in the order the specification lists them.
const FIELD_ORDER: [&str; 10] = [
    "openapi",
    "info",
    "jsonSchemaDialect",
    "servers",
    "security",
    "tags",
    "paths",
    "webhooks",
    "components",
    "externalDocs",
];

impl Document {
    pub(crate) fn new(value: Value) -> Self {
        Self(Arc::new(value))
    }

    /// The document as a JSON value.
    pub fn as_value(&self) -> &Value {
        &self.0
    }

    /// The document as indented JSON.
    pub fn to_pretty_string(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The contract of `GET path` answering with the document.
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when `path` is not a static route.
    pub fn endpoint(
        path: impl Into<Cow<'static, str>>,
    ) -> Result<Endpoint<NoParams, NoQuery, NoBody, Document>, ConfigError> {
        Endpoint::get(route::static_path(path))
            .response::<Document>()
            .name("openapi")
            .summary("This OpenAPI document")
            .build()
    }

    /// A handler answering `GET path` with the document (`200`, `application/json`), for the
    /// handler list of any adapter: the native server, `pactum-warp`, the in-process pipeline.
    /// It is not part of the document itself.
    ///
    /// ```
    /// use pactum::openapi::OpenApi;
    /// use pactum::{pipeline::Body, Pipeline};
    ///
    /// let doc = OpenApi::new("Empty", "0.1.0").build();
    /// let pipeline = Pipeline::new(vec![doc.handler("/openapi.json")?])?;
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let request = http::Request::get("/openapi.json").body(Body::empty())?;
    /// let response = pipeline.handle(request).await;
    /// assert_eq!(response.status(), 200);
    /// assert_eq!(response.headers()["content-type"], "application/json");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidRoute`] when `path` is not a static route.
    pub fn handler(&self, path: impl Into<Cow<'static, str>>) -> Result<AnyHandler, ConfigError> {
        let doc = self.clone();
        Ok(handler(Self::endpoint(path)?, move |_| {
            let doc = doc.clone();
            async move { Ok(doc) }
        })
        .undocumented())
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let paths = self.0.get("paths").and_then(Value::as_object);
        f.debug_struct("Document")
            .field("title", &self.0["info"]["title"])
            .field("paths", &paths.map_or(0, |p| p.len()))
            .finish_non_exhaustive()
    }
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Value::Object(fields) = &*self.0 else {
            return self.0.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for key in FIELD_ORDER {
            if let Some(value) = fields.get(key) {
                map.serialize_entry(key, value)?;
            }
        }
        for (key, value) in fields {
            if !FIELD_ORDER.contains(&key.as_str()) {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Self::new)
    }
}

/// A document has no rules of its own: [`Document::handler`] sends it as built.
impl Validate for Document {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }
}

impl From<Document> for Value {
    fn from(doc: Document) -> Self {
        Arc::unwrap_or_clone(doc.0)
    }
}
