"""The prism proxy (`prism proxy --errors`) in front of the conformance fixture.

    python prism_check.py http://127.0.0.1:PRISM_PORT

run.sh starts `prism proxy --errors DOC UPSTREAM`, DOC being the fixture's own
`GET /openapi.json` (OpenAPI 3.1) and UPSTREAM the fixture. prism forwards each valid request,
checks the real answer against the document, and with `--errors` turns an answer that breaks it
into a 500 with an `sl-violations` header (what it did to every event stream before issue 30).
Each request here is valid, so each answer must come back with its own status and no
violation: the event stream, a multipart upload, JSON bodies, a declared error, text.

The last line is `prism: N passed, M failed`; the exit status is non-zero when anything failed.
"""

import sys
import uuid

import requests

PRISM = sys.argv[1].rstrip("/")
TIMEOUT = 20
passed = 0
failed = 0


def check(name, method, path, status, **kwargs):
    global passed, failed
    try:
        response = requests.request(method, PRISM + path, timeout=TIMEOUT, **kwargs)
    except Exception as error:  # noqa: BLE001 - any failure is a failed check
        failed += 1
        print(f"FAIL {name}: {error!r}")
        return None
    violations = response.headers.get("sl-violations")
    if response.status_code != status or violations:
        failed += 1
        print(f"FAIL {name}: status {response.status_code} (expected {status}), "
              f"sl-violations: {violations}, body: {response.text[:300]}")
    else:
        passed += 1
        print(f"ok   {name}")
    return response


def main():
    run = uuid.uuid4().hex[:8]
    check("GET /health", "GET", "/health", 200)
    created = check("POST /users", "POST", "/users", 201,
                    json={"name": "Prism", "email": f"prism-{run}@example.com", "tags": ["p"]})
    uid = created.json()["id"] if created is not None and created.status_code == 201 else 1
    check("GET /users", "GET", "/users?limit=5", 200)
    check("GET /users/{id}", "GET", f"/users/{uid}", 200)
    check("GET /users/{id} (404)", "GET", "/users/999999", 404)
    check("PATCH /users/{id}", "PATCH", f"/users/{uid}", 200, json={"age": 40})
    check("GET /v2/users/{id} (declared 404)", "GET", "/v2/users/999999", 404)
    check("GET /me", "GET", "/me", 200, headers={"Authorization": "Bearer secret-token"})
    check("GET /errors/status/{code}", "GET", "/errors/status/418", 418)
    check("GET /hello.txt", "GET", "/hello.txt?name=prism", 200)
    check("GET /events (a stream of 3 events)", "GET", "/events?count=3", 200)
    check("POST /uploads", "POST", "/uploads", 201, data={"title": "report"},
          files={"file": ("r.bin", b"\x00\x01\xffdata", "application/octet-stream")})
    check("DELETE /users/{id}", "DELETE", f"/users/{uid}", 200)
    print(f"prism: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
