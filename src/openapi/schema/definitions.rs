//! One set of shared schemas from the request and the response generators.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::{RESPONSE_SCHEMAS, SCHEMAS};

/// Merges the response generator's definitions into the request generator's.
///
/// A type read and written the same way is one schema. A type whose serialize view differs
/// from its deserialize view (a `#[serde(default)]` field is optional in a request but always
/// present in a response) gets two: `Name` for requests and `NameResponse` for responses.
///
/// Returns the merged definitions and the rewrite of every response `$ref`.
pub(crate) fn merge_definitions(
    mut request: Map<String, Value>,
    response: Map<String, Value>,
) -> (Map<String, Value>, HashMap<String, String>) {
    let mut names: BTreeMap<String, String> =
        response.keys().map(|n| (n.clone(), n.clone())).collect();
    loop {
        let refs = ref_map(&names);
        let mut renamed = None;
        for (name, schema) in &response {
            if names[name] != *name {
                continue;
            }
            let Some(existing) = request.get(name) else {
                continue;
            };
            let mut schema = schema.clone();
            rewrite_refs(&mut schema, &refs);
            if &schema != existing {
                renamed = Some(name.clone());
                break;
            }
        }
        let Some(name) = renamed else { break };
        let taken = |candidate: &str| {
            request.contains_key(candidate)
                || response.contains_key(candidate)
                || names.values().any(|n| n == candidate)
        };
        let base = format!("{name}Response");
        let mut candidate = base.clone();
        let mut n = 2;
        while taken(&candidate) {
            candidate = format!("{base}{n}");
            n += 1;
        }
        names.insert(name, candidate);
    }
    let refs = ref_map(&names);
    for (name, mut schema) in response {
        rewrite_refs(&mut schema, &refs);
        request.entry(names[&name].clone()).or_insert(schema);
    }
    (request, refs)
}

fn ref_map(names: &BTreeMap<String, String>) -> HashMap<String, String> {
    names
        .iter()
        .map(|(from, to)| {
            (
                format!("{RESPONSE_SCHEMAS}{}", encode_ref_name(from)),
                format!("{SCHEMAS}{}", encode_ref_name(to)),
            )
        })
        .collect()
}

/// Replaces every `$ref` found in `refs`.
pub(crate) fn rewrite_refs(value: &mut Value, refs: &HashMap<String, String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(new) = refs.get(reference.as_str()) {
                    reference.clone_from(new);
                }
            }
            object.values_mut().for_each(|v| rewrite_refs(v, refs));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, refs)),
        _ => {}
    }
}

/// A schema name as a JSON pointer token in a URI fragment (as schemars writes it).
fn encode_ref_name(name: &str) -> Cow<'_, str> {
    fn keep(byte: u8) -> bool {
        matches!(byte, b'!' | b'$' | b'&'..=b';' | b'=' | b'?'..=b'Z' | b'_' | b'a'..=b'z')
            && byte != b'/'
    }
    if name.bytes().all(keep) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for byte in name.bytes() {
        match byte {
            b'~' => out.push_str("~0"),
            b'/' => out.push_str("~1"),
            b if keep(b) => out.push(char::from(b)),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    Cow::Owned(out)
}

/// The inverse of [`encode_ref_name`].
pub(super) fn decode_ref_name(token: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(token).decode_utf8_lossy();
    decoded.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ref_names_round_trip() {
        for name in ["User", "Map_of_string", "a/b~c d"] {
            assert_eq!(decode_ref_name(&encode_ref_name(name)), name);
        }
        assert_eq!(encode_ref_name("a/b~c d"), "a~1b~0c%20d");
    }

    #[test]
    fn differing_views_get_two_names() {
        let request = json!({
            "Item": { "type": "object", "required": [] },
            "Same": { "type": "string" }
        });
        let response = json!({
            "Item": { "type": "object", "required": ["a"] },
            "Same": { "type": "string" },
            "Outer": { "items": { "$ref": "#/components/x-pactum-response-schemas/Item" } }
        });
        let (merged, refs) = merge_definitions(
            request.as_object().unwrap().clone(),
            response.as_object().unwrap().clone(),
        );
        assert_eq!(merged["Item"]["required"], json!([]));
        assert_eq!(merged["ItemResponse"]["required"], json!(["a"]));
        assert_eq!(
            merged["Outer"]["items"]["$ref"],
            "#/components/schemas/ItemResponse"
        );
        assert_eq!(
            refs["#/components/x-pactum-response-schemas/Same"],
            "#/components/schemas/Same"
        );
        assert_eq!(merged.len(), 4);
    }
}
