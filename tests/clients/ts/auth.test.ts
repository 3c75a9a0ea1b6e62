// FIXTURE.md rows 10 and 11: bearer-token middleware, which runs before the body is read.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Middleware } from "openapi-fetch";
import { TOKEN, client, expectData, expectError, expectValidation } from "./client.js";

const anonymous = client();

/** The way openapi-fetch's docs add a bearer token: a middleware on the client. */
function bearer(token: string): Middleware {
    return {
        onRequest({ request }) {
            request.headers.set("Authorization", `Bearer ${token}`);
            return request;
        },
    };
}

const alice = client();
alice.use(bearer(TOKEN));

test("GET /me: 401 Unauthorized without a token, with WWW-Authenticate: Bearer", async () => {
    const answer = await anonymous.GET("/me");
    expectError(answer, 401, { error: "Unauthorized" });
    assert.equal(answer.response.headers.get("www-authenticate"), "Bearer");
});

test("GET /me: 401 Unauthorized with another scheme", async () => {
    expectError(await anonymous.GET("/me", { headers: { Authorization: "Basic YWxpY2U6c2VjcmV0" } }), 401, {
        error: "Unauthorized",
    });
    expectError(await anonymous.GET("/me", { headers: { Authorization: TOKEN } }), 401, { error: "Unauthorized" });
});

test("GET /me: 401 Invalid token with another token", async () => {
    const answer = await anonymous.GET("/me", { headers: { Authorization: "Bearer not-the-token" } });
    expectError(answer, 401, { error: "Invalid token" });
    assert.equal(answer.response.headers.get("www-authenticate"), "Bearer");
});

test("GET /me: 200 with the token (per-request header and client middleware)", async () => {
    expectData(await anonymous.GET("/me", { headers: { Authorization: `Bearer ${TOKEN}` } }), 200, { user: "alice" });
    expectData(await alice.GET("/me"), 200, { user: "alice" });
});

test("POST /me/notes: 201 with the token", async () => {
    expectData(await alice.POST("/me/notes", { body: { text: "hello" } }), 201, { user: "alice", text: "hello" });
});

test("POST /me/notes: 401 before the body is read, whatever the body", async () => {
    expectError(await anonymous.POST("/me/notes", { body: { text: "hello" } }), 401, { error: "Unauthorized" });
    // A body that breaks its rules, and one that is not JSON at all.
    expectError(await anonymous.POST("/me/notes", { body: { text: "" } }), 401, { error: "Unauthorized" });
    expectError(
        await anonymous.POST("/me/notes", {
            body: { text: "x" },
            bodySerializer: () => "{not json",
            headers: { Authorization: "Bearer wrong" },
        }),
        401,
        { error: "Invalid token" },
    );
});

test("POST /me/notes: 400 with the token and a body that breaks its rules", async () => {
    expectValidation(await alice.POST("/me/notes", { body: { text: "" } }), [
        { path: ["text"], message: "length must be between 1 and 200" },
    ]);
    expectValidation(await alice.POST("/me/notes", { body: { text: "x".repeat(201) } }), [
        { path: ["text"], message: "length must be between 1 and 200" },
    ]);
});
