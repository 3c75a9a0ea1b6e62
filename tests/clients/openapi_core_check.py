"""openapi-core against the conformance fixture: real answers checked against its own document.

    python openapi_core_check.py http://127.0.0.1:PORT

Reads the fixture's `GET /openapi.json` (OpenAPI 3.1), then sends one request per documented
operation (every row of the fixture that is in the document: the users CRUD, the routing and
auth rows, the `/errors/*` routes, `/events` (a server-sent event stream), `POST /uploads` (a
multipart form with a file), ...) plus some of their documented failures (404, 400 with
details, 401, the declared typed 404), and has openapi-core validate each request and its real
answer against the document. Two controls show the check has teeth: the same stream against
the event-as-body schema the document used to give, and the same upload against `format:
binary`, must both be refused.

The last line is `openapi-core: N passed, M failed`; the exit status is non-zero when anything
failed. Run by tests/clients/run.sh after the other clients (it creates its own users).
"""

import copy
import hashlib
import hmac
import sys
import traceback
import uuid

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.deserializing.media_types.util import plain_loads

BASE = sys.argv[1].rstrip("/")
# openapi-core reads a body of a media type it does not know as bytes, which no `type: string`
# accepts; `text/event-stream` is text (UTF-8), as its own `text/plain` is. Its documented way
# to say so (`extra_media_type_deserializers`), and nothing else changed.
CONFIG = Config(extra_media_type_deserializers={"text/event-stream": plain_loads})
TIMEOUT = 20
passed = 0
failed = 0


def report(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def validate(api, response, bad_request=False):
    """openapi-core's verdict on one real exchange: raises on the first problem.

    `bad_request`: a request the document itself forbids (the server's 400 for it is what is
    checked): openapi-core must refuse the request, and accept the answer."""
    request = RequestsOpenAPIRequest(response.request)
    if bad_request:
        try:
            api.validate_request(request)
        except Exception:  # noqa: BLE001 - refused, as it must be
            pass
        else:
            raise AssertionError("openapi-core accepts a request the server refuses")
    else:
        api.validate_request(request)
    api.validate_response(request, RequestsOpenAPIResponse(response))


def check(api, name, method, path, status, bad_request=False, **kwargs):
    """Sends the request, asserts the status, validates request and answer; returns the answer."""
    try:
        response = requests.request(method, BASE + path, timeout=TIMEOUT, **kwargs)
    except Exception as error:  # noqa: BLE001 - any failure is a failed check
        report(name, False, repr(error))
        return None
    if response.status_code != status:
        report(name, False, f"status {response.status_code}, expected {status}: {response.text[:200]}")
        return response
    try:
        validate(api, response, bad_request)
    except Exception as error:  # noqa: BLE001
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        cause = getattr(error, "__cause__", None)
        if cause is not None:
            detail += f" <- {cause!r}"[:600]
        report(name, False, detail)
        return response
    report(name, True)
    return response


def refused(api, name, response):
    """A control: openapi-core must refuse this exchange."""
    if response is None:
        report(name, False, "no answer to check")
        return
    try:
        validate(api, response)
    except Exception:  # noqa: BLE001
        report(name, True)
        return
    report(name, False, "accepted")


def main():
    document = requests.get(BASE + "/openapi.json", timeout=TIMEOUT).json()
    api = OpenAPI.from_dict(document, config=CONFIG)
    print(f"openapi-core against {BASE}/openapi.json (OpenAPI {document['openapi']})")

    run = uuid.uuid4().hex[:8]
    email = f"core-{run}@example.com"
    user = {"name": "Core", "email": email, "age": 30, "tags": [f"core{run}"]}

    check(api, "GET /health", "GET", "/health", 200)
    created = check(api, "POST /users", "POST", "/users", 201, json=user)
    uid = created.json()["id"] if created is not None and created.status_code == 201 else 1
    # The email rule (validator's `email`): an address literal and an internationalised
    # domain are taken, a domain over 255 characters is not; the document says `format: email`.
    check(api, "POST /users (email at an address literal)", "POST", "/users", 201,
          json={"name": "Lit", "email": f"lit{run}@[127.0.0.1]"})
    check(api, "POST /users (email at an IDN domain)", "POST", "/users", 201,
          json={"name": "Idn", "email": f"idn{run}@m\u00fcnchen.de"})
    check(api, "POST /users (400, email domain of 259 characters)", "POST", "/users", 400,
          json={"name": "Long", "email": f"long{run}@" + "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 63 + ".com"})
    check(api, "POST /users (409, email taken)", "POST", "/users", 409, json=user)
    check(api, "POST /users (400, details)", "POST", "/users", 400, bad_request=True, json={"name": "", "email": "x@example.com"})
    check(api, "GET /users", "GET", f"/users?limit=5&active=true&tag=core{run}", 200)
    check(api, "GET /users (400, limit)", "GET", "/users?limit=0", 400, bad_request=True)
    check(api, "GET /users/{id}", "GET", f"/users/{uid}", 200)
    check(api, "GET /users/{id} (404)", "GET", "/users/999999", 404)
    check(api, "PUT /users/{id}", "PUT", f"/users/{uid}", 200,
          json={"name": "Core2", "email": email, "tags": []})
    check(api, "PATCH /users/{id}", "PATCH", f"/users/{uid}", 200, json={"age": 31})
    check(api, "GET /v2/users/{id}", "GET", f"/v2/users/{uid}", 200)
    check(api, "GET /v2/users/{id} (declared 404)", "GET", "/v2/users/999999", 404)
    check(api, "DELETE /users/{id}", "DELETE", f"/users/{uid}", 200)
    check(api, "GET /orgs/{org}/repos/{repo}", "GET", "/orgs/acme/repos/w%20x", 200)
    # One segment: an OpenAPI path parameter cannot hold `/` (no tool matches `/files/a/b`
    # to `/files/{path}`), though the catch-all takes it; the document says so in words.
    check(api, "GET /files/{path}", "GET", "/files/c.txt", 200)
    check(api, "GET /files/{path} (400, ..)", "GET", "/files/a/%2E%2E/b", 400)
    bearer = {"Authorization": "Bearer secret-token"}
    check(api, "GET /me", "GET", "/me", 200, headers=bearer)
    check(api, "GET /me (401)", "GET", "/me", 401, bad_request=True)
    check(api, "POST /me/notes", "POST", "/me/notes", 201, headers=bearer, json={"text": "hi"})
    check(api, "GET /trace", "GET", "/trace", 200)
    check(api, "GET /errors/plain", "GET", "/errors/plain", 500)
    check(api, "GET /errors/status/{code}", "GET", "/errors/status/418", 418)
    check(api, "GET /errors/panic", "GET", "/errors/panic", 500)
    check(api, "GET /errors/bad-response", "GET", "/errors/bad-response", 500)
    check(api, "POST /echo", "POST", "/echo", 201, json={"items": [{"sku": "A", "qty": 2}], "note": "n"})
    check(api, "POST /echo (400, nested details)", "POST", "/echo", 400, bad_request=True,
          json={"items": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 0}]})
    check(api, "GET /slow", "GET", "/slow?ms=1", 200)
    stream = check(api, "GET /events (a stream of 3 events)", "GET", "/events?count=3", 200)
    check(api, "GET /events (400, count)", "GET", "/events?count=0", 400, bad_request=True)
    body = b'{"event":"push"}'
    signature = "sha256=" + hmac.new(b"whsec", body, hashlib.sha256).hexdigest()
    check(api, "POST /webhooks", "POST", "/webhooks", 200, data=body,
          headers={"Content-Type": "application/json", "X-Signature": signature})
    check(api, "POST /webhooks (401)", "POST", "/webhooks", 401, data=body,
          headers={"Content-Type": "application/json", "X-Signature": "sha256=" + "0" * 64})
    check(api, "POST /tickets (201, Location and X-Total-Count)", "POST", "/tickets", 201,
          json={"subject": "printer"})
    check(api, "GET /session (cookie params)", "GET", "/session", 200,
          cookies={"session": "abcdefgh", "theme": "dark"})
    check(api, "GET /session (400, short session)", "GET", "/session", 400, bad_request=True,
          cookies={"session": "abc"})
    check(api, "GET /whoami", "GET", "/whoami", 200)
    check(api, "GET /hello.txt", "GET", "/hello.txt?name=core", 200)
    upload = check(api, "POST /uploads", "POST", "/uploads", 201,
                   data={"title": "report"}, files={"file": ("r.bin", b"\x00\x01\xffdata", "application/octet-stream")})
    check(api, "POST /uploads (400, no file)", "POST", "/uploads", 400, bad_request=True,
          data={"title": "report"}, files={"other": ("r.bin", b"x", "application/octet-stream")})

    # Controls: the forms openapi-core refused before (issue 30, points 1 and 4).
    old = copy.deepcopy(document)
    media = old["paths"]["/events"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    media["schema"] = media.pop("x-itemSchema")
    refused(OpenAPI.from_dict(old, config=CONFIG), "control: the stream against the event-as-body schema is refused", stream)
    old = copy.deepcopy(document)
    file_schema = old["components"]["schemas"]["Upload"]["properties"]["file"]
    file_schema.pop("contentMediaType", None)
    file_schema["format"] = "binary"
    refused(OpenAPI.from_dict(old, config=CONFIG), "control: the upload against `format: binary` is refused", upload)

    print(f"openapi-core: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
