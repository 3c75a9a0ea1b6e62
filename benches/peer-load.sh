#!/usr/bin/env bash
# The peer load benchmark: pactum (native server and warp adapter) against raw hyper, axum and
# warp on the same three endpoints, plus pactum-client against raw reqwest. One run, a few
# minutes: it prints the tables and ratios and writes them to target/peer-load/results.json.
#
#   benches/peer-load.sh                 # the full run
#   benches/peer-load.sh --help          # options: rounds, duration, cores, servers, ...
#
# PEER_LOAD_VALGRIND_ARGS adds arguments to each callgrind run, e.g. "--dump-instr=yes" (a
# per-instruction profile, with --keep-profiles) or "--cache-sim=yes --branch-sim=yes".
#
# Needs Linux, two cores (servers are pinned to one, wrk and the clients to the other), and
# wrk, valgrind, taskset and h2load/nghttp (nghttp2-client), installed here from Debian's packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v taskset >/dev/null 2>&1 || missing+=(util-linux)
# The HTTP/2 rows: h2load sends the requests, nghttp checks the answers.
command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
# The large-body rows are measured on glibc's allocator and on mimalloc (preloaded).
[ -e /usr/lib/x86_64-linux-gnu/libmimalloc.so.2 ] || missing+=(libmimalloc2.0)
if ((${#missing[@]})); then
    echo "installing ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
        { "${sudo[@]}" apt-get update -qq >/dev/null && "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi

cargo build --release --example peer_load
exec "${CARGO_TARGET_DIR:-target}/release/examples/peer_load" "$@"
