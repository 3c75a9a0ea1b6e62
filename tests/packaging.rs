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
