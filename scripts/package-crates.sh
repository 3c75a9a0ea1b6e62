#!/usr/bin/env bash
# Packages the four crates as crates.io would receive them, builds each from its packaged
# sources against the others' (`cargo package --workspace` verifies them together), checks that
# each ships only what a user needs, and prints each package's file count and size.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)

# `cargo package --workspace` verifies each crate against the others' packages through a local
# registry, and takes what it finds from an earlier run as it would a crates.io release: the
# same version's sources extracted under $CARGO_HOME/registry/src/-<hash of the path>/, and
# their build in the target dir. Both may be an older commit's: remove the extractions, and
# verify in a target dir of its own, emptied first.
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/; do
    for name in pactum-macros pactum pactum-client pactum-warp; do
        rm -rf "$dir$name-$version"
    done
done
export CARGO_TARGET_DIR=target/package-verify
rm -rf "$CARGO_TARGET_DIR"

# The test kit (tests/kit) is `publish = false`, but `cargo package --workspace` packages it too;
# it is not one of the crates, and its sources reach outside its folder (the conformance API).
cargo package --workspace --exclude pactum-test-kit "$@"

# What a package may hold: sources (with the guide's chapters and the docs page's assets), the
# manifest, the lock file, README, CHANGELOG and licences. No CI, scripts, toolchain file,
# tests, benchmarks, fixtures of other languages, patches or fuzz corpora.
allowed='^[^/]+/(src/.*|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|README\.md|CHANGELOG\.md|LICENSE-APACHE|LICENSE-MIT|\.cargo_vcs_info\.json)$'
status=0
printf '%-28s %6s %10s %12s\n' package files bytes unpacked
for name in pactum-macros pactum pactum-client pactum-warp; do
    crate="$CARGO_TARGET_DIR/package/$name-$version.crate"
    files=$(tar tzf "$crate" | grep -v '/$')
    if stray=$(grep -Ev "$allowed" <<<"$files"); then
        printf '%s ships what a user does not need:\n%s\n' "$name" "$stray" >&2
        status=1
    fi
    for required in README.md CHANGELOG.md LICENSE-APACHE LICENSE-MIT; do
        grep -qx "$name-$version/$required" <<<"$files" || {
            printf '%s lacks %s\n' "$name" "$required" >&2
            status=1
        }
    done
    unpacked=$(tar xzOf "$crate" | wc -c)
    printf '%-28s %6d %10d %12d\n' "$name-$version.crate" "$(wc -l <<<"$files")" \
        "$(stat -c %s "$crate")" "$unpacked"
done
exit "$status"
