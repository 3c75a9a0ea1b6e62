// FIXTURE.md rows 2-7: the users resource, through the generated client. The tests run in
// order against a fresh fixture (no users, ids 1, 2, 3, … in creation order); no other test
// file creates users.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { QuerySerializer, QuerySerializerOptions } from "openapi-fetch";
import {
    client,
    expectData,
    expectError,
    expectValidation,
    rawQuery,
    recordUrls,
    type ErrorBody,
    type ListQuery,
    type NewUser,
    type User,
} from "./client.js";

const api = client();

const ann: User = { id: 1, name: "Ann", email: "ann@example.com", age: 30, tags: ["red"], active: true };
const bob: User = { id: 2, name: "Bob", email: "bob@example.com", age: null, tags: ["red", "blue"], active: false };
const cy: User = { id: 3, name: "Cy", email: "cy@example.com", age: null, tags: [], active: true };

/** The fields of a user a client sends (everything but the id). */
function newUser({ id: _, ...fields }: User): NewUser {
    return fields;
}

/** `GET /users` with this query and these client options; returns the page and the query sent. */
async function list(query: ListQuery, querySerializer?: QuerySerializer<unknown> | QuerySerializerOptions) {
    const { urls, middleware } = recordUrls();
    const answer = await client({ ...(querySerializer ? { querySerializer } : {}) }).GET("/users", {
        params: { query },
        middleware: [middleware],
    });
    assert.equal(urls.length, 1);
    return { answer, sent: rawQuery(urls[0]!) };
}

/** Details in the order of their paths (the server's order is not part of the contract). */
function sortedDetails(details: ErrorBody["details"]): ErrorBody["details"] {
    return [...(details ?? [])].sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)));
}

/** The ids of a `GET /users` page, after checking the status. */
function ids(answer: Awaited<ReturnType<typeof list>>["answer"]): number[] {
    assert.equal(answer.response.status, 200, JSON.stringify(answer.error));
    return answer.data!.items.map((u) => u.id);
}

test("GET /users: empty at start", async () => {
    expectData(await api.GET("/users"), 200, { items: [], limit: 10, offset: 0, total: 0 });
});

test("POST /users: 201 with the new user, ids 1, 2 in order", async () => {
    expectData(await api.POST("/users", { body: newUser(ann) }), 201, ann);
    expectData(await api.POST("/users", { body: newUser(bob) }), 201, bob);
});

test("POST /users: tags and active are optional (defaults [] and true), age is null", async () => {
    // The generated NewUser type may force the fields that have defaults (see
    // probe/request-types.ts); the body the contract accepts is only name and email.
    const minimal = { name: "Cy", email: "cy@example.com" } as NewUser;
    expectData(await api.POST("/users", { body: minimal }), 201, cy);
});

test("POST /users: 409 on an email another user has, case-insensitively", async () => {
    const body = { ...newUser(ann), name: "Another Ann", email: "ANN@Example.COM" };
    expectError(await api.POST("/users", { body }), 409, { error: "Email already exists" });
});

test("POST /users: 400 with details, e.g. an empty name", async () => {
    expectValidation(await api.POST("/users", { body: { ...newUser(cy), name: "", email: "dee@example.com" } }), [
        { path: ["name"], message: "length must be between 1 and 50" },
    ]);
    expectValidation(
        await api.POST("/users", { body: { ...newUser(cy), email: "dee@example.com", tags: ["ok", ""] } }),
        [{ path: ["tags"], message: "each tag must have a length between 1 and 20" }],
    );
});

test("POST /users: 400 with one detail per failing field", async () => {
    const body: NewUser = {
        name: "x".repeat(51),
        email: "not-an-email",
        age: 200,
        tags: ["a", "b", "c", "d", "e", "f"],
        active: true,
    };
    const answer = await api.POST("/users", { body });
    assert.equal(answer.response.status, 400);
    assert.equal(answer.error?.error, "Validation failed");
    assert.deepEqual(sortedDetails(answer.error?.details), [
        { path: ["age"], message: "must be between 0 and 150" },
        { path: ["email"], message: "must be a valid email address" },
        { path: ["name"], message: "length must be between 1 and 50" },
        { path: ["tags"], message: "length must be at most 5" },
    ]);
});

test("POST /users: a missing field is named by its own path", async () => {
    const noEmail = { name: "No Email" } as NewUser;
    expectValidation(await api.POST("/users", { body: noEmail }), [
        { path: ["email"], message: "missing field `email`" },
    ]);
    const empty = {} as NewUser;
    const answer = await api.POST("/users", { body: empty });
    assert.equal(answer.response.status, 400);
    assert.deepEqual(sortedDetails(answer.error?.details), [
        { path: ["email"], message: "missing field `email`" },
        { path: ["name"], message: "missing field `name`" },
    ]);
});

test("POST /users: every shape error is reported, not only the first", async () => {
    const body = { name: 5, email: "shape@example.com", age: -1 } as unknown as NewUser;
    const answer = await api.POST("/users", { body });
    assert.equal(answer.response.status, 400);
    assert.equal(answer.error?.error, "Validation failed");
    assert.deepEqual(sortedDetails(answer.error?.details), [
        { path: ["age"], message: "expected a non-negative integer (u16), found -1" },
        { path: ["name"], message: "invalid type: integer `5`, expected a string" },
    ]);
});

test("GET /users: all users in id order, default limit and offset", async () => {
    expectData(await api.GET("/users"), 200, { items: [ann, bob, cy], limit: 10, offset: 0, total: 3 });
});

test("GET /users: limit and offset page the list, total counts every match", async () => {
    expectData(await api.GET("/users", { params: { query: { limit: 1, offset: 1 } } }), 200, {
        items: [bob],
        limit: 1,
        offset: 1,
        total: 3,
    });
    expectData(await api.GET("/users", { params: { query: { limit: 2, offset: 2 } } }), 200, {
        items: [cy],
        limit: 2,
        offset: 2,
        total: 3,
    });
    expectData(await api.GET("/users", { params: { query: { offset: 5 } } }), 200, {
        items: [],
        limit: 10,
        offset: 5,
        total: 3,
    });
});

test("GET /users: active filters (the client sends true/false)", async () => {
    const inactive = await list({ active: false });
    assert.equal(inactive.sent, "active=false");
    assert.deepEqual(ids(inactive.answer), [2]);
    const active = await list({ active: true });
    assert.equal(active.sent, "active=true");
    assert.deepEqual(ids(active.answer), [1, 3]);
});

test("GET /users: limit and offset out of range are 400 with the field's path", async () => {
    expectValidation(await api.GET("/users", { params: { query: { limit: 0 } } }), [
        { path: ["limit"], message: "must be between 1 and 100" },
    ]);
    expectValidation(await api.GET("/users", { params: { query: { limit: 101 } } }), [
        { path: ["limit"], message: "must be between 1 and 100" },
    ]);
});

test("GET /users: tag array, openapi-fetch's default serialisation (form, explode: tag=a&tag=b)", async () => {
    const both = await list({ tag: ["red", "blue"] });
    assert.equal(both.sent, "tag=red&tag=blue");
    assert.deepEqual(ids(both.answer), [2]);
    const red = await list({ tag: ["red"] });
    assert.equal(red.sent, "tag=red");
    assert.deepEqual(ids(red.answer), [1, 2]);
    // An empty array is left out of the URL altogether.
    const none = await list({ tag: [] });
    assert.equal(none.sent, "");
    assert.deepEqual(ids(none.answer), [1, 2, 3]);
    const mixed = await list({ tag: ["red"], active: true, limit: 5 });
    assert.equal(mixed.sent, "tag=red&active=true&limit=5");
    assert.equal(mixed.answer.data?.total, 1);
    assert.deepEqual(ids(mixed.answer), [1]);
});

test("GET /users: tag array with an explicit { style: form, explode: true }", async () => {
    const both = await list({ tag: ["red", "blue"] }, { array: { style: "form", explode: true } });
    assert.equal(both.sent, "tag=red&tag=blue");
    assert.deepEqual(ids(both.answer), [2]);
});

test("GET /users: form without explode sends tag=red,blue, one tag value (the document says explode: true)", async () => {
    const joined = await list({ tag: ["red", "blue"] }, { array: { style: "form", explode: false } });
    assert.equal(joined.sent, "tag=red,blue");
    assert.deepEqual(ids(joined.answer), []);
});

// openapi-fetch has no bracket style for arrays (deepObject is for objects only), so these use
// a custom querySerializer, as a user of the generated client would.
function brackets(indexed: boolean, encoded: boolean): QuerySerializer<unknown> {
    return (query) =>
        Object.entries(query as Record<string, unknown>)
            .flatMap(([name, value]) =>
                Array.isArray(value)
                    ? value.map((v, i) => {
                          const key = `${name}[${indexed ? i : ""}]`;
                          return `${encoded ? encodeURIComponent(key) : key}=${encodeURIComponent(String(v))}`;
                      })
                    : [`${name}=${encodeURIComponent(String(value))}`],
            )
            .join("&");
}

test("GET /users: tag[]=red&tag[]=blue (literal brackets, custom querySerializer)", async () => {
    const both = await list({ tag: ["red", "blue"] }, brackets(false, false));
    assert.equal(both.sent, "tag[]=red&tag[]=blue");
    assert.deepEqual(ids(both.answer), [2]);
});

test("GET /users: tag[0]=red&tag[1]=blue (literal brackets, custom querySerializer)", async () => {
    const both = await list({ tag: ["red", "blue"] }, brackets(true, false));
    assert.equal(both.sent, "tag[0]=red&tag[1]=blue");
    assert.deepEqual(ids(both.answer), [2]);
});

test("GET /users: tag%5B%5D=red&tag%5B%5D=blue (encoded brackets, as URLSearchParams sends them)", async () => {
    const viaSearchParams: QuerySerializer<unknown> = (query) =>
        new URLSearchParams(((query as { tag?: string[] }).tag ?? []).map((t): [string, string] => ["tag[]", t])).toString();
    const both = await list({ tag: ["red", "blue"] }, viaSearchParams);
    assert.equal(both.sent, "tag%5B%5D=red&tag%5B%5D=blue");
    assert.deepEqual(ids(both.answer), [2]);
    const red = await list({ tag: ["red"] }, brackets(false, true));
    assert.equal(red.sent, "tag%5B%5D=red");
    assert.deepEqual(ids(red.answer), [1, 2]);
});

test("GET /users: tag%5B0%5D=red&tag%5B1%5D=blue (encoded indexed brackets)", async () => {
    const both = await list({ tag: ["red", "blue"] }, brackets(true, true));
    assert.equal(both.sent, "tag%5B0%5D=red&tag%5B1%5D=blue");
    assert.deepEqual(ids(both.answer), [2]);
});

test("GET /users/{id}: 200 the user, 404 User not found, 400 on a non-numeric id", async () => {
    expectData(await api.GET("/users/{id}", { params: { path: { id: 2 } } }), 200, bob);
    expectError(await api.GET("/users/{id}", { params: { path: { id: 99 } } }), 404, { error: "User not found" });
    const { urls, middleware } = recordUrls();
    const id = "abc" as unknown as number;
    const answer = await api.GET("/users/{id}", { params: { path: { id } }, middleware: [middleware] });
    assert.ok(urls[0]!.endsWith("/users/abc"), urls[0]);
    expectValidation(answer, [{ path: ["id"], message: 'invalid type: string "abc", expected u64' }]);
});

test("PUT /users/{id}: 200 the replaced user (id kept), 404, 409, 400", async () => {
    const replaced: User = { id: 2, name: "Robert", email: "robert@example.com", age: 41, tags: ["blue"], active: true };
    expectData(await api.PUT("/users/{id}", { params: { path: { id: 2 } }, body: newUser(replaced) }), 200, replaced);
    expectData(await api.GET("/users/{id}", { params: { path: { id: 2 } } }), 200, replaced);
    // Its own email, in another case, is not a conflict.
    const same = { ...replaced, email: "Robert@Example.com" };
    expectData(await api.PUT("/users/{id}", { params: { path: { id: 2 } }, body: newUser(same) }), 200, same);
    expectData(await api.PUT("/users/{id}", { params: { path: { id: 2 } }, body: newUser(bob) }), 200, bob);
    expectError(await api.PUT("/users/{id}", { params: { path: { id: 99 } }, body: newUser(bob) }), 404, {
        error: "User not found",
    });
    expectError(
        await api.PUT("/users/{id}", { params: { path: { id: 2 } }, body: { ...newUser(bob), email: "cy@EXAMPLE.com" } }),
        409,
        { error: "Email already exists" },
    );
    expectValidation(await api.PUT("/users/{id}", { params: { path: { id: 2 } }, body: { ...newUser(bob), age: 151 } }), [
        { path: ["age"], message: "must be between 0 and 150" },
    ]);
    expectData(await api.GET("/users/{id}", { params: { path: { id: 2 } } }), 200, bob);
});

test("PATCH /users/{id}: 200 with only the given fields changed, 404, 409, 400", async () => {
    const patched: User = { ...ann, name: "Annie", tags: ["red", "green"] };
    expectData(
        await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { name: "Annie", tags: ["red", "green"] } }),
        200,
        patched,
    );
    expectData(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: {} }), 200, patched);
    expectData(
        await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { name: "Ann", tags: ["red"] } }),
        200,
        ann,
    );
    expectError(await api.PATCH("/users/{id}", { params: { path: { id: 99 } }, body: { name: "Nobody" } }), 404, {
        error: "User not found",
    });
    expectError(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { email: "BOB@example.com" } }), 409, {
        error: "Email already exists",
    });
    expectValidation(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { name: "" } }), [
        { path: ["name"], message: "length must be between 1 and 50" },
    ]);
    // A merge patch (RFC 7396): `null` clears the age, absent keeps it, a value sets it.
    const ageless: User = { ...ann, age: null };
    expectData(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { age: null } }), 200, ageless);
    expectData(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: {} }), 200, ageless);
    expectData(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { age: 30 } }), 200, ann);
    expectValidation(await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { age: 151 } }), [
        { path: ["age"], message: "must be between 0 and 150" },
    ]);
    // The other fields cannot be cleared: not nullable in the document, a 400 from the server.
    // @ts-expect-error `name` is not nullable
    const clearName = await api.PATCH("/users/{id}", { params: { path: { id: 1 } }, body: { name: null } });
    expectValidation(clearName, [{ path: ["name"], message: "invalid type: null, expected a string" }]);
    expectData(await api.GET("/users/{id}", { params: { path: { id: 1 } } }), 200, ann);
});

test("DELETE /users/{id}: 200 {deleted, id}, then 404 everywhere", async () => {
    expectData(await api.DELETE("/users/{id}", { params: { path: { id: 3 } } }), 200, { deleted: true, id: 3 });
    expectError(await api.DELETE("/users/{id}", { params: { path: { id: 3 } } }), 404, { error: "User not found" });
    expectError(await api.GET("/users/{id}", { params: { path: { id: 3 } } }), 404, { error: "User not found" });
    expectError(await api.PUT("/users/{id}", { params: { path: { id: 3 } }, body: newUser(cy) }), 404, {
        error: "User not found",
    });
    expectData(await api.GET("/users"), 200, { items: [ann, bob], limit: 10, offset: 0, total: 2 });
    // Ids are not reused.
    const dee: User = { id: 4, name: "Dee", email: "cy@example.com", age: 0, tags: [], active: false };
    expectData(await api.POST("/users", { body: newUser(dee) }), 201, dee);
});
