#!/usr/bin/env bash
# The docs page (GET /docs, feature `docs-page`) in a real browser, offline, on both adapters:
#
#   tests/browser/run.sh              # both adapters
#   tests/browser/run.sh native       # one adapter
#
# For each adapter: starts the conformance fixture on a free port of 127.0.0.1, opens /docs in
# headless Chromium with every request to another host aborted (docs.mjs; any such request
# fails the run), and checks that every operation of /openapi.json is on the page, that the
# page's title is the API's, that GET /events and POST /uploads show their media types, that
# "Try it out" then "Execute" on GET /health shows the server's live answer (200,
# {"status":"ok"}), and that the page breaks no `script-src 'self'` policy. Screenshots:
# target/browser/docs.png (native, the whole page; docs-top.png and docs-health.png, two
# readable parts), and the same under target/browser/ADAPTER/. The fixture is always
# stopped; the exit status is non-zero when anything failed.
#
# It installs what it needs: Debian's chromium (apt-get, only when /usr/bin/chromium is
# missing; no browser is downloaded by npm or playwright) and the npm package pinned by
# package.json and package-lock.json (playwright-core) into target/browser/node (`npm ci`,
# redone only when those files change). CHROMIUM=/path/to/chromium uses another browser.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
HERE=$ROOT/tests/browser
OUT=$ROOT/target/browser
NODE_DIR=$OUT/node
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
# shellcheck source=../support/adapters.sh
. "$ROOT/tests/support/adapters.sh"
adapters_from_args "$@"

say() { printf '\n--> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------
node_version=$(node --version 2>/dev/null || true)
if ! [[ $node_version =~ ^v([0-9]+)\. ]] || [ "${BASH_REMATCH[1]}" -lt 20 ]; then
    echo "node 20 or newer is needed (found '${node_version:-none}')" >&2
    exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
    if [ "$CHROMIUM" != /usr/bin/chromium ]; then
        echo "CHROMIUM=$CHROMIUM is not an executable" >&2
        exit 1
    fi
    say "installing Debian's chromium (apt-get)"
    SUDO=
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

mkdir -p "$NODE_DIR"
NODE_STAMP=$NODE_DIR/.pactum-lock
node_want=$(cat "$HERE/package.json" "$HERE/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ ! -d "$NODE_DIR/node_modules" ] || [ "$(cat "$NODE_STAMP" 2>/dev/null)" != "$node_want" ]; then
    say "installing the npm packages of tests/browser/package-lock.json into $NODE_DIR"
    cp "$HERE/package.json" "$HERE/package-lock.json" "$NODE_DIR/"
    # playwright-core downloads no browser (and --ignore-scripts runs no install script).
    (cd "$NODE_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$node_want" >"$NODE_STAMP"
fi
echo "node $node_version, playwright-core $(node -p 'require(process.argv[1]).version' "$NODE_DIR/node_modules/playwright-core/package.json"), $("$CHROMIUM" --version 2>/dev/null | grep -m1 -i chrom)"

say "building the conformance fixture"
cargo build --quiet --example conformance
FIXTURE=$ROOT/target/debug/examples/conformance

# --- the server ----------------------------------------------------------------------------
# start_server / stop_server; an EXIT trap stops the fixture whatever happens.
# shellcheck source=../support/fixture.sh
. "$ROOT/tests/support/fixture.sh"

FAILED=()
for adapter in "${ADAPTERS[@]}"; do
    dir=$OUT/$adapter
    rm -rf "$dir"
    mkdir -p "$dir"
    say "$adapter: starting the fixture"
    start_server "$adapter" "$dir"
    echo "$BASE"

    say "$adapter: $BASE/docs in headless Chromium, offline"
    status=0
    PACTUM_NODE_DIR=$NODE_DIR CHROMIUM=$CHROMIUM \
        timeout --kill-after=10 180 node "$HERE/docs.mjs" "$BASE" "$dir/docs.png" 2>&1 |
        tee "$dir/browser.log" || status=$?
    stop_server
    if [ "$status" -ne 0 ]; then
        FAILED+=("$adapter (exit $status; target/browser/$adapter/browser.log, server log $dir/server.log)")
    fi
done
for shot in docs docs-top docs-health; do
    [ ! -f "$OUT/native/$shot.png" ] || cp "$OUT/native/$shot.png" "$OUT/$shot.png"
done

echo
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "docs page in the browser FAILED on: ${FAILED[*]}"
    exit 1
fi
echo "docs page in the browser: every check passed on ${ADAPTERS[*]}"
