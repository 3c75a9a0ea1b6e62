#!/usr/bin/env bash
# Instructions per h2c request of pactum's native server, under callgrind: the marginal count
# between N1 and N2 requests (after 50 warm-up ones) on one HTTP/2 prior-knowledge connection
# with one stream at a time (h2load -c 1 -m 1), the method of benches/peer-load.sh.
# Usage: callgrind-h2c.sh PATH/TO/peer_load [N1 N2]
set -euo pipefail

exe=${1:?usage: callgrind-h2c.sh PATH/TO/peer_load [N1 N2]}
n1=${2:-200}
n2=${3:-1200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s' '{"name":"Ada Lovelace","email":"ada@example.com","age":36}' >"$work/user.json"

# Ir of one server run that answers 50 + N requests of one endpoint.
# run ENDPOINT N [h2load options...]
run() {
    local path=$1 n=$2
    shift 2
    local out="$work/callgrind.out"
    rm -f "$work/in" && mkfifo "$work/in"
    taskset -c 0 valgrind --tool=callgrind -q --callgrind-out-file="$out" \
        "$exe" serve pactum-native <"$work/in" >"$work/stdout" 2>"$work/stderr" &
    local pid=$!
    exec 3>"$work/in"   # the server exits when its stdin reaches EOF
    local port=""
    for _ in $(seq 300); do
        port=$(sed -n 's/^listening //p' "$work/stdout")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "server did not start" >&2; cat "$work/stderr" >&2; exit 1; }
    taskset -c 1 h2load -n $((50 + n)) -c 1 -m 1 "$@" "http://127.0.0.1:$port$path" \
        >"$work/h2load" 2>&1
    grep -q " 0 failed, 0 errored" "$work/h2load" && grep -q "0 4xx, 0 5xx" "$work/h2load" ||
        { cat "$work/h2load" >&2; exit 1; }
    exec 3>&-
    wait "$pid"
    sed -n 's/^\(totals\|summary\): *\([0-9]*\).*/\2/p' "$out" | head -1
}

# measure NAME PATH [h2load options...]
measure() {
    local name=$1 path=$2
    shift 2
    local a b
    a=$(run "$path" "$n1" "$@")
    b=$(run "$path" "$n2" "$@")
    printf '%-40s %8d Ir/request\n' "$name" $(((b - a) / (n2 - n1)))
}

measure "GET /hello" /hello
measure "POST /users" /users -d "$work/user.json" -H 'content-type: application/json'
measure "POST /users, expect: 100-continue" /users -d "$work/user.json" \
    -H 'content-type: application/json' -H 'expect: 100-continue'
