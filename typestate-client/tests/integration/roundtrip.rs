//! Property tests: for arbitrary query and params values, client encoding → server decoding
//! gives the value back. Through the in-process pipeline (many cases) and over a socket (a
//! few).

use std::sync::OnceLock;

use pactum_client::{Client, Part};
use proptest::prelude::*;

use crate::support::contracts::*;
use crate::support::*;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    })
}

fn in_process() -> &'static Client {
    static CLIENT: OnceLock<Client> = OnceLock::new();
    CLIENT.get_or_init(|| Client::in_process(pipeline()))
}

/// A native server for the whole test binary, on the shared runtime.
fn over_socket() -> &'static Client {
    static CLIENT: OnceLock<Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        let server = runtime().block_on(server());
        let client = Client::new(base_url(&server, "")).unwrap();
        std::mem::forget(server); // lives as long as the test binary
        client
    })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,12}",                // printable ASCII, reserved characters included
        "[a-z%+&=#?/\\[\\]. ]{0,10}", // the characters URLs care most about
        "[\\u{80}-\\u{10FFFF}]{0,6}", // non-ASCII
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (text(), any::<u8>()).prop_map(|(name, count)| Inner { name, count })
}

fn everything_value() -> impl Strategy<Value = Everything> {
    (
        (
            text(),
            any::<i64>(),
            any::<u32>(),
            any::<i16>(),
            any::<bool>(),
        ),
        proptest::option::of(text()),
        proptest::collection::vec(text(), 0..4),
        proptest::collection::vec(any::<i32>(), 0..14),
        inner(),
        proptest::collection::vec(inner(), 0..3),
    )
        .prop_map(
            |((text, number, unsigned, float, flag), maybe, list, numbers, inner, items)| {
                Everything {
                    text,
                    number,
                    unsigned,
                    // Short dyadic values: serde_json (without `float_roundtrip`) reads them
                    // back exactly on the JSON leg. The query leg is checked for every `f64`
                    // in the crate's unit tests.
                    float: f64::from(float) / 256.0,
                    flag,
                    maybe,
                    list,
                    numbers,
                    inner,
                    items,
                }
            },
        )
}

fn segment_is_sendable(s: &str) -> bool {
    !matches!(s, "" | "." | "..")
}

/// The route refuses empty, `.` and `..` segments (its default), and the client with it.
fn catch_all_is_sendable(s: &str) -> bool {
    !s.split('/').any(|p| matches!(p, "" | "." | ".."))
}

fn check_query(client: &Client, value: &Everything) -> Result<(), TestCaseError> {
    let got = runtime()
        .block_on(client.call(&everything()).query(value.clone()).send())
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    prop_assert_eq!(&got, value);
    Ok(())
}

fn check_pair(client: &Client, value: &Pair) -> Result<(), TestCaseError> {
    let result = runtime().block_on(client.call(&pair()).params(value.clone()).send());
    if segment_is_sendable(&value.a) && segment_is_sendable(&value.b) {
        let got = result.map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(&got, value);
    } else {
        let err = result.unwrap_err();
        prop_assert_eq!(err.validation_part(), Some(Part::Params));
    }
    Ok(())
}

fn check_file(client: &Client, value: &FilePath) -> Result<(), TestCaseError> {
    let result = runtime().block_on(client.call(&files()).params(value.clone()).send());
    if segment_is_sendable(&value.owner) && catch_all_is_sendable(&value.path) {
        let got = result.map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(&got, value);
    } else {
        let err = result.unwrap_err();
        prop_assert_eq!(err.validation_part(), Some(Part::Params));
    }
    Ok(())
}

fn catch_all() -> impl Strategy<Value = String> {
    prop_oneof![
        text(),
        proptest::collection::vec(text(), 1..4).prop_map(|parts| parts.join("/")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn query_round_trips_in_process(value in everything_value()) {
        check_query(in_process(), &value)?;
    }

    #[test]
    fn params_round_trip_in_process(a in text(), b in text()) {
        check_pair(in_process(), &Pair { a, b })?;
    }

    #[test]
    fn catch_all_round_trips_in_process(owner in text(), path in catch_all()) {
        check_file(in_process(), &FilePath { owner, path })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn query_round_trips_over_a_socket(value in everything_value()) {
        check_query(over_socket(), &value)?;
    }

    #[test]
    fn params_round_trip_over_a_socket(a in text(), b in text(), owner in text(), path in catch_all()) {
        check_pair(over_socket(), &Pair { a, b })?;
        check_file(over_socket(), &FilePath { owner, path })?;
    }
}
