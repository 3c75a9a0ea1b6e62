#!/usr/bin/env bash
# h2c (prior knowledge) requests with `Expect: 100-continue` against pactum's native server
# (examples/conformance.rs) or its warp adapter.
# Usage: check-h2c-expect.sh PATH/TO/conformance [native|warp]
#
# For each case: the statuses received by nghttp (frame by frame) and by curl, and curl's
# total time. curl waits up to one second (its --expect100-timeout) for a 100 before sending
# the body anyway, so without a 100 an upload takes over a second; with it, a millisecond.
# Exits non-zero unless curl's upload gets `100` then `201` at once and the early 413 and
# 401 reach nghttp with no 100 before them.
# Needs curl with HTTP/2 and nghttp (Debian: nghttp2-client).
set -euo pipefail

server=${1:?usage: check-h2c-expect.sh PATH/TO/conformance [native|warp]}
adapter=${2:-native}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$server" --adapter "$adapter" --port 0 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do
    grep -q listening "$work/out" 2>/dev/null && break
    sleep 0.1
done
base=$(sed -n 's/^listening on //p' "$work/out" | head -1)
[ -n "$base" ] || { echo "server did not start" >&2; cat "$work/err" >&2; exit 1; }

n=0
# A new user each time (the fixture refuses an email it already has with a 409).
new_user() {
    n=$((n + 1))
    printf '{"name":"Ada","email":"ada%s.%s@example.com","age":36}' "$$" "$n" >"$work/user.json"
}
new_user
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' 'a' >"$work/big.json"   # over the 1 MiB limit

fail=0
# check NAME PATH FILE WANTED
# curl waits for the 100: WANTED is what it must see, `100 201` within half a second.
# For early answers WANTED is the one final status nghttp must see, with no 100 before it
# (nghttp sends the body at once and shows each frame; curl 7.88 reports an early final
# answer followed by RST_STREAM(NO_ERROR) as "Empty reply from server", so only its time
# is shown for those).
check() {
    local name=$1 path=$2 file=$3 want=$4
    local statuses time curl_rc=0 curl_saw
    new_user
    statuses=$(nghttp -v -H 'expect: 100-continue' -H 'content-type: application/json' \
        -d "$file" "$base$path" 2>&1 | sed -n 's/.*recv (stream_id=[0-9]*) :status: //p' |
        tr '\n' ' ' | sed 's/ $//')
    new_user
    time=$(curl -sS --http2-prior-knowledge -v -o /dev/null \
        -H 'Expect: 100-continue' -H 'Content-Type: application/json' \
        --data-binary "@$file" -w '%{time_total}' "$base$path" 2>"$work/verbose") || curl_rc=$?
    curl_saw=$(sed -n 's/^< HTTP\/2 \([0-9]*\).*/\1/p' "$work/verbose" | tr '\n' ' ' | sed 's/ $//')
    printf '%-38s nghttp: %-8s curl: %-8s (exit %2d) %6.3f s\n' \
        "$name" "$statuses" "${curl_saw:-none}" "$curl_rc" "$time"
    case $want in
    "100 "*)
        [ "$curl_saw" = "$want" ] || fail=1
        awk -v t="$time" 'BEGIN { exit !(t < 0.5) }' || fail=1
        ;;
    *) [ "$statuses" = "$want" ] || fail=1 ;;
    esac
}

check "POST /users (the body is read)" /users "$work/user.json" "100 201"
check "POST /users, 2 MiB (early 413)" /users "$work/big.json" "413"
check "POST /me/notes, no token (early 401)" /me/notes "$work/user.json" "401"

[ "$fail" = 0 ] && echo ok || echo FAILED
exit "$fail"
