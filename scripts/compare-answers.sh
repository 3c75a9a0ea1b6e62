#!/usr/bin/env bash
# compare-answers.sh — show that the conformance fixture (examples/conformance.rs) answers byte
# for byte the same at two revisions, on both adapters.
#
# Usage (from anywhere inside the repository):
#
#   scripts/compare-answers.sh OLD_REV [NEW_REV]
#
#   OLD_REV  any git revision (commit, tag, branch)
#   NEW_REV  another revision; default: the working tree as it is now (uncommitted edits included)
#
# What it does:
#   1. Builds `cargo build --release --example conformance` for each side, with one shared
#      CARGO_TARGET_DIR (target/compare-answers/target) so the dependencies compile once (the
#      workspace's own packages are `cargo clean -p`-ed before each build: cargo would otherwise
#      take one side's artifacts for the other's, their fingerprints being path-relative). A
#      revision is checked out with `git worktree add --detach` under
#      target/compare-answers/{old,new}-src (removed afterwards); the working tree is built in
#      place. Each binary is copied out to target/compare-answers/bin-old / bin-new.
#   2. For each adapter (`--adapter native`, `--adapter warp`) it starts both binaries on
#      127.0.0.1 with `--port 0` (the port read from the first stdout line,
#      `listening on http://HOST:PORT`), and sends each the same fixed, ordered list of HTTP/1.1
#      requests (curl --http1.1 -s -i --max-time 5, or a raw socket through python3 where curl
#      cannot express the request) covering every row of the fixture table plus the library's
#      own answers (400/404/405/413/415/431, OPTIONS, HEAD, malformed JSON and request heads).
#      Each server starts with an empty store, so the ids it assigns are the same on both sides.
#   3. Writes each answer (status line, headers, body) to
#      target/compare-answers/answers/<adapter>/<old|new>/NN-name.txt, normalising only the
#      `date:` header (removed), the one thing that legitimately differs between runs. The
#      fixture does not echo request ids, so nothing else is touched.
#   4. `diff -r` old against new per adapter.
#
# Exit status: 0 when every answer is identical, 1 (with the diffs on stdout) otherwise,
# 2 on a usage or build error. Servers are killed on exit (trap), the worktrees removed.
#
# Needs: git, cargo, curl, python3. Env: COMPARE_SKIP_BUILD=1 reuses bin-old / bin-new as they are.
set -euo pipefail

usage() {
    echo "usage: $0 OLD_REV [NEW_REV]   (NEW_REV default: the working tree)" >&2
    exit 2
}
[[ $# -ge 1 && $# -le 2 ]] || usage
OLD_REV=$1
NEW_REV=${2:-}

ROOT=$(git rev-parse --show-toplevel)
cd "$ROOT"
git rev-parse --verify --quiet "$OLD_REV^{commit}" >/dev/null || { echo "unknown revision: $OLD_REV" >&2; exit 2; }
if [[ -n $NEW_REV ]]; then
    git rev-parse --verify --quiet "$NEW_REV^{commit}" >/dev/null || { echo "unknown revision: $NEW_REV" >&2; exit 2; }
fi

WORK=$ROOT/target/compare-answers
export CARGO_TARGET_DIR=$WORK/target
ANSWERS=$WORK/answers
DATA=$WORK/data
mkdir -p "$WORK"

PIDS=()
WORKTREES=()
cleanup() {
    local pid wt
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    for wt in "${WORKTREES[@]}"; do
        git -C "$ROOT" worktree remove --force "$wt" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build SIDE REV: the conformance example at REV (the working tree when REV is empty) into bin-SIDE.
build() {
    local side=$1 rev=$2 src
    if [[ -z $rev ]]; then
        src=$ROOT
    else
        src=$WORK/$side-src
        if [[ -e $src ]]; then
            git -C "$ROOT" worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
            git -C "$ROOT" worktree prune
        fi
        git -C "$ROOT" worktree add --quiet --detach "$src" "$rev"
        WORKTREES+=("$src")
    fi
    echo "== building $side: ${rev:-working tree} ($src)" >&2
    # Cargo names a workspace's own packages by their path relative to the workspace root, so
    # the worktree and the working tree share fingerprints in the shared target dir: the second
    # build would find the first one's artifacts "fresh" (source mtimes older than them) and
    # reuse them. Clean the workspace's own packages first (the dependencies stay built).
    local members
    members=$(cd "$src" && cargo metadata --no-deps --format-version 1 |
        python3 -c 'import json, sys; print(" ".join("-p " + p["name"] for p in json.load(sys.stdin)["packages"]))')
    # shellcheck disable=SC2086 # one word per flag and name
    (cd "$src" && cargo clean --release --quiet $members) || { echo "cargo clean of $side failed" >&2; exit 2; }
    (cd "$src" && cargo build --release --example conformance) || { echo "build of $side failed" >&2; exit 2; }
    cp "$CARGO_TARGET_DIR/release/examples/conformance" "$WORK/bin-$side"
    if [[ -n $rev ]]; then
        git -C "$ROOT" worktree remove --force "$src"
    fi
}

if [[ ${COMPARE_SKIP_BUILD:-0} != 1 ]]; then
    build old "$OLD_REV"
    build new "$NEW_REV"
fi
if cmp -s "$WORK/bin-old" "$WORK/bin-new"; then
    echo "== note: bin-old and bin-new are the same bytes (sources equal as far as the build sees)" >&2
else
    echo "== bin-old and bin-new differ as files; comparing their answers" >&2
fi

# ---------------------------------------------------------------------------------------------
# Request bodies and helpers.

mkdir -p "$DATA"
# 1 MiB + 1 byte of JSON: over the default body limit (1 MiB).
python3 - "$DATA" <<'EOF'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
limit = 1 << 20
big = b'{"items":[{"sku":"' + b"x" * (limit + 1 - len(b'{"items":[{"sku":""}]}')) + b'"}]}'
assert len(big) == limit + 1
(d / "big.json").write_bytes(big)
(d / "small.txt").write_bytes(b"hello, upload\n")
(d / "exact-1mib.bin").write_bytes(bytes(i % 251 for i in range(limit)))
(d / "over-1mib.bin").write_bytes(bytes(i % 251 for i in range(limit + 1)))
EOF

WEBHOOK_BODY='{"event":"push"}'
WEBHOOK_EMPTY='{"event":""}'
sign() { python3 -c 'import hmac,hashlib,sys; print("sha256="+hmac.new(b"whsec", sys.argv[1].encode(), hashlib.sha256).hexdigest())' "$1"; }
SIG_OK=$(sign "$WEBHOOK_BODY")
SIG_EMPTY=$(sign "$WEBHOOK_EMPTY")

BASE= HOSTPORT= OUT= N=0
JSON=(-H 'content-type: application/json')
AUTH=(-H 'authorization: Bearer secret-token')

# req NAME METHOD PATH [curl args…]: one request with curl, its answer to $OUT/NN-NAME.txt.
req() {
    local name=$1 method=$2 path=$3 file
    shift 3
    N=$((N + 1))
    file=$(printf '%s/%03d-%s.txt' "$OUT" "$N" "$name")
    local m=()
    case $method in
        GET) ;;
        HEAD) m=(-I) ;;
        *) m=(-X "$method") ;;
    esac
    # -g: brackets literal; --path-as-is: dot segments sent as written; `Expect:` off so a
    # large body is sent at once, as any client without 100-continue does.
    curl --http1.1 -s -i --max-time 5 -g --path-as-is -H 'Expect:' "${m[@]}" "$@" \
        "$BASE$path" >"$file.raw" 2>&1 || echo "[curl exit status $?]" >>"$file.raw"
    normalise <"$file.raw" >"$file"
    rm -f "$file.raw"
}

# raw NAME PYTHON_BYTES_EXPR [shut]: send exactly these bytes on a fresh connection (then, with
# `shut`, close our writing half) and record every byte read back until the server closes the
# connection (or 5 s pass).
raw() {
    local name=$1 expr=$2 shut=${3:-} file
    N=$((N + 1))
    file=$(printf '%s/%03d-%s.txt' "$OUT" "$N" "$name")
    python3 - "$HOSTPORT" "$expr" "$shut" >"$file.raw" 2>&1 <<'EOF' || echo "[raw exit status $?]" >>"$file.raw"
import socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
data = eval(sys.argv[2], {"__builtins__": {}}, {})
s = socket.create_connection((host, int(port)), timeout=5)
deadline = time.monotonic() + 5
try:
    s.sendall(data)
except OSError as e:
    print(f"[send: {type(e).__name__}]")
if sys.argv[3] == "shut":
    s.shutdown(socket.SHUT_WR)
out = b""
while time.monotonic() < deadline:
    try:
        chunk = s.recv(65536)
    except socket.timeout:
        out += b"[timed out]"
        break
    except OSError as e:
        out += f"[recv: {type(e).__name__}]".encode()
        break
    if not chunk:
        break
    out += chunk
sys.stdout.buffer.write(out)
EOF
    normalise <"$file.raw" >"$file"
    rm -f "$file.raw"
}

# The only normalisation: drop the `date:` header, which changes every second.
normalise() { grep -a -v -i '^date:' || true; }

# The fixed list, in order (the store is stateful: users get ids 1, 2, 3 … in creation order).
requests() {
    # 1 GET /health
    req health GET /health
    req health-head HEAD /health
    req health-trailing-slash GET /health/
    req health-wrong-case GET /Health
    req health-delete-405 DELETE /health
    req health-options OPTIONS /health
    req not-found GET /no/such/route
    # 2, 3 GET/POST /users
    req users-empty GET /users
    req users-create-ada POST /users "${JSON[@]}" --data-binary '{"name":"Ada","email":"ada@example.com","age":36,"tags":["math","eng"]}'
    req users-create-bob POST /users "${JSON[@]}" --data-binary '{"name":"Bob","email":"bob@example.com","active":false,"tags":["eng"]}'
    req users-create-plus-json POST /users -H 'content-type: application/vnd.api+json; charset=utf-8' --data-binary '{"name":"Cy","email":"cy@example.com"}'
    req users-create-charset POST /users -H 'content-type: application/json; charset=utf-8' --data-binary '{"name":"Di","email":"di@example.com","tags":["eng","ops"]}'
    req users-create-409 POST /users "${JSON[@]}" --data-binary '{"name":"Ada2","email":"ADA@Example.com"}'
    req users-create-rules-400 POST /users "${JSON[@]}" --data-binary '{"name":"","email":"not-an-email","age":151,"tags":["","a","b","c","d","e"]}'
    req users-create-missing-400 POST /users "${JSON[@]}" --data-binary '{}'
    req users-create-types-400 POST /users "${JSON[@]}" --data-binary '{"name":5,"email":"x@example.com","age":-1,"tags":"eng","active":"yes"}'
    req users-create-u16-overflow POST /users "${JSON[@]}" --data-binary '{"name":"Ed","email":"ed@example.com","age":70000}'
    req users-create-malformed-json POST /users "${JSON[@]}" --data-binary '{"name":'
    req users-create-empty-body POST /users "${JSON[@]}"
    req users-create-not-object POST /users "${JSON[@]}" --data-binary '[1,2]'
    req users-create-415-text POST /users -H 'content-type: text/plain' --data-binary '{"name":"Fay","email":"fay@example.com"}'
    req users-create-415-none POST /users -H 'content-type:' --data-binary '{"name":"Fay","email":"fay@example.com"}'
    req users-create-413-big POST /users "${JSON[@]}" --data-binary @"$DATA/big.json"
    req users-list GET /users
    req users-list-page GET '/users?limit=2&offset=1'
    req users-list-active GET '/users?active=true'
    req users-list-inactive GET '/users?active=false'
    req users-list-tags-repeat GET '/users?tag=eng&tag=math'
    req users-list-tags-brackets GET '/users?tag[]=eng&tag[]=ops'
    req users-list-tags-indexed-enc GET '/users?tag%5B0%5D=eng&tag%5b1%5d=math'
    req users-list-flag-empty GET '/users?active='
    req users-list-limit-0 GET '/users?limit=0'
    req users-list-limit-abc GET '/users?limit=abc&offset=-1'
    req users-list-limit-twice GET '/users?limit=5&limit=6'
    req users-list-active-bad GET '/users?active=maybe'
    req users-head HEAD /users
    req users-options OPTIONS /users
    req users-put-405 PUT /users "${JSON[@]}" --data-binary '{}'
    # 4-7 /users/:id
    req user-get GET /users/1
    req user-head HEAD /users/1
    req user-options OPTIONS /users/1
    req user-get-404 GET /users/999
    req user-get-nonnumeric GET /users/abc
    req user-get-negative GET /users/-1
    req user-post-405 POST /users/1 "${JSON[@]}" --data-binary '{}'
    req user-put PUT /users/1 "${JSON[@]}" --data-binary '{"name":"Ada L.","email":"ada@example.org","age":37}'
    req user-put-404 PUT /users/999 "${JSON[@]}" --data-binary '{"name":"Nobody","email":"nobody@example.com"}'
    req user-put-409 PUT /users/1 "${JSON[@]}" --data-binary '{"name":"Ada","email":"Bob@example.com"}'
    req user-put-400 PUT /users/1 "${JSON[@]}" --data-binary '{"name":"Ada"}'
    req user-patch PATCH /users/2 "${JSON[@]}" --data-binary '{"age":40,"active":true}'
    req user-patch-400 PATCH /users/2 "${JSON[@]}" --data-binary '{"age":151,"email":"nope","tags":["x","y","z","u","v","w"]}'
    req user-patch-404 PATCH /users/999 "${JSON[@]}" --data-binary '{"age":1}'
    req user-patch-415 PATCH /users/2 -H 'content-type: application/xml' --data-binary '<age>1</age>'
    req user-delete DELETE /users/2
    req user-delete-404 DELETE /users/2
    req users-list-after GET /users
    # 8 GET /orgs/:org/repos/:repo
    req repo GET /orgs/rust-lang/repos/cargo
    req repo-encoded GET '/orgs/my%20org/repos/caf%C3%A9'
    req repo-bad-utf8 GET '/orgs/%FF/repos/x'
    req repo-missing-segment GET /orgs/rust-lang/repos/
    # 9 GET /files/*path
    req file GET /files/a/b/c.txt
    req file-encoded GET '/files/dir%20one/r%C3%A9sum%C3%A9.pdf'
    req file-dotdot GET /files/a/../b
    req file-dotdot-encoded GET '/files/a/%2e%2e/b'
    req file-slash-encoded GET '/files/a%2F..%2Fb'
    req file-empty-segment GET '/files/a//b'
    req file-trailing-slash GET /files/a/
    req file-bad-utf8 GET '/files/a/%C3%28'
    # 10, 11 /me, /me/notes
    req me-no-auth GET /me
    req me-auth GET /me "${AUTH[@]}"
    req me-wrong-token GET /me -H 'authorization: Bearer nope'
    req me-basic GET /me -H 'authorization: Basic YWxpY2U6c2VjcmV0'
    req notes-no-auth POST /me/notes "${JSON[@]}" --data-binary '{"not json'
    req notes-wrong-token POST /me/notes -H 'authorization: Bearer nope' "${JSON[@]}" --data-binary '{"text":"hi"}'
    req notes-auth POST /me/notes "${AUTH[@]}" "${JSON[@]}" --data-binary '{"text":"remember the milk"}'
    req notes-auth-400 POST /me/notes "${AUTH[@]}" "${JSON[@]}" --data-binary '{"text":""}'
    req notes-auth-malformed POST /me/notes "${AUTH[@]}" "${JSON[@]}" --data-binary '{"text":'
    req notes-auth-415 POST /me/notes "${AUTH[@]}" -H 'content-type: text/plain' --data-binary 'hi'
    req notes-get-405 GET /me/notes "${AUTH[@]}"
    # 12 GET /trace
    req trace GET /trace
    # 13-16 errors
    req error-plain GET /errors/plain
    req error-status-418 GET /errors/status/418
    req error-status-503 GET /errors/status/503
    req error-status-out-of-range GET /errors/status/200
    req error-status-not-u16 GET /errors/status/70000
    req error-panic GET /errors/panic
    req health-after-panic GET /health
    req error-bad-response GET /errors/bad-response
    # 17 POST /echo
    req echo POST /echo "${JSON[@]}" --data-binary '{"items":[{"sku":"A-1","qty":2},{"sku":"B-2","qty":99}],"note":"gift"}'
    req echo-details-400 POST /echo "${JSON[@]}" --data-binary '{"items":[{"sku":"A-1","qty":2},{"sku":"","qty":0},{"sku":"C","qty":100}]}'
    req echo-shape-400 POST /echo "${JSON[@]}" --data-binary '{"items":[{"sku":1,"qty":"2"},{"qty":-1}],"note":5}'
    req echo-empty-items POST /echo "${JSON[@]}" --data-binary '{"items":[]}'
    req echo-float-int POST /echo "${JSON[@]}" --data-binary '{"items":[{"sku":"F","qty":4.0}]}'
    req echo-trailing-garbage POST /echo "${JSON[@]}" --data-binary '{"items":[{"sku":"F","qty":4}]} x'
    req echo-get-405 GET /echo
    # 18 GET /slow
    req slow GET '/slow?ms=20'
    req slow-over-limit GET '/slow?ms=10001'
    req slow-missing GET /slow
    # 19 GET /events
    req events GET '/events?count=3'
    req events-bad-count GET '/events?count=0'
    # 20 POST /webhooks
    req webhook POST /webhooks "${JSON[@]}" -H "x-signature: $SIG_OK" --data-binary "$WEBHOOK_BODY"
    req webhook-no-signature POST /webhooks "${JSON[@]}" --data-binary "$WEBHOOK_BODY"
    req webhook-bad-signature POST /webhooks "${JSON[@]}" -H "x-signature: sha256=00ff" --data-binary "$WEBHOOK_BODY"
    req webhook-signed-400 POST /webhooks "${JSON[@]}" -H "x-signature: $SIG_EMPTY" --data-binary "$WEBHOOK_EMPTY"
    # 21 GET /whoami (the peer is 127.0.0.1 on both sides; X-Forwarded-For not trusted)
    req whoami GET /whoami -H 'x-forwarded-for: 203.0.113.9'
    # 22 GET /v2/users/:id
    req v2-user GET /v2/users/1
    req v2-user-404 GET /v2/users/2
    req v2-user-nonnumeric GET /v2/users/x
    # 23 GET /hello.txt
    req hello GET /hello.txt
    req hello-name GET '/hello.txt?name=Ada%20L'
    req hello-empty-name GET '/hello.txt?name='
    # 24 POST /uploads
    req upload POST /uploads -F 'title=notes' -F "file=@$DATA/small.txt;filename=small.txt"
    req upload-exact-1mib POST /uploads -F 'title=exact' -F "file=@$DATA/exact-1mib.bin;filename=exact.bin"
    req upload-missing-file POST /uploads -F 'title=no file'
    req upload-empty-title POST /uploads -F 'title=' -F "file=@$DATA/small.txt;filename=small.txt"
    req upload-json-415 POST /uploads "${JSON[@]}" --data-binary '{"title":"x"}'
    req upload-malformed POST /uploads -H 'content-type: multipart/form-data; boundary=XYZ' --data-binary $'--XYZ\r\ncontent-disposition: form-data; name="title"\r\n\r\nunterminated'
    req upload-over-1mib POST /uploads -F 'title=big' -F "file=@$DATA/over-1mib.bin;filename=big.bin"
    # 25 GET /docs, and the OpenAPI document
    req docs GET /docs
    req openapi GET /openapi.json
    req openapi-head HEAD /openapi.json
    # What curl cannot send: raw bytes on their own connection.
    raw raw-413-content-length "b'POST /echo HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\ncontent-type: application/json\\r\\ncontent-length: 2000000\\r\\nconnection: close\\r\\n\\r\\n{\"items\":'"
    raw raw-chunked-json "b'POST /echo HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\ncontent-type: application/json\\r\\ntransfer-encoding: chunked\\r\\nconnection: close\\r\\n\\r\\n10\\r\\n{\"items\":[{\"sku\"\\r\\n10\\r\\n:\"Z\",\"qty\":7}]}\\n\\r\\n0\\r\\n\\r\\n'"
    raw raw-body-cut-short "b'POST /echo HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\ncontent-type: application/json\\r\\ncontent-length: 40\\r\\n\\r\\n{\"items\":[]}'" shut
    raw raw-bad-request-line "b'GET / HTTP/9.9\\r\\nhost: 127.0.0.1\\r\\n\\r\\n'"
    raw raw-header-without-colon "b'GET /health HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\nno-colon-here\\r\\n\\r\\n'"
    raw raw-bad-content-length "b'POST /echo HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\ncontent-length: -5\\r\\n\\r\\n'"
    raw raw-431-big-head "b'GET /health HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\nx-big: ' + b'a' * 70000 + b'\\r\\n\\r\\n'"
    raw raw-http10-health "b'GET /health HTTP/1.0\\r\\n\\r\\n'"
}

# start SIDE ADAPTER: start bin-SIDE on 127.0.0.1, port 0; sets HOSTPORT.
start() {
    local side=$1 adapter=$2 log=$WORK/server-$1-$2 pid i line
    "$WORK/bin-$side" --adapter "$adapter" --host 127.0.0.1 --port 0 >"$log.out" 2>"$log.err" &
    pid=$!
    PIDS+=("$pid")
    for ((i = 0; i < 100; i++)); do
        line=$(head -n 1 "$log.out" 2>/dev/null || true)
        if [[ $line == "listening on http://"* ]]; then
            HOSTPORT=${line#listening on http://}
            LAST_PID=$pid
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "server $side/$adapter did not start; stderr:" >&2
    cat "$log.err" >&2
    exit 2
}

stop() {
    local pid rest=()
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    for pid in "${PIDS[@]}"; do
        [[ $pid == "$1" ]] || rest+=("$pid")
    done
    PIDS=("${rest[@]}")
}

rm -rf "$ANSWERS"
status=0
for adapter in native warp; do
    for side in old new; do
        OUT=$ANSWERS/$adapter/$side
        mkdir -p "$OUT"
        start "$side" "$adapter"
        BASE=http://$HOSTPORT
        N=0
        requests
        stop "$LAST_PID"
    done
    echo "== $adapter: $N requests, old ($OLD_REV) vs new (${NEW_REV:-working tree})" >&2
    if diff -r -u "$ANSWERS/$adapter/old" "$ANSWERS/$adapter/new"; then
        echo "== $adapter: identical" >&2
    else
        echo "== $adapter: DIFFERENT" >&2
        status=1
    fi
done
exit "$status"
