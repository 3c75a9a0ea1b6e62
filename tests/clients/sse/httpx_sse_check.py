"""The fixture's `GET /events` (FIXTURE.md row 19) read with Python httpx + httpx-sse, resumed
the way the SSE spec tells a client to: after every end of stream (or a dropped connection)
send the request again with `Last-Event-ID: <the last id received>`; stop on 204. Each event
must arrive exactly once.

    python httpx_sse_check.py http://127.0.0.1:PORT

httpx-sse parses the stream; it does not reconnect by itself, so `read_all` below is the
spec's reconnection loop (no wait: the fixture sends no `retry:`). Prints one line per check
and a last line `python httpx-sse: N passed, M failed`; exits 1 when a check failed.
"""

import sys
import traceback

import httpx
from httpx_sse import connect_sse

BASE = sys.argv[1].rstrip("/")
TIMEOUT = 10
# Past this many requests the client has not been told to stop: a failure.
MAX_REQUESTS = 10

CHECKS = []


def check(name):
    def register(function):
        CHECKS.append((name, function))
        return function

    return register


def read_all(client, path, first_id=None, drop_after=None):
    """Reads `path` until a 204: the events `(id, n)` in order and each request's
    `Last-Event-ID`. With `drop_after`, the first connection is closed by the client after that
    many events (a dropped connection)."""
    events, sent = [], []
    last_id = first_id
    while len(sent) < MAX_REQUESTS:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        sent.append(last_id)
        with connect_sse(client, "GET", BASE + path, headers=headers) as source:
            status = source.response.status_code
            if status == 204:
                assert source.response.read() == b"", "a 204 has no body"
                return events, sent
            assert status == 200, f"status {status}"
            for count, sse in enumerate(source.iter_sse(), start=1):
                events.append((sse.id, sse.json()["n"]))
                if sse.id:
                    last_id = sse.id
                if drop_after is not None and len(sent) == 1 and count == drop_after:
                    break  # leaving the block closes the connection mid-stream
    raise AssertionError(f"still streaming after {MAX_REQUESTS} requests: {events}")


def ticks(first, last):
    return [(str(n), n) for n in range(first, last + 1)]


@check("each event once: the stream ends, resumed with Last-Event-ID, 204, stop")
def full_stream(client):
    events, sent = read_all(client, "/events?count=3")
    assert events == ticks(1, 3), events
    assert sent == [None, "3"], sent


@check("each event once after a dropped connection: resumed after the last id received")
def dropped(client):
    events, sent = read_all(client, "/events?count=5", drop_after=2)
    assert events == ticks(1, 5), events
    assert sent == [None, "2", "5"], sent


@check("Last-Event-ID 4 of 6: events 5 and 6 only")
def resumed(client):
    events, sent = read_all(client, "/events?count=6", first_id="4")
    assert events == ticks(5, 6), events
    assert sent == ["4", "6"], sent


@check("a Last-Event-ID that is not a number starts from event 1")
def not_a_number(client):
    events, sent = read_all(client, "/events?count=2", first_id="abc")
    assert events == ticks(1, 2), events
    assert sent == ["abc", "2"], sent


def main():
    passed = failed = 0
    with httpx.Client(timeout=TIMEOUT) as client:
        for name, function in CHECKS:
            try:
                function(client)
            except Exception:  # noqa: BLE001 - every failure is reported, then the next check
                failed += 1
                print(f"FAIL - {name}")
                traceback.print_exc(file=sys.stdout)
            else:
                passed += 1
                print(f"ok   - {name}")
    print(f"python httpx-sse: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
