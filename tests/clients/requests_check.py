"""The conformance fixture driven by Python `requests`, the way browsers and most HTTP clients
send things: list filters with percent-encoded brackets (DESIGN.md pipeline step 4), missing
fields named by their own path (step 6), catch-all segments that try to climb out
(FIXTURE.md row 9), and a multipart upload (row 24).

    python requests_check.py http://127.0.0.1:PORT

Does not assume an empty fixture: its users have tags and emails of their own (a per-run token),
so it can run after the TypeScript suite on the same server. Prints one line per check and a
last line `python requests: N passed, M failed`; exits 1 when a check failed.
"""

import http.client
import json
import sys
import time
import traceback

import requests

BASE = sys.argv[1].rstrip("/")
TIMEOUT = 10
TOKEN = format(time.time_ns() % 16**6, "06x")
RED = f"red-{TOKEN}"
BLUE = f"blue-{TOKEN}"
SESSION = requests.Session()

CHECKS = []


def check(name):
    def register(function):
        CHECKS.append((name, function))
        return function

    return register


class Exact:
    """The answer to a request sent byte for byte with http.client (see `send_exact`)."""

    def __init__(self, method, target, response):
        self.status_code = response.status
        self.headers = {k.lower(): v for k, v in response.getheaders()}
        self.text = response.read().decode("utf-8")
        self.where = f"{method} {target}"


def send_exact(method, target):
    """Sends this path and query exactly as given. `requests` cannot: it requotes the URL
    (`%2E` -> `.`, `%5b` -> `%5B`) and urllib3 encodes literal brackets in the query (`[` -> `%5B`)."""
    host, port = BASE.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
    try:
        connection.request(method, target)
        return Exact(method, target, connection.getresponse())
    finally:
        connection.close()


def json_of(response, status):
    body = response.text
    where = getattr(response, "where", None) or f"{response.request.method} {response.request.path_url}"
    assert response.status_code == status, f"{where}: expected {status}, got {response.status_code} {body}"
    assert response.headers.get("content-type") == "application/json", response.headers.get("content-type")
    return json.loads(body)


# --- users with tags of their own ------------------------------------------------------------

USERS = {}  # letter -> id


def setup_users():
    for letter, tags in (("a", [RED]), ("b", [RED, BLUE]), ("c", [BLUE]), ("d", [])):
        body = {"name": f"Py {letter.upper()}", "email": f"py-{TOKEN}-{letter}@example.com", "tags": tags}
        user = json_of(SESSION.post(BASE + "/users", json=body, timeout=TIMEOUT), 201)
        assert user["tags"] == tags and user["active"] is True, user
        USERS[letter] = user["id"]


def page(response):
    """(total, ids) of a GET /users answer."""
    body = json_of(response, 200)
    return body["total"], [u["id"] for u in body["items"]]


def expected(*letters):
    return len(letters), [USERS[letter] for letter in letters]


# Literal brackets are the reference every other form must match.
@check("reference: ?tag[]=R&tag[]=B (literal brackets) filters by both tags")
def literal_brackets():
    assert page(send_exact("GET", f"/users?limit=100&tag[]={RED}&tag[]={BLUE}")) == expected("b")
    assert page(send_exact("GET", f"/users?limit=100&tag[]={RED}")) == expected("a", "b")
    assert page(send_exact("GET", f"/users?limit=100&tag[0]={RED}&tag[1]={BLUE}")) == expected("b")


def same_as_literal(path_and_query, literal, *letters):
    got = page(send_exact("GET", path_and_query))
    reference = page(send_exact("GET", literal))
    want = expected(*letters)
    assert got == want, f"GET {path_and_query}: (total, ids) {got}, expected {want}"
    assert got == reference, f"GET {path_and_query}: {got}, but {literal} gives {reference}"


@check("GET /users?tag%5B%5D=R (one encoded-bracket tag) filters like tag[]=R")
def encoded_one():
    same_as_literal(f"/users?limit=100&tag%5B%5D={RED}", f"/users?limit=100&tag[]={RED}", "a", "b")


@check("GET /users?tag%5B%5D=R&tag%5B%5D=B filters like tag[]=R&tag[]=B")
def encoded_two():
    same_as_literal(
        f"/users?limit=100&tag%5B%5D={RED}&tag%5B%5D={BLUE}", f"/users?limit=100&tag[]={RED}&tag[]={BLUE}", "b"
    )


@check("GET /users?tag%5B0%5D=R&tag%5B1%5D=B filters like tag[0]=R&tag[1]=B")
def encoded_indexed():
    same_as_literal(
        f"/users?limit=100&tag%5B0%5D={RED}&tag%5B1%5D={BLUE}", f"/users?limit=100&tag[0]={RED}&tag[1]={BLUE}", "b"
    )


@check("GET /users?tag%5b%5d=R&tag%5b%5d=B (lower-case escapes) filters like tag[]=R&tag[]=B")
def encoded_lowercase():
    same_as_literal(
        f"/users?limit=100&tag%5b%5d={RED}&tag%5b%5d={BLUE}", f"/users?limit=100&tag[]={RED}&tag[]={BLUE}", "b"
    )


def via_params(params, sent_query, *letters):
    response = SESSION.get(BASE + "/users", params={"limit": 100, **params}, timeout=TIMEOUT)
    assert response.request.path_url == "/users?limit=100&" + sent_query, response.request.path_url
    got = page(response)
    want = expected(*letters)
    assert got == want, f"GET {response.request.path_url}: (total, ids) {got}, expected {want}"


@check('requests params={"tag[]": [R, B]} (requests encodes the key: tag%5B%5D) filters by both tags')
def params_brackets():
    via_params({"tag[]": [RED, BLUE]}, f"tag%5B%5D={RED}&tag%5B%5D={BLUE}", "b")


@check('requests params={"tag[0]": R, "tag[1]": B} (sent as tag%5B0%5D, tag%5B1%5D) filters by both tags')
def params_indexed():
    via_params({"tag[0]": RED, "tag[1]": BLUE}, f"tag%5B0%5D={RED}&tag%5B1%5D={BLUE}", "b")


@check('requests params={"tag": [R, B]} (plain repeated tag=R&tag=B) filters by both tags')
def params_repeated():
    via_params({"tag": [RED, BLUE]}, f"tag={RED}&tag={BLUE}", "b")
    via_params({"tag": [RED]}, f"tag={RED}", "a", "b")


@check("GET /users with encoded-bracket tags, limit and offset together: paged after filtering")
def encoded_paged():
    body = json_of(send_exact("GET", f"/users?tag%5B%5D={RED}&limit=1&offset=1"), 200)
    got = (body["total"], [u["id"] for u in body["items"]], body["limit"], body["offset"])
    assert got == (2, [USERS["b"]], 1, 1), f"(total, ids, limit, offset) {got}"


# --- missing fields are named by their own path -------------------------------------------------


@check('POST /users {"name": "No Email"}: 400, details [{path: ["email"], message: "missing field `email`"}]')
def missing_email():
    body = json_of(SESSION.post(BASE + "/users", json={"name": "No Email"}, timeout=TIMEOUT), 400)
    want = {"error": "Validation failed", "details": [{"path": ["email"], "message": "missing field `email`"}]}
    assert body == want, f"got {json.dumps(body)}"


@check('GET /slow without ms: 400 Validation failed with a detail whose path is ["ms"]')
def missing_ms():
    body = json_of(SESSION.get(BASE + "/slow", timeout=TIMEOUT), 400)
    assert body.get("error") == "Validation failed", f"got {json.dumps(body)}"
    paths = [d.get("path") for d in body.get("details", [])]
    assert ["ms"] in paths, f"detail paths {paths}; got {json.dumps(body)}"


# --- the catch-all refuses empty, `.` and `..` segments (FIXTURE.md row 9) ---------------------


def refused(path):
    body = json_of(send_exact("GET", path), 400)
    assert body.get("error") == "Validation failed", f"got {json.dumps(body)}"
    paths = [d.get("path") for d in body.get("details", [])]
    assert ["path"] in paths, f"detail paths {paths}; got {json.dumps(body)}"


@check("GET /files/a/../b (a literal `..` segment; requests turns %2E%2E into it): 400 on path")
def dotdot_literal():
    # Through requests itself: it unquotes %2E (an unreserved character) after removing dot
    # segments, so what it sends is a literal `..` segment.
    response = SESSION.get(BASE + "/files/a/%2E%2E/b", timeout=TIMEOUT)
    assert response.request.path_url == "/files/a/../b", response.request.path_url
    body = json_of(response, 400)
    paths = [d.get("path") for d in body.get("details", [])]
    assert body.get("error") == "Validation failed" and ["path"] in paths, f"got {json.dumps(body)}"


@check("GET /files/a/%2E%2E/b (a percent-encoded `..` segment): 400 on path")
def dotdot_encoded():
    refused("/files/a/%2E%2E/b")


@check("GET /files/a/%2e/b (a percent-encoded `.` segment): 400 on path")
def dot_encoded():
    refused("/files/a/%2e/b")


@check("GET /files/a//b (an empty segment): 400 on path")
def empty_segment():
    refused("/files/a//b")


# --- uploads: a multipart form as requests sends it (FIXTURE.md row 24) ------------------------


@check("POST /uploads (requests' files=): 201 with the file's size and lowercase hex SHA-256")
def upload_form():
    import hashlib

    data = bytes(range(256)) * 1000
    response = SESSION.post(
        BASE + "/uploads",
        data={"title": "From requests"},
        files={"file": ("data.bin", data, "application/octet-stream")},
        timeout=TIMEOUT,
    )
    body = json_of(response, 201)
    want = {
        "title": "From requests",
        "filename": "data.bin",
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert body == want, f"got {json.dumps(body)}"


@check("POST /uploads with a file of 1 MiB + 1 byte: 413 naming the file; without a title: 400 on title")
def upload_limits():
    big = b"x" * ((1 << 20) + 1)
    response = SESSION.post(BASE + "/uploads", data={"title": "Big"}, files={"file": ("big.bin", big)}, timeout=TIMEOUT)
    body = json_of(response, 413)
    assert body.get("error") == "Payload too large", f"got {json.dumps(body)}"
    assert [d.get("path") for d in body.get("details", [])] == [["file"]], f"got {json.dumps(body)}"
    response = SESSION.post(BASE + "/uploads", files={"file": ("a.txt", b"hi")}, timeout=TIMEOUT)
    body = json_of(response, 400)
    assert [d.get("path") for d in body.get("details", [])] == [["title"]], f"got {json.dumps(body)}"


def main():
    passed = failed = 0
    try:
        setup_users()
    except Exception:  # noqa: BLE001 - reported as a failure, like a check
        print("FAIL - setup: create four users with tags")
        traceback.print_exc(file=sys.stdout)
        print("python requests: 0 passed, 1 failed")
        return 1
    for name, function in CHECKS:
        try:
            function()
        except Exception as error:  # noqa: BLE001
            failed += 1
            print(f"FAIL - {name}")
            message = str(error) if isinstance(error, AssertionError) and str(error) else traceback.format_exc()
            print("       " + message.strip().replace("\n", "\n       "))
        else:
            passed += 1
            print(f"ok   - {name}")
    print(f"python requests: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
