"""schemathesis hooks for the pactum conformance fixture (loaded by run.sh via SCHEMATHESIS_HOOKS).

- `pactum_json_error_body`: a check that every error answer (status >= 400, except to HEAD) is
  `application/json` with pactum's error body: {"error": string, "details"?: [...], "code"?: string}.
"""

import json

import schemathesis


@schemathesis.check
def pactum_json_error_body(ctx, response, case):
    """Every error answer is JSON with pactum's error body."""
    if response.status_code < 400 or response.request.method == "HEAD":
        return None
    content_type = ";".join(response.headers.get("content-type", []))
    essence = content_type.split(";")[0].strip().lower()
    if essence != "application/json":
        raise AssertionError(
            f"{response.status_code} answered with Content-Type {content_type!r}, not application/json"
        )
    try:
        body = json.loads(response.content)
    except ValueError as error:
        raise AssertionError(f"{response.status_code} error body is not JSON: {error}") from None
    if not isinstance(body, dict) or not isinstance(body.get("error"), str):
        raise AssertionError(f'{response.status_code} error body has no string "error": {body!r}')
    details = body.get("details", [])
    if not isinstance(details, list) or not all(
        isinstance(d, dict)
        and isinstance(d.get("message"), str)
        and isinstance(d.get("path"), list)
        and all(isinstance(p, (str, int)) for p in d["path"])
        for d in details
    ):
        raise AssertionError(f'{response.status_code} error body has malformed "details": {body!r}')
    if "code" in body and not isinstance(body["code"], str):
        raise AssertionError(f'{response.status_code} error body has a non-string "code": {body!r}')
    return None
