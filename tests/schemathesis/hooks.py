"""schemathesis hooks for the pactum conformance fixture (loaded by run.sh via SCHEMATHESIS_HOOKS).

- `pactum_json_error_body`: a check that every error answer (status >= 400, except to HEAD) is
  `application/json` with pactum's error body: {"error": string, "details"?: [...], "code"?: string}.
- `filter_failure`: drops the failures of two known library gaps (see below) unless
  PACTUM_SCHEMATHESIS_STRICT=1; the run's summary counts them ("Filtered: N").
"""

import json
import os
import re

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


# Known library gaps, reported by the run and kept out of its verdict unless
# PACTUM_SCHEMATHESIS_STRICT=1. Both are in the JSON body decoder, not in the document:
#
# 1. Whole floats for integers. JSON Schema counts 4.0 as an integer, and schemathesis sends
#    whole floats such as `"age": 4.0` for integer fields on purpose; serde_json refuses them for
#    Rust integer types ("invalid type: floating point `4.0`, expected u16"), so pactum answers
#    400 to a request its document admits (ST202, schema-valid request rejected).
# 2. Arrays for structs. serde's derived `Deserialize` also reads a struct from a JSON array of
#    its fields in order, so `[null, null]` is accepted as a `UserPatch` whose fields all have
#    defaults (ST201, schema-violating request accepted).
STRICT = os.environ.get("PACTUM_SCHEMATHESIS_STRICT") == "1"
WHOLE_FLOAT = re.compile(
    r"invalid type: floating point `-?[0-9]+(\.0)?(e[0-9]+)?`, expected [ui](8|16|32|64|128|size)$"
)


def _json(response):
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def _whole_float_rejected(failure, response):
    if getattr(failure, "code", None) != "ST202" or response.status_code != 400:
        return False
    body = _json(response)
    details = (body or {}).get("details") or []
    return bool(details) and all(WHOLE_FLOAT.search(d.get("message", "")) for d in details)


def _array_read_as_struct(failure, case, response):
    return (
        getattr(failure, "code", None) == "ST201"
        and 200 <= response.status_code < 300
        and isinstance(case.body, list)
    )


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if STRICT or response is None:
        return True
    return not (_whole_float_rejected(failure, response) or _array_read_as_struct(failure, case, response))
