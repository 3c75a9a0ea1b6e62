//! The usual query — `key=value` pairs, each key once, no brackets — split and decoded
//! without `serde_qs`'s nested-map parser, for [`TextMap`](super::from_text::TextMap), which reads
//! values with the same coercion rules.
//!
//! Only a query whose meaning cannot differ between the two readers is split here; any other
//! (a list, a nested key, a key without a value or given twice, a `%` not followed by two hex
//! digits, text that is not UTF-8) is left to `serde_qs`, and so is every query the type
//! refuses, so that errors are reported by one reader.

use std::borrow::Cow;

use smallvec::SmallVec;

/// The most pairs split here; a longer query goes to `serde_qs`.
const MAX_PAIRS: usize = 16;

/// A flat query's decoded (key, value) pairs: up to four held inline, no allocation.
pub(crate) type Pairs<'q> = SmallVec<[(Cow<'q, str>, Cow<'q, str>); 4]>;

/// The decoded pairs of a flat query, or `None` when `serde_qs` must read it.
pub(crate) fn split(query: &str) -> Option<Pairs<'_>> {
    let mut pairs = Pairs::new();
    let bytes = query.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        // One pass over the pair: where it ends, where its `=` is, whether it is encoded.
        let (mut end, mut equals, mut encoded) = (start, None, false);
        while end < bytes.len() {
            match bytes[end] {
                b'&' => break,
                b'=' if equals.is_none() => equals = Some(end),
                b'+' | b'%' => encoded = true,
                _ => {}
            }
            end += 1;
        }
        if end > start {
            // `serde_qs` reads `key` (no `=`) and `key=` as their own kinds of value.
            let equals = equals?;
            if equals + 1 == end || pairs.len() == MAX_PAIRS {
                return None;
            }
            let (key, value) = (&query[start..equals], &query[equals + 1..end]);
            let (key, value) = if encoded {
                (decode(key)?, decode(value)?)
            } else {
                (Cow::Borrowed(key), Cow::Borrowed(value))
            };
            let nested = key.bytes().any(|b| b == b'[' || b == b']');
            if key.is_empty() || nested || pairs.iter().any(|(k, _)| *k == key) {
                return None;
            }
            pairs.push((key, value));
        }
        start = end + 1;
    }
    Some(pairs)
}

/// Form decoding: `+` is a space, `%XX` a byte; `None` for a `%` without two hex digits after
/// it or bytes that are not UTF-8.
fn decode(text: &str) -> Option<Cow<'_, str>> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| b == b'+' || b == b'%') {
        return Some(Cow::Borrowed(text));
    }
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => decoded.push(b' '),
            b'%' => {
                let high = hex(*bytes.get(i + 1)?)?;
                let low = hex(*bytes.get(i + 2)?)?;
                decoded.push(high << 4 | low);
                i += 2;
            }
            byte => decoded.push(byte),
        }
        i += 1;
    }
    String::from_utf8(decoded).ok().map(Cow::Owned)
}

fn hex(byte: u8) -> Option<u8> {
    char::from(byte).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(query: &str) -> Option<Vec<(String, String)>> {
        split(query).map(|pairs| {
            pairs
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
    }

    fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            list.iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn plain_pairs_are_split_and_decoded() {
        assert_eq!(owned(""), pairs(&[]));
        assert_eq!(
            owned("limit=10&offset=0"),
            pairs(&[("limit", "10"), ("offset", "0")])
        );
        assert_eq!(
            owned("q=a+b%20c%2B&&x=%C3%A9=1"),
            pairs(&[("q", "a b c+"), ("x", "é=1")])
        );
        assert_eq!(owned("%6Cimit=5"), pairs(&[("limit", "5")]));
    }

    #[test]
    fn what_serde_qs_reads_otherwise_is_left_to_it() {
        for query in [
            "flag",
            "name=",
            "tag=a&tag=b",
            "tag[]=a",
            "tag%5B%5D=a",
            "a[b]=1",
            "x=%zz",
            "x=%4",
            "x=%FF",
            "=1",
        ] {
            assert_eq!(owned(query), None, "{query}");
        }
        let long: Vec<String> = (0..=MAX_PAIRS).map(|i| format!("k{i}=1")).collect();
        assert_eq!(owned(&long.join("&")), None);
    }

    mod same_answer_as_serde_qs {
        use std::collections::BTreeMap;

        use proptest::prelude::*;
        use serde::Deserialize;

        use crate::de::from_text::TextMap;

        #[derive(Debug, PartialEq, Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum Kind {
            Open,
            Closed,
        }

        #[derive(Debug, PartialEq, Deserialize)]
        struct Scalars {
            a: Option<u32>,
            b: Option<i64>,
            s: Option<String>,
            flag: Option<bool>,
            x: Option<f64>,
            e: Option<Kind>,
        }

        #[derive(Debug, PartialEq, Deserialize)]
        struct Required {
            a: u32,
            #[serde(default)]
            s: String,
            flag: bool,
        }

        #[derive(Debug, PartialEq, Deserialize)]
        struct Lists {
            s: Option<Vec<String>>,
            a: Option<u8>,
        }

        #[derive(Debug, PartialEq, Deserialize)]
        struct Flattened {
            a: Option<String>,
            #[serde(flatten)]
            rest: BTreeMap<String, String>,
        }

        /// Read here, then by serde_qs as `decode::query` configures it: when this reader
        /// takes the query and the type accepts it, serde_qs gives the same value.
        fn agrees<T: for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(query: &str) {
            let Some(pairs) = super::split(query) else {
                return;
            };
            let Ok(fast) = T::deserialize(TextMap::<serde::de::value::Error, _, _>::new(&pairs))
            else {
                return;
            };
            let config = serde_qs::Config::new()
                .use_form_encoding(true)
                .duplicate_key_behavior(serde_qs::DuplicateKeyBehavior::Error);
            let qs: T = config
                .deserialize_str(query)
                .unwrap_or_else(|e| panic!("{query:?}: read here as {fast:?}, serde_qs: {e}"));
            assert_eq!(fast, qs, "{query:?}");
        }

        fn value() -> impl Strategy<Value = String> {
            prop_oneof![
                Just(String::new()),
                Just("true".to_owned()),
                Just("false".to_owned()),
                Just("open".to_owned()),
                Just("1".to_owned()),
                Just("-1".to_owned()),
                Just("1.5".to_owned()),
                Just("1e3".to_owned()),
                Just("99999999999".to_owned()),
                Just("%C3%A9".to_owned()),
                Just("%FF".to_owned()),
                Just("a+b".to_owned()),
                Just("%2B%26%3D".to_owned()),
                "[a-zA-Z0-9 +%.~_-]{0,6}",
            ]
        }

        fn query() -> impl Strategy<Value = String> {
            let key = prop_oneof![
                Just("a"),
                Just("b"),
                Just("s"),
                Just("flag"),
                Just("x"),
                Just("e"),
                Just("other"),
                Just("%61"),
                Just("s[]"),
            ];
            proptest::collection::vec((key, value(), any::<bool>()), 0..6).prop_map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(k, v, with_eq)| {
                        if with_eq {
                            format!("{k}={v}")
                        } else {
                            k.to_owned()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("&")
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn every_type_reads_a_flat_query_as_serde_qs_does(query in query()) {
                agrees::<Scalars>(&query);
                agrees::<Required>(&query);
                agrees::<Lists>(&query);
                agrees::<Flattened>(&query);
                agrees::<BTreeMap<String, String>>(&query);
            }
        }
    }
}
