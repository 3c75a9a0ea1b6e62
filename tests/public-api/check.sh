#!/usr/bin/env bash
# The public API of the four crates, listed by `cargo public-api` (rustdoc JSON, nightly
# toolchain) and compared with the committed listings beside this script, so that every change
# to the API is a visible diff in review. `--bless` rewrites the listings after an intended
# change.
#
# cargo-public-api is installed once into target/tools (pinned: its version must read the
# nightly rustdoc's JSON format).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/public-api
version=0.52.0
tools=target/tools
export PATH="$PWD/$tools/bin:$PATH"

if ! cargo-public-api --version 2>/dev/null | grep -qF "$version"; then
    cargo install cargo-public-api --version "$version" --locked --root "$tools" --quiet
fi

# The features a user can enable (not pactum's internal `__bench`).
declare -A features=(
    [pactum-macros]=""
    [pactum]="server,http2,tls,openapi,docs-page,anyhow"
    [pactum-client]="rustls,in-process"
    [pactum-warp]="server,http2,tls"
)
status=0
for crate in pactum-macros pactum pactum-client pactum-warp; do
    listing="$here/$crate.txt"
    args=(-p "$crate" -ss)
    [[ -n "${features[$crate]}" ]] && args+=(--features "${features[$crate]}")
    actual=$(cargo +nightly public-api "${args[@]}" 2>/dev/null)
    if [[ "${1:-}" == "--bless" ]]; then
        printf '%s\n' "$actual" >"$listing"
        printf '%s: %d lines written\n' "$listing" "$(wc -l <"$listing")"
    elif ! diff -u "$listing" <(printf '%s\n' "$actual"); then
        printf '\nThe public API of %s changed (diff above). If intended, run %s --bless\n' \
            "$crate" "$0" >&2
        status=1
    else
        printf '%s: public API as listed (%d lines)\n' "$crate" "$(wc -l <"$listing")"
    fi
done
exit "$status"
