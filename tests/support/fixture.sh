# Starting and stopping the conformance fixture, for the shell-driven suites
# (tests/clients/run.sh, tests/schemathesis/run.sh). Source it after setting FIXTURE to the
# built `conformance` binary; `start_server ADAPTER DIR` sets SERVER_PID and BASE
# (`http://HOST:PORT`), `stop_server` sends SIGTERM and waits; an EXIT trap stops it.

SERVER_PID=
stop_server() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=
}
trap stop_server EXIT

# Starts the fixture on a free port; its stdout and log go to DIR.
start_server() {
    local adapter=$1 dir=$2 line= _
    : >"$dir/stdout"
    "$FIXTURE" --adapter "$adapter" --port 0 --host 127.0.0.1 >"$dir/stdout" 2>"$dir/server.log" &
    SERVER_PID=$!
    for _ in $(seq 300); do
        line=$(head -n 1 "$dir/stdout" 2>/dev/null || true)
        [ -z "$line" ] || break
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    case $line in
        "listening on http://"*) BASE=${line#listening on } ;;
        *)
            echo "the fixture did not start (first line: '$line'); its log:" >&2
            cat "$dir/server.log" >&2
            return 1
            ;;
    esac
}
