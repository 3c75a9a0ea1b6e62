#!/usr/bin/env bash
# schemathesis against the conformance fixture, on both adapters, from the fixture's own
# OpenAPI document (GET /openapi.json).
#
#   tests/schemathesis/run.sh                  # both adapters
#   tests/schemathesis/run.sh native           # one adapter
#
# What it does, for each adapter (schemathesis reads the fixture's 3.2 document, see below):
#   1. builds and starts `conformance --adapter A --port 0`, reads `listening on http://HOST:PORT`;
#   2. fetches /openapi.json, validates it as OpenAPI 3.1 (openapi-spec-validator), and checks
#      that both adapters serve the same document;
#   3. runs `schemathesis run` with every check (`[checks] enabled = true` in schemathesis.toml,
#      not `--checks all`, which would override the per-operation settings there; plus the JSON
#      error body check of hooks.py), positive and negative data (`--mode all`), every phase (examples, coverage,
#      fuzzing, stateful), a fixed seed and a bounded number of examples per operation.
#      Excluded: `/errors/*` (they answer 5xx on purpose), `/slow` (it sleeps up to 10 s per
#      request by design) and `/download` (up to 100 MiB per request by design; its sizes, its
#      400s and its bytes are tested in tests/integration/download.rs). Requests carry the fixture's bearer token; schemathesis also sends
#      requests without it (the `ignored_auth` check).
#
# It installs what it needs: a virtual environment with pinned schemathesis and
# openapi-spec-validator from PyPI (in target/, reused when the versions match). Python 3.10+.
#
# Settings (environment): SCHEMATHESIS_SEED (default 20261122), SCHEMATHESIS_MAX_EXAMPLES (per
# operation and phase, default 200), SCHEMATHESIS_VENV. Reports (JUnit, NDJSON) go to
# target/schemathesis/ADAPTER/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

SCHEMATHESIS_VERSION=4.32.5
VALIDATOR_VERSION=0.9.0
SEED=${SCHEMATHESIS_SEED:-20261122}
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-200}
VENV=${SCHEMATHESIS_VENV:-$ROOT/target/schemathesis-venv}
OUT=$ROOT/target/schemathesis
# shellcheck source=../support/adapters.sh
. "$ROOT/tests/support/adapters.sh"
adapters_from_args "$@"

say() { printf '\n--> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------
STAMP="$VENV/.pactum-versions"
WANT="schemathesis==$SCHEMATHESIS_VERSION openapi-spec-validator==$VALIDATOR_VERSION"
if [ ! -x "$VENV/bin/schemathesis" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
    say "installing $WANT into $VENV"
    python3 -m venv "$VENV" || {
        echo "python3 -m venv failed: install Python 3.10+ with venv (Debian: apt-get install python3-venv)" >&2
        exit 1
    }
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $WANT
    echo "$WANT" >"$STAMP"
fi
PY="$VENV/bin/python"

say "building the conformance fixture"
cargo build --quiet --example conformance
FIXTURE="$ROOT/target/debug/examples/conformance"

# --- one adapter -------------------------------------------------------------------------
# shellcheck source=../support/fixture.sh
. "$ROOT/tests/support/fixture.sh"

FAILED=()
FIRST_DOC=
for adapter in "${ADAPTERS[@]}"; do
    dir="$OUT/$adapter"
    rm -rf "$dir"
    mkdir -p "$dir"
    say "$adapter: starting the fixture"
    start_server "$adapter" "$dir"
    echo "$BASE"

    say "$adapter: validating $BASE/openapi.json as OpenAPI 3.1"
    "$PY" - "$BASE/openapi.json" "$dir/openapi.json" <<'PYTHON'
import json, sys, urllib.request
from openapi_spec_validator import validate
with urllib.request.urlopen(sys.argv[1], timeout=10) as response:
    assert response.status == 200, response.status
    assert response.headers["content-type"] == "application/json", response.headers["content-type"]
    raw = response.read()
doc = json.loads(raw)
assert doc["openapi"] == "3.1.0", doc["openapi"]
validate(doc)  # picks the 3.1 validator from `openapi`, raises on any error
open(sys.argv[2], "wb").write(raw)
print(f"valid OpenAPI {doc['openapi']}: {len(doc['paths'])} paths, "
      f"{sum(len(item) for item in doc['paths'].values())} operations, "
      f"{len(doc['components']['schemas'])} schemas")
PYTHON
    if [ -z "$FIRST_DOC" ]; then
        FIRST_DOC="$dir/openapi.json"
    elif ! cmp -s "$FIRST_DOC" "$dir/openapi.json"; then
        echo "$adapter serves another document than ${ADAPTERS[0]}" >&2
        FAILED+=("$adapter: document differs")
    fi

    # schemathesis tests the 3.2 document (`--print-openapi 3.2.0`, the same operations as the
    # served 3.1 one, tests/openapi.rs pins it): only 3.2 says which schema covers an event
    # stream (`itemSchema`, each event, checked by schemathesis event by event). In 3.1,
    # schemathesis reads the stream's `schema` as one event, where openapi-core and prism read
    # it as the whole body (tests/clients/ checks those on the 3.1 document).
    "$FIXTURE" --print-openapi 3.2.0 >"$dir/openapi-3.2.json"
    "$PY" - "$dir/openapi-3.2.json" <<'PYTHON'
import json, sys
from openapi_spec_validator import validate
doc = json.load(open(sys.argv[1]))
assert doc["openapi"] == "3.2.0", doc["openapi"]
validate(doc)  # the 3.2 validator, from `openapi`
print(f"valid OpenAPI {doc['openapi']}: {len(doc['paths'])} paths")
PYTHON

    say "$adapter: schemathesis (seed $SEED, at most $MAX_EXAMPLES examples per operation)"
    status=0
    # From the report folder, so that nothing lands in the work tree.
    (cd "$dir" && PYTHONPATH="$ROOT/tests/schemathesis${PYTHONPATH:+:$PYTHONPATH}" \
    SCHEMATHESIS_HOOKS=hooks \
        "$VENV/bin/schemathesis" --config-file "$ROOT/tests/schemathesis/schemathesis.toml" \
        run "$dir/openapi-3.2.json" \
        --url "$BASE" \
        --mode all \
        --seed "$SEED" \
        --max-examples "$MAX_EXAMPLES" \
        --workers 1 \
        --exclude-path-regex '^/(errors/|slow$|download$)' \
        --header "Authorization: Bearer secret-token" \
        --request-timeout 10 \
        --generation-database none \
        --report junit,ndjson --report-dir "$dir" \
        --no-color) 2>&1 | tee "$dir/schemathesis.log" || status=$?
    if [ "$status" -ne 0 ]; then
        FAILED+=("$adapter: schemathesis exit $status")
    fi
    "$PY" - "$dir" <<'PYTHON' | tee "$dir/checks.txt" || true
# Which checks ran, on how many responses, from the NDJSON event stream.
import collections, glob, json, sys
counts = collections.Counter()
failed = collections.Counter()
def walk(node):
    if isinstance(node, dict):
        if isinstance(node.get("name"), str) and node.get("status") in ("success", "failure", "skip"):
            counts[node["name"]] += 1
            if node["status"] == "failure":
                failed[node["name"]] += 1
        for value in node.values():
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)
for path in glob.glob(sys.argv[1] + "/ndjson-*.ndjson"):
    for line in open(path, encoding="utf-8"):
        walk(json.loads(line))
print(f"{max(counts.values(), default=0)} responses checked by {len(counts)} checks:")
for name, n in sorted(counts.items()):
    print(f"  {name}: {n}" + (f" ({failed[name]} failed)" if failed[name] else ""))
PYTHON
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        FAILED+=("$adapter: the fixture died")
    fi
    stop_server
done

echo
for adapter in "${ADAPTERS[@]}"; do
    summary=$(grep -E '^  [0-9]+ generated' "$OUT/$adapter/schemathesis.log" | head -1 || true)
    filtered=$(grep -E '^Filtered: ' "$OUT/$adapter/schemathesis.log" | head -1 || true)
    checked=$(head -1 "$OUT/$adapter/checks.txt" 2>/dev/null || true)
    echo "schemathesis $adapter: test cases${summary:- no summary}; ${checked%:}${filtered:+; $filtered}"
done
if [ ${#FAILED[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${FAILED[@]}" >&2
    exit 1
fi
echo "schemathesis passed on: ${ADAPTERS[*]}"
