//! A response read whole.

/// A response, read whole.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body, as text.
    pub text: String,
}

impl Answer {
    pub(crate) async fn from(response: reqwest::Response) -> Self {
        Self {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            text: response.text().await.expect("body read"),
        }
    }

    /// The body as JSON (panics when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text))
    }

    /// The header `name` as text (panics when it is absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
            .to_str()
            .expect("text header")
    }

    /// Asserts the status, a JSON content type, and the exact JSON body.
    #[track_caller]
    pub fn assert(&self, status: u16, body: serde_json::Value) {
        assert_eq!(self.status, status, "status of {:?}", self.text);
        assert_eq!(self.header("content-type"), "application/json");
        assert_eq!(self.json(), body);
    }
}
