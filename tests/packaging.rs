//! What the packages declare, checked against what they are: the workspace's `rust-version`
//! is at least the newest `rust-version` among the crates its packages build with (normal and
//! build dependencies, as `Cargo.lock` pins them; dev-dependencies aside), and every crate
//! carries the licence files its `license` names.
#![allow(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `1.88` and `1.88.0` alike, as `[1, 88, 0]`.
fn version(text: &str) -> [u64; 3] {
    let mut parts = text.split('.').map(|n| n.parse().unwrap_or(0));
    [(); 3].map(|()| parts.next().unwrap_or(0))
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn rust_version_covers_every_dependency() {
    let meta = metadata();
    let packages: BTreeMap<&str, &Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    // Every package the members build with, following normal and build edges only.
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let built_with = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            if built_with {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    let (newest, by) = seen
        .iter()
        .filter_map(|id| {
            let package = packages[id];
            let rust = package["rust_version"].as_str()?;
            Some((version(rust), package["name"].as_str().unwrap().to_owned()))
        })
        .max()
        .expect("some dependency declares a rust-version");
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let declared = manifest
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .map(|v| v.trim_matches('"'))
        .expect("the workspace declares a rust-version");
    assert!(
        version(declared) >= newest,
        "rust-version {declared} is older than {by}'s {newest:?}: declare what is true"
    );
}

#[test]
fn every_crate_carries_its_licence_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [".", "macros", "typestate-client", "warp-adapter"] {
        for file in ["LICENSE-APACHE", "LICENSE-MIT"] {
            let path = root.join(dir).join(file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{} is missing", path.display()));
            assert!(text.len() > 500, "{} is not a licence", path.display());
        }
    }
}

/// The crates a package builds with for `features` (normal edges, as `cargo tree` prints them),
/// each `name version` once — the count of `cargo tree -p P -e normal --prefix none | sed 's/ (.*//'
/// | sort -u | wc -l`.
fn crates_of(package: &str, features: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["tree", "--locked", "-p", package, "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}"])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some(format!("{} {}", words.next()?, words.next()?))
        })
        .collect()
}

/// Whether `crates` holds any version of `name`.
fn has(crates: &BTreeSet<String>, name: &str) -> bool {
    crates.iter().any(|c| c.split(' ').next() == Some(name))
}

/// The server-side crates a contract-only build must not compile.
const SERVER_SIDE: [&str; 10] = [
    "matchit",
    "tracing",
    "multer",
    "hyper",
    "hyper-util",
    "tokio",
    "ipnet",
    "rustc-hash",
    "sync_wrapper",
    "http-body-util",
];

#[test]
fn a_contract_crate_compiles_no_server() {
    let contract = crates_of("pactum", &["--no-default-features"]);
    for name in SERVER_SIDE {
        assert!(
            !has(&contract, name),
            "`pactum` without default features builds `{name}`: {contract:?}"
        );
    }
    // What serde and validator (the schema library every contract type derives) bring.
    let mut schema = crates_of("serde", &[]);
    schema.extend(crates_of("validator", &[]));
    let schema = schema.intersection(&contract).count();
    let server = crates_of("pactum", &[]);
    assert!(has(&server, "matchit") && has(&server, "hyper"));
    // The figures CONTRIBUTING.md quotes, printed with `--nocapture`.
    #[allow(clippy::print_stdout)]
    {
        println!(
            "pactum without default features (a contract crate): {} crates, of which serde + validator {schema}",
            contract.len()
        );
        println!(
            "pactum with its default features (the native server): {} crates",
            server.len()
        );
    }
    // Beyond the schema library, a contract crate builds pactum, its macros and a handful of
    // small crates (http, bytes, serde_json ...): a new one there needs a reason.
    let own = contract.len() - schema;
    assert!(
        own <= 10,
        "a contract crate builds {own} crates beyond serde + validator: {contract:?}"
    );
}

#[test]
fn a_client_without_default_features_compiles_no_pipeline() {
    let client = crates_of("pactum-client", &["--no-default-features"]);
    // (reqwest brings `tracing` and `ipnet` of its own.)
    for name in ["matchit", "multer"] {
        assert!(
            !has(&client, name),
            "`pactum-client` without default features builds `{name}`"
        );
    }
    let in_process = crates_of("pactum-client", &[]);
    assert!(
        has(&in_process, "matchit"),
        "the in-process transport is the pipeline's"
    );
}
