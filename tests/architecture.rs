//! The shape of the code, checked: no import cycle between the modules of each crate's `src/`,
//! and no source file over 400 lines (tests aside).
//!
//! A module is a top-level module of the crate (`src/pipeline/` and its files are one,
//! `pipeline`), or the crate root (`lib.rs`, and anything reached through its re-exports). An
//! edge is a `crate::module` path in code (comments and `#[cfg(test)]` parts left out).
//! Every other module depends on the modules below it, never back up: mutual recursion
//! stays inside one module.
#![allow(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 400;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    path.file_stem().is_some_and(|s| s == "tests")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// The code of a file: comments and the `#[cfg(test)]` part (always last here) left out.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules each top-level module of `src` names through `crate::`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let is_module = |name: &str| src.join(format!("{name}.rs")).exists() || src.join(name).is_dir();
    let path_re = regex::Regex::new(r"crate::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)").unwrap();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        if is_test_file(relative) {
            continue;
        }
        let first = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = match first.strip_suffix(".rs") {
            Some("lib") => "lib".to_owned(),
            Some(stem) => stem.to_owned(),
            None => first.into_owned(),
        };
        let text = code(&fs::read_to_string(&file).unwrap());
        for found in path_re.captures_iter(&text) {
            let target = &found[1];
            let names: Vec<&str> = match target.strip_prefix('{') {
                Some(group) => group
                    .trim_end_matches('}')
                    .split(',')
                    .filter_map(|item| item.trim().split("::").next())
                    .filter(|name| !name.is_empty())
                    .collect(),
                None => vec![target],
            };
            for name in names {
                let to = if is_module(name) { name } else { "lib" };
                if to != from {
                    graph.entry(from.clone()).or_default().insert(to.to_owned());
                }
            }
        }
    }
    graph
}

/// A cycle in `graph`, as the list of modules around it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

const CRATES: [&str; 3] = ["src", "warp-adapter/src", "typestate-client/src"];

#[test]
fn no_import_cycle_between_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in CRATES {
        let graph = module_graph(&root.join(src));
        if let Some(cycle) = find_cycle(&graph) {
            let edges: Vec<String> = graph
                .iter()
                .map(|(from, to)| {
                    format!(
                        "  {from} -> {}",
                        Vec::from_iter(to.iter().cloned()).join(", ")
                    )
                })
                .collect();
            panic!(
                "import cycle in {src}: {}\nall edges:\n{}",
                cycle.join(" -> "),
                edges.join("\n")
            );
        }
    }
}

#[test]
fn no_source_file_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in CRATES.iter().copied().chain(["benches", "examples"]) {
        rust_files(&root.join(dir), &mut files);
    }
    let mut long: Vec<String> = files
        .iter()
        .filter(|file| !is_test_file(file.strip_prefix(root).unwrap()))
        .filter_map(|file| {
            let lines = fs::read_to_string(file).unwrap().lines().count();
            (lines > MAX_LINES).then(|| {
                format!(
                    "  {} ({lines} lines)",
                    file.strip_prefix(root).unwrap().display()
                )
            })
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "source files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_check_sees_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(from, to)| (from.to_owned(), to.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(find_cycle(&graph).unwrap().join(" -> "), "a -> b -> c -> a");
    let acyclic: BTreeMap<String, BTreeSet<String>> =
        [("a".to_owned(), BTreeSet::from(["b".to_owned()]))].into();
    assert_eq!(find_cycle(&acyclic), None);
}
