//! The snapshot check a test suite runs: the committed document against the current build.

use std::error::Error;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::{env, fmt, fs, io};

use serde_json::Value;

use super::report::Report;
use crate::openapi::Document;

/// The environment variable that rewrites snapshots instead of checking them: set it to `1`.
pub const UPDATE_SNAPSHOTS: &str = "PACTUM_UPDATE_SNAPSHOTS";

/// What [`check_snapshot`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotCheck {
    /// There was no snapshot, or an update was asked for with
    /// [`PACTUM_UPDATE_SNAPSHOTS=1`](UPDATE_SNAPSHOTS): the document was written to the file.
    Written,
    /// The document was compared with the snapshot; the snapshot was left as it was.
    Compared(Report),
}

/// A snapshot that could not be read, parsed or written.
#[derive(Debug)]
pub struct SnapshotError {
    path: PathBuf,
    kind: ErrorKind,
}

#[derive(Debug)]
enum ErrorKind {
    Read(io::Error),
    Parse(serde_json::Error),
    Write(io::Error),
}

impl SnapshotError {
    /// The snapshot's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            ErrorKind::Read(_) => write!(f, "cannot read the snapshot {path}"),
            ErrorKind::Parse(_) => write!(f, "the snapshot {path} is not JSON"),
            ErrorKind::Write(_) => write!(f, "cannot write the snapshot {path}"),
        }
    }
}

impl Error for SnapshotError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.kind {
            ErrorKind::Read(e) | ErrorKind::Write(e) => Some(e),
            ErrorKind::Parse(e) => Some(e),
        }
    }
}

/// Whether the value of [`UPDATE_SNAPSHOTS`] asks for an update: `1` or `true`.
fn update_requested(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// Writes `document` to `path` as the snapshot: indented JSON and a final newline, the
/// folders made if missing.
///
/// ```
/// use pactum::openapi::{compat, OpenApi};
///
/// let dir = std::env::temp_dir().join(format!("pactum-doc-update-{}", std::process::id()));
/// let path = dir.join("api.openapi.json");
/// let doc = OpenApi::new("Users", "1.0.0").build();
/// compat::update_snapshot(&doc, &path)?;
/// assert_eq!(std::fs::read_to_string(&path)?, doc.to_pretty_string() + "\n");
/// # std::fs::remove_dir_all(dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`SnapshotError`] when the folders or the file cannot be written.
pub fn update_snapshot(document: &Document, path: impl AsRef<Path>) -> Result<(), SnapshotError> {
    let path = path.as_ref();
    let error = |e| SnapshotError {
        path: path.to_owned(),
        kind: ErrorKind::Write(e),
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(folder).map_err(error)?;
    }
    fs::write(path, document.to_pretty_string() + "\n").map_err(error)
}

/// Checks `document` against the snapshot at `path`, as [`assert_compatible`] does, without
/// panicking: writes the snapshot when there is none or when
/// [`PACTUM_UPDATE_SNAPSHOTS=1`](UPDATE_SNAPSHOTS) is set ([`SnapshotCheck::Written`]), else
/// compares the two ([`SnapshotCheck::Compared`], the snapshot as the old document) and
/// leaves the file alone.
///
/// ```
/// use pactum::openapi::compat::{self, SnapshotCheck};
/// use pactum::openapi::OpenApi;
/// use pactum::{route, Endpoint};
///
/// let dir = std::env::temp_dir().join(format!("pactum-doc-check-{}", std::process::id()));
/// let path = dir.join("api.openapi.json");
/// let health = Endpoint::get(route!("/health")).build()?;
/// let v1 = OpenApi::new("Ops", "1.0.0").endpoint(&health).build();
/// compat::update_snapshot(&v1, &path)?;
///
/// let v2 = OpenApi::new("Ops", "2.0.0").build(); // `GET /health` is gone
/// let SnapshotCheck::Compared(report) = compat::check_snapshot(&v2, &path)? else {
///     unreachable!("the snapshot exists");
/// };
/// assert!(!report.is_compatible());
/// # std::fs::remove_dir_all(dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`SnapshotError`] when the snapshot exists but cannot be read or is not JSON, or when it
/// has to be written and cannot be.
pub fn check_snapshot(
    document: &Document,
    path: impl AsRef<Path>,
) -> Result<SnapshotCheck, SnapshotError> {
    check(
        document,
        path.as_ref(),
        update_requested(env::var_os(UPDATE_SNAPSHOTS).as_deref()),
    )
}

fn check(document: &Document, path: &Path, update: bool) -> Result<SnapshotCheck, SnapshotError> {
    let error = |kind| SnapshotError {
        path: path.to_owned(),
        kind,
    };
    if update {
        update_snapshot(document, path)?;
        return Ok(SnapshotCheck::Written);
    }
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            update_snapshot(document, path)?;
            return Ok(SnapshotCheck::Written);
        }
        Err(e) => return Err(error(ErrorKind::Read(e))),
    };
    let old: Value = serde_json::from_str(&text).map_err(|e| error(ErrorKind::Parse(e)))?;
    Ok(SnapshotCheck::Compared(super::compare(
        &old,
        document.as_value(),
    )))
}

/// The test helper: fails the test when `document` breaks clients of the snapshot at `path`.
///
/// - No snapshot yet: writes it (indented JSON, a final newline) and passes. Commit it.
/// - [`PACTUM_UPDATE_SNAPSHOTS=1`](UPDATE_SNAPSHOTS) set: rewrites it and passes.
/// - Otherwise: compares the snapshot (the old document) with `document` (the new one).
///   Breaking changes panic with the [`Report`]; compatible changes pass and the snapshot is
///   left as it is — rewrite it with the variable, so that it tracks the API clients now see.
///
/// Put it in a test of your own, with a path from `CARGO_MANIFEST_DIR` so it works from any
/// folder:
///
/// ```
/// # use pactum::openapi::OpenApi;
/// # fn my_api() -> pactum::openapi::Document { OpenApi::new("Users", "1.0.0").build() }
/// # let dir = std::env::temp_dir().join(format!("pactum-doc-assert-{}", std::process::id()));
/// # let _ = || {
/// #[test]
/// fn the_api_keeps_its_promises() {
///     let snapshot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/api.openapi.json");
///     pactum::openapi::compat::assert_compatible(&my_api(), snapshot);
/// }
/// # };
/// # pactum::openapi::compat::assert_compatible(&my_api(), dir.join("api.openapi.json"));
/// # pactum::openapi::compat::assert_compatible(&my_api(), dir.join("api.openapi.json"));
/// # std::fs::remove_dir_all(dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Panics
///
/// When a change breaks clients (the message holds the report and how to update the
/// snapshot), and when the snapshot cannot be read, parsed or written.
#[track_caller]
// The example shows the test a user writes; its hidden lines run the check itself.
#[allow(clippy::test_attr_in_doctest)]
pub fn assert_compatible(document: &Document, path: impl AsRef<Path>) {
    let path = path.as_ref();
    verdict(path, check_snapshot(document, path));
}

/// Passes or panics on what [`check_snapshot`] found.
#[track_caller]
fn verdict(path: &Path, found: Result<SnapshotCheck, SnapshotError>) {
    match found {
        Ok(SnapshotCheck::Written) => {}
        Ok(SnapshotCheck::Compared(report)) if report.is_compatible() => {}
        Ok(SnapshotCheck::Compared(report)) => panic!(
            "the OpenAPI document breaks clients of the snapshot {}:\n{report}\n\
             If the break is intended, update the snapshot: {UPDATE_SNAPSHOTS}=1 cargo test",
            path.display()
        ),
        Err(error) => panic!(
            "{error}: {}",
            error.source().map_or(String::new(), |s| s.to_string())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openapi::OpenApi;
    use crate::{route, Endpoint};

    fn folder(name: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!("pactum-compat-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn with_health() -> Document {
        let health = Endpoint::get(route::static_path("/health"))
            .build()
            .unwrap();
        OpenApi::new("Ops", "1.0.0").endpoint(&health).build()
    }

    #[test]
    fn the_update_variable_is_read_as_documented() {
        assert!(update_requested(Some(OsStr::new("1"))));
        assert!(update_requested(Some(OsStr::new("TRUE"))));
        assert!(!update_requested(Some(OsStr::new("0"))));
        assert!(!update_requested(Some(OsStr::new(""))));
        assert!(!update_requested(None));
    }

    #[test]
    fn a_missing_snapshot_is_written_then_compared() {
        let dir = folder("missing");
        let path = dir.join("deep/api.json");
        let doc = with_health();
        assert_eq!(check(&doc, &path, false).unwrap(), SnapshotCheck::Written);
        assert!(fs::read_to_string(&path).unwrap().ends_with("}\n"));
        let SnapshotCheck::Compared(report) = check(&doc, &path, false).unwrap() else {
            panic!("compared the second time");
        };
        assert!(report.is_empty(), "{report}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_compatible_change_leaves_the_snapshot_and_an_update_rewrites_it() {
        let dir = folder("update");
        let path = dir.join("api.json");
        let empty = OpenApi::new("Ops", "1.0.0").build();
        update_snapshot(&empty, &path).unwrap();
        let before = fs::read_to_string(&path).unwrap();
        let SnapshotCheck::Compared(report) = check(&with_health(), &path, false).unwrap() else {
            panic!("compared");
        };
        assert!(report.is_compatible() && !report.is_empty(), "{report}");
        assert_eq!(fs::read_to_string(&path).unwrap(), before);
        assert_eq!(
            check(&with_health(), &path, true).unwrap(),
            SnapshotCheck::Written
        );
        assert_ne!(fs::read_to_string(&path).unwrap(), before);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_breaking_change_panics_with_the_report() {
        let dir = folder("breaking");
        let path = dir.join("api.json");
        update_snapshot(&with_health(), &path).unwrap();
        let empty = OpenApi::new("Ops", "1.0.0").build();
        let found = check(&empty, &path, false);
        let panic =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verdict(&path, found)))
                .unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(
            message.contains("BREAKING   GET /health: operation-removed"),
            "{message}"
        );
        assert!(message.contains("PACTUM_UPDATE_SNAPSHOTS=1"), "{message}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_snapshot_that_is_not_json_is_an_error() {
        let dir = folder("garbage");
        let path = dir.join("api.json");
        fs::create_dir_all(&dir).unwrap();
        fs::write(&path, "not json").unwrap();
        let error = check(&with_health(), &path, false).unwrap_err();
        assert_eq!(error.path(), path);
        assert!(error.to_string().contains("is not JSON"), "{error}");
        fs::remove_dir_all(dir).unwrap();
    }
}
