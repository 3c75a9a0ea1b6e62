//! The `conformance` example binary as a [`TestServer`].

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crate::{client, Running, TestServer};

/// The workspace's root, where `pactum` (and its `conformance` example) is.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `conformance` example binary, built once (a no-op when `cargo test` built it already).
pub fn conformance_binary() -> PathBuf {
    conformance_binary_built().to_owned()
}

fn conformance_binary_built() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| example_binary("conformance"))
}

/// The example `name`'s binary, built (a no-op when `cargo test` built it already).
fn example_binary(name: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .args(["build", "--example", name, "--message-format=json"])
        .current_dir(workspace_root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building the {name} example failed"
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["target"]["name"] == name)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo reports the {name} executable"))
}

/// Starts the example `name` with the environment `vars` and reads its first stdout line,
/// `listening on http://HOST:PORT`.
pub async fn example(name: &str, vars: &[(&str, &str)]) -> TestServer {
    let owned = name.to_owned();
    let binary = tokio::task::spawn_blocking(move || example_binary(&owned))
        .await
        .expect("build task");
    let mut command = tokio::process::Command::new(binary);
    command.envs(vars.iter().copied());
    started(command).await
}

/// Starts `conformance --adapter <adapter> --port 0` and reads its first stdout line.
pub async fn fixture(adapter: &str) -> TestServer {
    let binary = tokio::task::spawn_blocking(conformance_binary)
        .await
        .expect("build task");
    let mut command = tokio::process::Command::new(binary);
    command.args(["--adapter", adapter, "--port", "0", "--host", "127.0.0.1"]);
    started(command).await
}

/// Runs `command` (an example that prints `listening on http://HOST:PORT` first) as a
/// [`TestServer`], killed with it.
async fn started(mut command: tokio::process::Command) -> TestServer {
    use tokio::io::AsyncBufReadExt;
    let mut child = command
        .stdout(std::process::Stdio::piped())
        // Deliberate panics and error logs would drown the test output.
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the example starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut first = String::new();
    tokio::time::timeout(
        Duration::from_secs(30),
        tokio::io::BufReader::new(stdout).read_line(&mut first),
    )
    .await
    .expect("the example prints its address in time")
    .expect("stdout readable");
    let url = first
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    TestServer {
        addr: url.parse().expect("HOST:PORT"),
        running: Running::Process(child),
        client: client(),
    }
}

/// The conformance binary on the native server.
pub async fn fixture_native() -> TestServer {
    fixture("native").await
}

/// The conformance binary through the warp adapter.
pub async fn fixture_warp() -> TestServer {
    fixture("warp").await
}
