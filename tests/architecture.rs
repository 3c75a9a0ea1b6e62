//! The shape of the code, checked: no import cycle between the modules of each crate's `src/`,
//! none between the files of one module, and no source file over 600 lines (tests aside; over
//! 400 gets a warning).
//!
//! Between modules, a module is a top-level module of the crate (`src/pipeline/` and its files
//! are one, `pipeline`), or the crate root (`lib.rs`, and anything reached through its
//! re-exports). Between files, each file (or folder) of a module is one node, and the
//! module's own `mod.rs` is left out (it declares and re-exports the others). An edge is a
//! `crate::`, `super::` or `self::` path in code: whole files are read, comments and
//! `#[cfg(test)]` items left out. Every module depends on the modules below it, never back up;
//! the few files that are mutually recursive by nature are listed, with why, in
//! [`RECURSIVE`].
#![allow(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Past this many lines a file is named in a warning: split it where it holds two things.
const WARN_LINES: usize = 400;
/// Past this many lines the check fails.
const MAX_LINES: usize = 600;

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

/// The code of a file: line comments and every `#[cfg(test)]` item (a test module, a
/// test-only function or import) left out, wherever it is.
fn code(text: &str) -> String {
    let text: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = skip_item(&rest[at + "#[cfg(test)]".len()..]);
    }
    out.push_str(rest);
    out
}

/// What follows the item at the start of `text`: after its closing brace, or after its `;`
/// when it has no body.
fn skip_item(text: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            ';' if depth == 0 => return &text[i + 1..],
            _ => {}
        }
    }
    ""
}

/// A module's path inside its crate, e.g. `["pipeline", "formatting"]`; empty for the root.
type ModPath = Vec<String>;

/// The module a file is: `pipeline/formatting.rs` and `pipeline/formatting/mod.rs` are
/// `pipeline::formatting`, `lib.rs` the root.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut path: ModPath = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        path.pop();
    }
    path
}

/// For each library file of `src`, the modules its `crate::`, `super::` and `self::` paths
/// name (each path resolved to the deepest module it goes through).
fn file_edges(src: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<ModPath> = files.iter().map(|file| module_of(src, file)).collect();
    let path_re =
        regex::Regex::new(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)(::\{[^;]*?\})?")
            .unwrap();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for file in files {
        if is_test_file(file.strip_prefix(src).unwrap()) {
            continue;
        }
        let from = module_of(src, &file);
        let text = code(&fs::read_to_string(&file).unwrap());
        for found in path_re.captures_iter(&text) {
            let base: ModPath = match &found[1] {
                "crate" => Vec::new(),
                "super" => from[..from.len().saturating_sub(1)].to_vec(),
                _ => from.clone(),
            };
            let segments: Vec<&str> = found[2].split("::").filter(|s| !s.is_empty()).collect();
            let mut paths: Vec<Vec<&str>> = Vec::new();
            match found.get(3) {
                Some(group) => {
                    let inner = &group.as_str()[3..group.as_str().len() - 1];
                    for item in inner.split(',') {
                        let head = item.split('{').next().unwrap_or_default();
                        let tail = head.split("::").map(str::trim);
                        let tail = tail.filter(|s| !s.is_empty() && *s != "self");
                        paths.push(segments.iter().copied().chain(tail).collect());
                    }
                }
                None => paths.push(segments),
            }
            for path in paths {
                let mut target = base.clone();
                let mut rest = path.as_slice();
                while let Some((&"super", after)) = rest.split_first() {
                    target.pop();
                    rest = after;
                }
                for segment in rest {
                    target.push((*segment).to_owned());
                    if !modules.contains(&target) {
                        target.pop();
                        break;
                    }
                }
                if target != from {
                    edges.entry(from.clone()).or_default().insert(target);
                }
            }
        }
    }
    edges
}

/// The top-level modules each top-level module of `src` names (`lib` for the root).
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let top = |path: &ModPath| path.first().cloned().unwrap_or_else(|| "lib".to_owned());
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in file_edges(src) {
        for target in targets {
            if top(&target) != top(&from) {
                graph.entry(top(&from)).or_default().insert(top(&target));
            }
        }
    }
    graph
}

/// Files that are mutually recursive by nature, each group read as one node: the module and
/// its files, and why.
const RECURSIVE: &[(&str, &[&str], &str)] = &[(
    "de::collect",
    &["access", "proxy", "wrap"],
    "a wrapping deserializer: `Collect` (wrap) visits through `Proxy` (proxy), whose \
     accesses (access) hand each element to a `Collect` again",
)];

/// For each module with files, the graph between them: an edge where a file names something
/// in (or under) a sibling file.
fn sibling_graphs(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in file_edges(src) {
        for target in targets {
            let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == 0 || common >= from.len() || common >= target.len() {
                continue; // between top-level modules, or to an enclosing module
            }
            let parent = from[..common].join("::");
            let node = |name: &str| {
                let grouped = RECURSIVE
                    .iter()
                    .find(|(module, files, _)| *module == parent && files.contains(&name));
                grouped.map_or_else(|| name.to_owned(), |(_, files, _)| files.join("+"))
            };
            let (a, b) = (node(&from[common]), node(&target[common]));
            if a != b {
                graphs
                    .entry(parent)
                    .or_default()
                    .entry(a)
                    .or_default()
                    .insert(b);
            }
        }
    }
    graphs
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

/// The pipeline's modules: what the contract layer must not import.
const PIPELINE_MODULES: &[&str] = &[
    "body",
    "context",
    "decode",
    "handler",
    "middleware",
    "pipeline",
    "request",
    "response",
    "server",
    "openapi",
];

/// The contract layer (`contract/`, and `upload/`, `error/` and `route/` beneath it) is the
/// part a client shares: it imports nothing of the pipeline, and `contract/` is the same with
/// or without the `pipeline` feature. The feature builds in `.ci/run` check that it compiles
/// so; this says why, and keeps the cfg out.
#[test]
fn the_contract_layer_imports_nothing_of_the_pipeline() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    for layer in [
        "contract",
        "upload",
        "route",
        "de",
        "security",
        "validation",
    ] {
        let uses = graph.get(layer).cloned().unwrap_or_default();
        let pipeline: Vec<&String> = uses
            .iter()
            .filter(|m| PIPELINE_MODULES.contains(&m.as_str()))
            .collect();
        assert!(
            pipeline.is_empty(),
            "`{layer}` imports the pipeline: {pipeline:?}"
        );
    }
    let mut files = Vec::new();
    rust_files(&src.join("contract"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("feature = \"pipeline\""),
            "{} depends on the `pipeline` feature: move that half to the pipeline",
            file.display()
        );
    }
}

#[test]
fn no_import_cycle_between_the_files_of_a_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cycles = Vec::new();
    for src in CRATES {
        for (module, graph) in sibling_graphs(&root.join(src)) {
            if let Some(cycle) = find_cycle(&graph) {
                cycles.push(format!("  {src}/{module}: {}", cycle.join(" -> ")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "import cycles between the files of a module (move what both need into a file of its \
         own, or list a group that is recursive by nature in `RECURSIVE`):\n{}",
        cycles.join("\n")
    );
}

#[test]
#[allow(clippy::print_stderr)] // the warnings are the output
fn no_source_file_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in CRATES.iter().copied().chain(["benches", "examples"]) {
        rust_files(&root.join(dir), &mut files);
    }
    let mut long: Vec<(usize, String)> = files
        .iter()
        .filter(|file| !is_test_file(file.strip_prefix(root).unwrap()))
        .filter_map(|file| {
            let lines = fs::read_to_string(file).unwrap().lines().count();
            let name = file.strip_prefix(root).unwrap().display().to_string();
            (lines > WARN_LINES).then_some((lines, name))
        })
        .collect();
    long.sort();
    for (lines, name) in &long {
        eprintln!("warning: {name} has {lines} lines (over {WARN_LINES}): split it by topic");
    }
    let over: Vec<String> = long
        .iter()
        .filter(|(lines, _)| *lines > MAX_LINES)
        .map(|(lines, name)| format!("  {name} ({lines} lines)"))
        .collect();
    assert!(
        over.is_empty(),
        "source files over {MAX_LINES} lines:\n{}",
        over.join("\n")
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

#[test]
fn the_reader_skips_test_items_only() {
    let text = "use crate::a::X;\n#[cfg(test)]\nuse crate::b::Y;\nfn f() {}\n\
                #[cfg(test)]\nmod tests { use crate::c::{Z, W}; }\nuse super::d; // crate::e\n";
    let code = code(text);
    assert!(code.contains("crate::a") && code.contains("fn f") && code.contains("super::d"));
    assert!(!code.contains("crate::b") && !code.contains("crate::c") && !code.contains("crate::e"));
}
