#!/usr/bin/env bash
# The fixture's OpenAPI 3.0.3 document, read by 3.0-only tools:
#   1. writes it (`conformance --print-openapi 3.0.3`) to target/progenitor/openapi-3.0.json;
#   2. validates it with openapi-spec-validator in 3.0 mode (the schemathesis venv, made by
#      tests/schemathesis/run.sh; skipped with a note when that venv is missing);
#   3. generates a Rust client from it with progenitor (build.rs here) and compiles it, in this
#      crate's own workspace and target dir (target/progenitor);
#   4. runs that client's test against a running fixture, each adapter.
# The operations progenitor 0.15 cannot generate are listed, and asserted, in build.rs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
say() { printf '[progenitor] %s\n' "$*"; }

OUT=$ROOT/target/progenitor
mkdir -p "$OUT"
DOC=$OUT/openapi-3.0.json

say "building the conformance fixture"
cargo build --quiet --example conformance
FIXTURE=$ROOT/target/debug/examples/conformance
"$FIXTURE" --print-openapi 3.0.3 >"$DOC"

VENV=${SCHEMATHESIS_VENV:-$ROOT/target/schemathesis-venv}
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import openapi_spec_validator' 2>/dev/null; then
    say "validating $DOC as OpenAPI 3.0 (openapi-spec-validator)"
    "$VENV/bin/python" - "$DOC" <<'PYTHON'
import json, sys
from openapi_spec_validator import validate, OpenAPIV30SpecValidator
doc = json.load(open(sys.argv[1]))
assert doc["openapi"] == "3.0.3", doc["openapi"]
validate(doc, cls=OpenAPIV30SpecValidator)
print("valid OpenAPI 3.0.3")
PYTHON
else
    say "no openapi-spec-validator in $VENV (tests/schemathesis/run.sh makes it): not validated here"
fi

say "generating and compiling the progenitor client"
export CARGO_TARGET_DIR=$OUT
export PACTUM_OPENAPI_3_0=$DOC
(cd "$HERE" && cargo build --locked --tests --quiet)

# shellcheck source=../support/fixture.sh
. "$ROOT/tests/support/fixture.sh"
for adapter in native warp; do
    dir=$OUT/$adapter
    mkdir -p "$dir"
    start_server "$adapter" "$dir"
    say "$adapter: the generated client against $BASE"
    (cd "$HERE" && PACTUM_BASE_URL=$BASE cargo test --locked --quiet)
    stop_server
done
say "passed"
