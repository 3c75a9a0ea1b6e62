#!/usr/bin/env bash
# A rolling deploy behind a real load balancer: nginx in front of two instances of the
# conformance fixture, steady keep-alive load through nginx, and each instance restarted in turn
# while the load runs. Passes when the client saw 0 non-2xx answers and 0 socket errors.
#
#   tests/deploy/run.sh                 # both adapters
#   tests/deploy/run.sh warp            # one adapter
#
# For each adapter:
#   1. starts two `conformance --adapter A` instances (ports chosen by the OS, then kept) and
#      nginx (tests/deploy/nginx.conf.in: upstream with both, keepalive, HTTP/1.1 to upstreams,
#      proxy_next_upstream) on 127.0.0.1, with every file it writes under target/deploy/ADAPTER/;
#   2. drives keep-alive load through nginx for DEPLOY_SECONDS (default 25): wrk, 2 threads,
#      4 connections: 2 `GET /health`, 2 `POST /echo` (DEPLOY_POST=0: all `GET /health`). nginx
#      passes a GET to the other instance when the first fails, even after writing it, but
#      never a POST once written: a POST lost on a keep-alive connection the server closed
#      reaches the client as a 502 (the guide: `pactum::guide::load_balancer`);
#   3. meanwhile restarts instance 1, then 2, DEPLOY_ROUNDS times (default 2): SIGTERM, wait for
#      the process to exit (status 0), start it again on the same port, wait until `GET /health`
#      answers 200 on that port, then wait DEPLOY_GAP seconds (default 3, more than the
#      upstream's fail_timeout, so nginx uses the instance again) before the next;
#   4. prints the figures: requests, non-2xx, socket errors (wrk), restarts; and nginx's side:
#      its non-2xx answers, the requests it passed to a second upstream (its retries), and the
#      upstream errors of its log by kind — a refused connect (nothing was sent: safe to retry
#      for any method) apart from a request lost on a keep-alive connection the server closed.
#
# It installs nginx and wrk from the distribution's packages when missing (apt-get, as root or
# through sudo). Every process it starts is stopped on exit, failure included.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
HERE=$ROOT/tests/deploy
OUT=$ROOT/target/deploy
DURATION=${DEPLOY_SECONDS:-25}
ROUNDS=${DEPLOY_ROUNDS:-2}
GAP=${DEPLOY_GAP:-3}
POST=${DEPLOY_POST:-1}
# shellcheck source=../support/adapters.sh
. "$ROOT/tests/support/adapters.sh"
adapters_from_args "$@"

say() { printf '\n--> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (apt-get)"
    SUDO=
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "need root or sudo to install ${missing[*]}" >&2
            exit 1
        }
        SUDO=sudo
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
echo "$("$NGINX" -v 2>&1), $(wrk --version 2>&1 | head -1 | awk '{ print $1, $2 }')"

say "building the conformance fixture"
cargo build --quiet --example conformance
FIXTURE=$ROOT/target/debug/examples/conformance

# --- processes -----------------------------------------------------------------------------
PIDS=([1]= [2]=)
PORTS=([1]= [2]=)
NGINX_PID=
LOAD_PIDS=()
cleanup() {
    local pid
    for pid in "${LOAD_PIDS[@]}" "${PIDS[1]}" "${PIDS[2]}" "$NGINX_PID"; do
        [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${LOAD_PIDS[@]}" "${PIDS[1]}" "${PIDS[2]}" "$NGINX_PID"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
    LOAD_PIDS=()
    PIDS=([1]= [2]=)
    NGINX_PID=
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts instance N of ADAPTER on PORT (0: any free port; the real one is kept in PORTS[N]).
start_instance() {
    local n=$1 adapter=$2 port=$3 dir=$4 line= _
    : >"$dir/instance$n.stdout"
    "$FIXTURE" --adapter "$adapter" --port "$port" --host 127.0.0.1 \
        >"$dir/instance$n.stdout" 2>>"$dir/instance$n.log" &
    PIDS[n]=$!
    for _ in $(seq 300); do
        line=$(head -n 1 "$dir/instance$n.stdout" 2>/dev/null || true)
        [ -z "$line" ] || break
        kill -0 "${PIDS[n]}" 2>/dev/null || break
        sleep 0.02
    done
    case $line in
        "listening on http://127.0.0.1:"*) PORTS[n]=${line##*:} ;;
        *)
            echo "instance $n did not start (first line: '$line'); its log:" >&2
            cat "$dir/instance$n.log" >&2
            return 1
            ;;
    esac
}

# Readiness, as a load balancer's health check sees it: GET /health answers 200.
wait_ready() {
    local n=$1 _
    for _ in $(seq 250); do
        if curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:${PORTS[n]}/health" 2>/dev/null; then
            return 0
        fi
        sleep 0.02
    done
    echo "instance $n is not ready on port ${PORTS[n]} after 5 s" >&2
    return 1
}

# SIGTERM, wait for the exit, start again on the same port, wait until ready. Sets DOWN_MS to
# the milliseconds from the signal to ready. (Not run in a subshell: it waits for its child.)
restart_instance() {
    local n=$1 adapter=$2 dir=$3 status=0 t0 t1
    t0=$(date +%s%N)
    kill -TERM "${PIDS[n]}"
    wait "${PIDS[n]}" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "instance $n exited with status $status after SIGTERM" >&2
        return 1
    fi
    start_instance "$n" "$adapter" "${PORTS[n]}" "$dir"
    wait_ready "$n"
    t1=$(date +%s%N)
    DOWN_MS=$(((t1 - t0) / 1000000))
}

# A port no one listens on, for nginx.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wrk's figures from its report: requests, non-2xx/3xx answers, socket errors.
wrk_requests() { awk '/ requests in / { print $1 }' "$1"; }
wrk_non2xx() { awk -F': *' '/Non-2xx or 3xx responses/ { n = $2 } END { print n + 0 }' "$1"; }
wrk_errors() {
    awk '/Socket errors:/ { gsub(",", ""); print $4 + $6 + $8 + $10; found = 1 } END { if (!found) print 0 }' "$1"
}

# --- one adapter ---------------------------------------------------------------------------
FAILED=()
SUMMARY=()
for adapter in "${ADAPTERS[@]}"; do
    dir=$OUT/$adapter
    rm -rf "$dir"
    mkdir -p "$dir/nginx/temp"

    say "$adapter: two instances and nginx"
    start_instance 1 "$adapter" 0 "$dir"
    start_instance 2 "$adapter" 0 "$dir"
    wait_ready 1
    wait_ready 2
    lb_port=$(free_port)
    sed -e "s|@PREFIX@|$dir/nginx|g" -e "s|@LISTEN@|127.0.0.1:$lb_port|g" \
        -e "s|@UPSTREAM1@|127.0.0.1:${PORTS[1]}|g" -e "s|@UPSTREAM2@|127.0.0.1:${PORTS[2]}|g" \
        "$HERE/nginx.conf.in" >"$dir/nginx/nginx.conf"
    "$NGINX" -t -q -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log"
    "$NGINX" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log" &
    NGINX_PID=$!
    LB=http://127.0.0.1:$lb_port
    for _ in $(seq 250); do
        curl -fsS -o /dev/null --max-time 1 "$LB/health" 2>/dev/null && break
        kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.02
    done
    curl -fsS -o /dev/null --max-time 1 "$LB/health" || {
        echo "nginx does not answer on $LB; its log:" >&2
        cat "$dir/nginx/error.log" >&2
        exit 1
    }
    echo "nginx on $LB -> instances on ports ${PORTS[1]} and ${PORTS[2]}"

    say "$adapter: ${DURATION}s of load through nginx; restarting each instance in turn"
    LOADS=(get)
    if [ "$POST" = 1 ]; then
        LOADS+=(post)
        wrk -t1 -c2 -d"${DURATION}s" --timeout 5s "$LB/health" >"$dir/wrk-get.txt" 2>&1 &
        LOAD_PIDS+=($!)
        wrk -t1 -c2 -d"${DURATION}s" --timeout 5s -s "$HERE/post-echo.lua" "$LB/echo" \
            >"$dir/wrk-post.txt" 2>&1 &
        LOAD_PIDS+=($!)
    else
        wrk -t2 -c4 -d"${DURATION}s" --timeout 5s "$LB/health" >"$dir/wrk-get.txt" 2>&1 &
        LOAD_PIDS+=($!)
    fi
    start=$(date +%s)
    sleep "$GAP"
    restarts=0
    for round in $(seq "$ROUNDS"); do
        for n in 1 2; do
            restart_instance "$n" "$adapter" "$dir"
            restarts=$((restarts + 1))
            echo "  round $round: instance $n (port ${PORTS[n]}) restarted, ready after ${DOWN_MS} ms (t=$(($(date +%s) - start))s)"
            sleep "$GAP"
        done
    done
    outran=0
    for pid in "${LOAD_PIDS[@]}"; do
        kill -0 "$pid" 2>/dev/null || outran=1
    done
    status=0
    for pid in "${LOAD_PIDS[@]}"; do
        wait "$pid" || status=$?
    done
    LOAD_PIDS=()
    [ "$status" -eq 0 ] || FAILED+=("$adapter: wrk exit $status")
    [ "$outran" -eq 0 ] || FAILED+=("$adapter: the restarts outlasted the load (raise DEPLOY_SECONDS)")
    elapsed=$(($(date +%s) - start))
    requests=0 non2xx=0 errors=0
    for load in "${LOADS[@]}"; do
        sed "s/^/  $load: /" "$dir/wrk-$load.txt"
        requests=$((requests + $(wrk_requests "$dir/wrk-$load.txt")))
        non2xx=$((non2xx + $(wrk_non2xx "$dir/wrk-$load.txt")))
        errors=$((errors + $(wrk_errors "$dir/wrk-$load.txt")))
    done

    # nginx's own view: requests it passed to more than one upstream, answers that were not 2xx,
    # and the upstream errors of its log, by kind.
    kill -QUIT "$NGINX_PID" && wait "$NGINX_PID" || true
    NGINX_PID=
    retried=$(wc -l <"$dir/nginx/retried.log")
    lb_non2xx=$(wc -l <"$dir/nginx/non2xx.log")
    grep '\[error\].*upstream' "$dir/nginx/error.log" >"$dir/upstream-errors.log" || true
    upstream_errors=$(wc -l <"$dir/upstream-errors.log")
    # A refused connect sent nothing (any request may go to the other instance); a request
    # written to a connection the server closed or reset is lost (only an idempotent one may).
    refused=$(grep -c 'connect() failed' "$dir/upstream-errors.log" || true)
    lost=$(grep -cE 'prematurely closed|reset by peer|Broken pipe' "$dir/upstream-errors.log" || true)
    other=$((upstream_errors - refused - lost))
    kinds=$(sed -E 's/^[^*]*\*[0-9]+ //; s/, client:.*request: "([A-Z]+) .*/ (\1)/' \
        "$dir/upstream-errors.log" | sort | uniq -c | sort -rn | sed 's/^ */    /')

    line="deploy $adapter: $requests requests in ${elapsed}s, $non2xx non-2xx, $errors socket errors, $restarts restarts; nginx: $lb_non2xx non-2xx answers, $retried retried on the other instance, $upstream_errors upstream errors ($refused refused connects, $lost requests lost on a connection the server closed, $other other)"
    SUMMARY+=("$line")
    echo
    echo "$line"
    [ -z "$kinds" ] || printf '%s\n' "$kinds"
    [ "$non2xx" -eq 0 ] || FAILED+=("$adapter: $non2xx non-2xx answers at the client")
    [ "$errors" -eq 0 ] || FAILED+=("$adapter: $errors socket errors at the client")
    [ "$lb_non2xx" -eq 0 ] || FAILED+=("$adapter: nginx answered $lb_non2xx non-2xx")
    [ "$requests" -gt 0 ] || FAILED+=("$adapter: no request completed")
    for n in 1 2; do
        kill -0 "${PIDS[n]}" 2>/dev/null || FAILED+=("$adapter: instance $n died")
    done
    cleanup
done

echo
printf '%s\n' "${SUMMARY[@]}"
if [ ${#FAILED[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${FAILED[@]}" >&2
    exit 1
fi
echo "rolling deploy passed on: ${ADAPTERS[*]}"
