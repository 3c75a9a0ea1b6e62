#!/usr/bin/env bash
# Checks each crate with no default features, then with each of its features alone, warnings
# denied for the crate itself: the dependency direction of the layers (the contract compiles
# without the pipeline, the pipeline without the server, ...) is checked by the compiler.
# The features are read from each manifest's [features] table, so a new one is checked too.
# `cargo rustc --profile check`: `-D warnings` reaches the crate alone, so the dependencies'
# build cache is shared with the other steps.
set -euo pipefail
cd "$(dirname "$0")/.."

features_of() {
    # The keys of the [features] table, but `default` and private ones (`__bench`).
    awk '/^\[features\]/ { on = 1; next } /^\[/ { on = 0 } on && /^[a-z0-9][a-z0-9_-]* = / { print $1 }' "$1" |
        grep -v -e '^default$' -e '^__'
}

checked=0
for crate in pactum:Cargo.toml pactum-client:typestate-client/Cargo.toml pactum-warp:warp-adapter/Cargo.toml; do
    name=${crate%%:*}
    manifest=${crate#*:}
    for feature in "" $(features_of "$manifest"); do
        printf -- '-- %s, no default features%s\n' "$name" "${feature:+, + $feature}"
        cargo rustc -q -p "$name" --lib --profile check --no-default-features \
            ${feature:+--features "$feature"} -- -D warnings
        checked=$((checked + 1))
    done
done
echo "feature matrix: $checked configurations checked, warnings denied"
