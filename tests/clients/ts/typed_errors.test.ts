// FIXTURE.md row 22: typed errors. `GET /v2/users/{id}` declares its 404 in the contract with its
// own body type, so the generated client types that answer: narrowed, `code` is the literal
// `user_not_found` and `id` a number. (The 404 may also be the pipeline's error body, for a path
// no route matches: the document says `anyOf`, and a client tells them apart by `id`.) No user is
// created here: `users.test.ts` owns the store's ids.

import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./client.js";
import type { paths } from "./schema.js";

/** The 404 answer of `GET /v2/users/{id}`, as the document gives it. */
type NotFound = paths["/v2/users/{id}"]["get"]["responses"][404]["content"]["application/json"];

test("GET /v2/users/{id}: the declared 404, typed by the generated client", async () => {
    const answer = await client().GET("/v2/users/{id}", { params: { path: { id: 987654 } } });
    assert.equal(answer.response.status, 404);
    assert.equal(answer.response.headers.get("content-type"), "application/json");
    assert.equal(answer.data, undefined);
    const error: NotFound | undefined = answer.error;
    assert.ok(error !== undefined && "id" in error, JSON.stringify(error));
    // Narrowed to the declared type.
    const code: "user_not_found" = error.code;
    const id: number = error.id;
    assert.deepEqual({ code, error: error.error, id }, { code: "user_not_found", error: "User not found", id: 987654 });
});

test("GET /v2/users/{id}: a non-numeric id is the pipeline's 400, not a declared error", async () => {
    const answer = await client().GET("/v2/users/{id}", {
        params: { path: { id: "abc" as unknown as number } },
    });
    assert.equal(answer.response.status, 400);
    assert.equal((answer.error as { error?: string } | undefined)?.error, "Validation failed");
});
