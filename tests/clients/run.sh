#!/usr/bin/env bash
# Clients nobody on the project wrote, against the conformance fixture, on both adapters:
#
#   - a TypeScript client generated from the fixture's own GET /openapi.json (openapi-typescript
#     types + openapi-fetch), compiled with `tsc --strict`, run with node's built-in test runner
#     (ts/*.test.ts: every operation of the fixture's rows 1-18 (CONTRIBUTING.md: The conformance fixture); probe/request-types.ts: what the
#     generated types force on a client);
#   - Python `requests` (requests_check.py): list filters with percent-encoded brackets, missing
#     fields named by their path, catch-all segments that try to climb out.
#   - Resumable event streams (sse/): npm `eventsource` and Python httpx-sse read GET /events
#     with the SSE spec's reconnection (Last-Event-ID, stop on 204): each event exactly once.
#
# The document checked by tools that read it (issue 30):
#   - openapi-core (openapi_core_check.py): every documented operation, the event stream and an
#     upload included, sent for real; each request and answer validated against the fixture's
#     own 3.1 document;
#   - the prism proxy with `--errors` (prism_check.py) in front of the fixture: valid requests
#     through it must come back as the fixture answered them, with no violation;
#   - `redocly lint` (recommended rules) on the 3.0.3, 3.1.0 and 3.2.0 documents: no error.
#
#   tests/clients/run.sh                 # both adapters
#   tests/clients/run.sh warp            # one adapter
#
# For each adapter: starts a fresh `conformance --adapter A --port 0` (no users yet), generates
# the types from its document, compiles, runs the TypeScript suite then the Python checks, and
# stops the server. The last line is `N passed, M failed`; the exit status is non-zero when
# anything failed.
#
# It installs what it needs, outside the work tree: the npm packages pinned by package.json and
# package-lock.json into target/clients/node (`npm ci`, redone only when those files change), and
# a virtual environment with the pins of requirements.txt into target/clients/venv. Node 20.19+
# with npm, Python 3.10+ with venv. Logs and reports go to target/clients/ADAPTER/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
HERE=$ROOT/tests/clients
OUT=$ROOT/target/clients
NODE_DIR=$OUT/node
VENV=$OUT/venv
# shellcheck source=../support/adapters.sh
. "$ROOT/tests/support/adapters.sh"
adapters_from_args "$@"

say() { printf '\n--> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------
node_version=$(node --version 2>/dev/null || true)
if ! [[ $node_version =~ ^v([0-9]+)\.([0-9]+) ]] ||
    [ "${BASH_REMATCH[1]}" -lt 20 ] ||
    { [ "${BASH_REMATCH[1]}" -eq 20 ] && [ "${BASH_REMATCH[2]}" -lt 19 ]; }; then
    echo "node 20.19 or newer is needed (@redocly/cli) (found '${node_version:-none}')" >&2
    exit 1
fi

mkdir -p "$NODE_DIR"
NODE_STAMP=$NODE_DIR/.pactum-lock
node_want=$(cat "$HERE/package.json" "$HERE/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ ! -d "$NODE_DIR/node_modules" ] || [ "$(cat "$NODE_STAMP" 2>/dev/null)" != "$node_want" ]; then
    say "installing the npm packages of tests/clients/package-lock.json into $NODE_DIR"
    cp "$HERE/package.json" "$HERE/package-lock.json" "$NODE_DIR/"
    (cd "$NODE_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$node_want" >"$NODE_STAMP"
fi
BIN=$NODE_DIR/node_modules/.bin

PY_STAMP=$VENV/.pactum-requirements
py_want=$(sha256sum <"$HERE/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$PY_STAMP" 2>/dev/null)" != "$py_want" ]; then
    say "installing tests/clients/requirements.txt into $VENV"
    python3 -m venv "$VENV" || {
        echo "python3 -m venv failed: install Python 3.10+ with venv (Debian: apt-get install python3-venv)" >&2
        exit 1
    }
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
    echo "$py_want" >"$PY_STAMP"
fi
echo "node $node_version, typescript $("$BIN/tsc" --version | awk '{ print $NF }'), openapi-typescript $(node -p 'require(process.argv[1]).version' "$NODE_DIR/node_modules/openapi-typescript/package.json"), openapi-fetch $(node -p 'require(process.argv[1]).version' "$NODE_DIR/node_modules/openapi-fetch/package.json"), $("$VENV/bin/python" -c 'import requests, sys; print(f"requests {requests.__version__} on Python {sys.version.split()[0]}")')"

# --- the document's tools (openapi-core, prism, redocly) -----------------------------------
echo "openapi-core $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("openapi-core"))'), prism $(node -p 'require(process.argv[1]).version' "$NODE_DIR/node_modules/@stoplight/prism-cli/package.json"), redocly $(node -p 'require(process.argv[1]).version' "$NODE_DIR/node_modules/@redocly/cli/package.json")"
PRISM_PID=
stop_prism() {
    if [ -n "$PRISM_PID" ] && kill -0 "$PRISM_PID" 2>/dev/null; then
        kill -TERM "$PRISM_PID" 2>/dev/null || true
        wait "$PRISM_PID" 2>/dev/null || true
    fi
    PRISM_PID=
}
# Runs one check (CMD...) with its output in LOG, shows its lines that are not `ok`, and reads
# its last line, `LABEL: N passed, M failed`, into CHECK_PASS and CHECK_FAIL. A check that
# exits non-zero with no failure counted is added to PROBLEMS.
run_check() {
    local label=$1 log=$2 status=0 line
    shift 2
    PYTHONDONTWRITEBYTECODE=1 timeout 60 "$@" >"$log" 2>&1 || status=$?
    grep -v '^ok ' "$log" || true
    line=$(grep -E "^$label: [0-9]+ passed, [0-9]+ failed\$" "$log" | tail -1 || true)
    CHECK_PASS=0 CHECK_FAIL=0
    if [ -n "$line" ]; then
        CHECK_PASS=$(echo "$line" | awk '{ print $(NF-3) + 0 }')
        CHECK_FAIL=$(echo "$line" | awk '{ print $(NF-1) + 0 }')
    fi
    if [ "$status" -ne 0 ] && [ "$CHECK_FAIL" -eq 0 ]; then
        PROBLEMS+=("$label: exit $status with no failed check (${log#"$ROOT/"})")
    fi
}

# Runs openapi-core, then prism, against the fixture at $BASE; logs to DIR. Adds to DOC_PASS,
# DOC_FAIL and PROBLEMS.
document_tools() {
    local adapter=$1 dir=$2 port prism_url
    say "$adapter: openapi-core validates real answers against $BASE/openapi.json"
    run_check openapi-core "$dir/openapi-core.log" "$VENV/bin/python" "$HERE/openapi_core_check.py" "$BASE"
    DOC_PASS=$((DOC_PASS + CHECK_PASS)) DOC_FAIL=$((DOC_FAIL + CHECK_FAIL))

    say "$adapter: prism proxy --errors in front of the fixture"
    port=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    prism_url=http://127.0.0.1:$port
    "$BIN/prism" proxy --errors -h 127.0.0.1 -p "$port" "$BASE/openapi.json" "$BASE" >"$dir/prism.log" 2>&1 &
    PRISM_PID=$!
    if ! "$VENV/bin/python" - "$prism_url" <<'PY'; then
import sys, time, requests
for _ in range(300):
    try:
        requests.get(sys.argv[1] + "/health", timeout=2)
        sys.exit(0)
    except requests.RequestException:
        time.sleep(0.1)
sys.exit(1)
PY
        PROBLEMS+=("$adapter: prism did not start (target/clients/$adapter/prism.log)")
        stop_prism
        return
    fi
    run_check prism "$dir/prism-check.log" "$VENV/bin/python" "$HERE/prism_check.py" "$prism_url"
    DOC_PASS=$((DOC_PASS + CHECK_PASS)) DOC_FAIL=$((DOC_FAIL + CHECK_FAIL))
    stop_prism
}
DOC_PASS=0
DOC_FAIL=0
# --- end of the document's tools ----------------------------------------------------------

say "building the conformance fixture"
cargo build --quiet --example conformance
FIXTURE=$ROOT/target/debug/examples/conformance

# --- the server ----------------------------------------------------------------------------
# shellcheck source=../support/fixture.sh
. "$ROOT/tests/support/fixture.sh"
trap 'stop_prism; stop_server' EXIT

# --- one adapter ---------------------------------------------------------------------------
PASSED=0
FAILED=0
SUMMARY=()
PROBLEMS=()
FIRST_SCHEMA=
for adapter in "${ADAPTERS[@]}"; do
    dir=$OUT/$adapter
    build=$NODE_DIR/build/$adapter
    rm -rf "$dir" "$build"
    mkdir -p "$dir" "$build/src" "$build/probe"
    cp "$HERE"/ts/*.ts "$build/src/"
    cp "$HERE"/probe/*.ts "$build/probe/"
    cp "$HERE/tsconfig.json" "$build/"

    say "$adapter: starting the fixture"
    start_server "$adapter" "$dir"
    echo "$BASE"

    ts_pass=0 ts_fail=0
    say "$adapter: generating TypeScript types from $BASE/openapi.json, compiling with tsc --strict"
    status=0
    (cd "$build" && "$BIN/openapi-typescript" "$BASE/openapi.json" -o src/schema.d.ts) >"$dir/openapi-typescript.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$dir/openapi-typescript.log" >&2
        PROBLEMS+=("$adapter: openapi-typescript failed ($status)")
    elif ! (cd "$build" && "$BIN/tsc" -p tsconfig.json) 2>&1 | tee "$dir/tsc.log"; then
        PROBLEMS+=("$adapter: the TypeScript suite does not compile (target/clients/$adapter/tsc.log)")
    else
        if [ -z "$FIRST_SCHEMA" ]; then
            FIRST_SCHEMA=$build/src/schema.d.ts
        elif ! cmp -s "$FIRST_SCHEMA" "$build/src/schema.d.ts"; then
            PROBLEMS+=("$adapter: its document generates other types than ${ADAPTERS[0]}'s")
        fi
        say "$adapter: TypeScript suite (node --test)"
        status=0
        (cd "$build" && PACTUM_BASE_URL=$BASE timeout 120 node --test --test-timeout=30000 \
            --test-reporter=spec --test-reporter-destination=stdout \
            --test-reporter=tap --test-reporter-destination="$dir/typescript.tap" \
            dist/) 2>&1 | tee "$dir/typescript.log" || status=$?
        ts_pass=$(awk '$1 == "#" && $2 == "pass" { n = $3 } END { print n + 0 }' "$dir/typescript.tap" 2>/dev/null || echo 0)
        ts_fail=$(awk '$1 == "#" && $2 == "fail" { n = $3 } END { print n + 0 }' "$dir/typescript.tap" 2>/dev/null || echo 0)
        if [ "$status" -ne 0 ] && [ "$ts_fail" -eq 0 ]; then
            PROBLEMS+=("$adapter: node --test exit $status with no failed test (timeout?)")
        fi
    fi

    say "$adapter: Python requests"
    status=0
    PYTHONDONTWRITEBYTECODE=1 timeout 60 "$VENV/bin/python" "$HERE/requests_check.py" "$BASE" 2>&1 | tee "$dir/python.log" || status=$?
    py_line=$(grep -E '^python requests: [0-9]+ passed, [0-9]+ failed$' "$dir/python.log" | tail -1 || true)
    py_pass=$(echo "$py_line" | awk '{ print $3 + 0 }')
    py_fail=$(echo "$py_line" | awk '{ print $5 + 0 }')
    if [ "$status" -ne 0 ] && [ "$py_fail" -eq 0 ]; then
        PROBLEMS+=("$adapter: requests_check.py exit $status with no failed check")
    fi

    # The document's tools (openapi-core, prism), after the clients on the same server.
    doc_pass_before=$DOC_PASS doc_fail_before=$DOC_FAIL
    document_tools "$adapter" "$dir"
    SUMMARY+=("$adapter: openapi-core and prism $((DOC_PASS - doc_pass_before)) passed, $((DOC_FAIL - doc_fail_before)) failed")
    # --- resumable event streams: npm eventsource, Python httpx-sse (tests/clients/sse/) ------
    # eventsource resolves from the installed node_modules: the check runs from beside them.
    say "$adapter: event streams resumed with Last-Event-ID (npm eventsource, Python httpx-sse)"
    cp "$HERE/sse/eventsource_check.mjs" "$build/"
    run_check "node eventsource" "$dir/eventsource.log" env -C "$build" node eventsource_check.mjs "$BASE"
    es_pass=$CHECK_PASS es_fail=$CHECK_FAIL
    run_check "python httpx-sse" "$dir/httpx-sse.log" "$VENV/bin/python" "$HERE/sse/httpx_sse_check.py" "$BASE"
    hs_pass=$CHECK_PASS hs_fail=$CHECK_FAIL
    PASSED=$((PASSED + es_pass + hs_pass))
    FAILED=$((FAILED + es_fail + hs_fail))
    SUMMARY+=("$adapter: event streams: npm eventsource $es_pass passed, $es_fail failed; httpx-sse $hs_pass passed, $hs_fail failed")
    # --- end of resumable event streams --------------------------------------------------------

    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        PROBLEMS+=("$adapter: the fixture died (target/clients/$adapter/server.log)")
    fi
    stop_server

    PASSED=$((PASSED + ts_pass + py_pass))
    FAILED=$((FAILED + ts_fail + py_fail))
    SUMMARY+=("$adapter: TypeScript (openapi-fetch) $ts_pass passed, $ts_fail failed; Python (requests) $py_pass passed, $py_fail failed")
done

# --- redocly lint on the three documents (the same for both adapters) ---------------------
say "redocly lint (recommended rules) on the 3.0.3, 3.1.0 and 3.2.0 documents"
mkdir -p "$OUT/documents"
for version in 3.0.3 3.1.0 3.2.0; do
    "$FIXTURE" --print-openapi "$version" >"$OUT/documents/openapi-$version.json"
    if (cd "$OUT/documents" && "$BIN/redocly" lint --format=stylish "openapi-$version.json") >"$OUT/documents/redocly-$version.log" 2>&1; then
        DOC_PASS=$((DOC_PASS + 1))
        echo "ok   $version: $(grep -cE '^ +[0-9]+:[0-9]+ +warning' "$OUT/documents/redocly-$version.log" || true) warnings, no error"
    else
        DOC_FAIL=$((DOC_FAIL + 1))
        grep -E 'error|warning' "$OUT/documents/redocly-$version.log" >&2 || cat "$OUT/documents/redocly-$version.log" >&2
        echo "FAIL $version: redocly lint (target/clients/documents/redocly-$version.log)"
    fi
done
SUMMARY+=("redocly lint: the 3.0.3, 3.1.0 and 3.2.0 documents (target/clients/documents/)")
PASSED=$((PASSED + DOC_PASS))
FAILED=$((FAILED + DOC_FAIL))
# --- end of redocly lint ------------------------------------------------------------------

echo
printf '%s\n' "${SUMMARY[@]}"
if [ ${#PROBLEMS[@]} -gt 0 ]; then
    # Each counts as one failure: it is not a test of either suite.
    printf 'FAILED: %s\n' "${PROBLEMS[@]}"
    FAILED=$((FAILED + ${#PROBLEMS[@]}))
fi
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
