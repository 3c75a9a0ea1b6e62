//! `cargo check` — what rust-analyzer runs — reports a `route!` route whose names are not the
//! params type's fields (issue 28): the comparison is a trait bound of `.params::<T>()`, not
//! a constant evaluated only when code is compiled to a program.
//!
//! trybuild cannot show it: its `compile_fail` cases run `cargo build` whenever a case of the
//! same run must pass (`tests/compile_fail.rs` has two). So this test runs `cargo check`
//! itself, offline, on a crate of its own made of `tests/ui/route_params_mismatch.rs`, with
//! pactum as a path dependency (contract only, so that few crates are checked) and the
//! workspace's `Cargo.lock`, in a directory of the target dir (`CARGO_TARGET_TMPDIR`).
#![allow(missing_docs)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest the check may take: the first run checks pactum's few dependencies.
const LIMIT: Duration = Duration::from_secs(600);

/// Writes the crate under `CARGO_TARGET_TMPDIR` and returns its directory.
fn mismatch_crate() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("route-check");
    std::fs::create_dir_all(dir.join("src")).expect("create the crate's directory");
    let manifest = format!(
        r#"[package]
name = "route-check"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
pactum = {{ path = {workspace:?}, default-features = false }}
serde = {{ version = "1", features = ["derive"] }}
validator = {{ version = "0.21", features = ["derive"] }}

# Not a member of pactum's workspace.
[workspace]
"#,
        workspace = workspace.display().to_string(),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    let main = std::fs::read_to_string(workspace.join("tests/ui/route_params_mismatch.rs"))
        .expect("read the trybuild case");
    std::fs::write(dir.join("src/main.rs"), main).expect("write src/main.rs");
    // The workspace's versions: nothing to fetch, and what the workspace built is reused.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    dir
}

#[test]
fn cargo_check_reports_a_route_params_mismatch() {
    let dir = mismatch_crate();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut child = Command::new(cargo)
        .args(["check", "--offline", "--quiet", "--color=never"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo runs");
    // Read stderr on a thread, so that a long output cannot fill the pipe and stall cargo.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).map(|_| text)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for cargo") {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`cargo check` in {} took over {LIMIT:?}", dir.display());
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let stderr = reader
        .join()
        .expect("the reader thread ends")
        .expect("cargo's stderr is UTF-8");

    assert!(!status.success(), "`cargo check` passed:\n{stderr}");
    assert!(
        stderr.contains(
            "error[E0277]: params type `RepoPath` does not fit this route: its field names are \
             not the route's `:name` segments"
        ),
        "`cargo check` failed without the route check's message:\n{stderr}"
    );
    // At the user's contract, not inside pactum.
    assert!(
        stderr.contains("--> src/main.rs:12:13"),
        "the error does not point at the contract:\n{stderr}"
    );
    assert_eq!(
        stderr.matches("error[E").count(),
        1,
        "one error expected:\n{stderr}"
    );
}
