// FIXTURE.md rows 1 and 12-18: health, middleware order, the error routes, nested validation
// and the slow route; the webhook's declared header (row 20), the cookie params (row 26) and
// the declared response headers (row 28).

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { client, expectData, expectError, expectValidation, type Echo } from "./client.js";

const api = client();

test("GET /health: 200 {status: ok}", async () => {
    expectData(await api.GET("/health"), 200, { status: "ok" });
});

test("GET /trace: outer then inner on the way in, x-trace-after: inner,outer on the way out", async () => {
    const answer = await api.GET("/trace");
    expectData(answer, 200, { trace: ["outer:before", "inner:before", "handler"] });
    assert.equal(answer.response.headers.get("x-trace-after"), "inner,outer");
});

test("GET /errors/plain: 500 with the error's message", async () => {
    expectError(await api.GET("/errors/plain"), 500, { error: "boom" });
});

test("GET /errors/status/{code}: that status and `custom error`", async () => {
    for (const code of [400, 404, 418, 429, 451, 500, 503, 599]) {
        expectError(await api.GET("/errors/status/{code}", { params: { path: { code } } }), code, {
            error: "custom error",
        });
    }
});

test("GET /errors/status/{code}: a code outside 400..=599 is a 400 on `code`", async () => {
    for (const code of [399, 600, 200]) {
        expectValidation(await api.GET("/errors/status/{code}", { params: { path: { code } } }), [
            { path: ["code"], message: "must be between 400 and 599" },
        ]);
    }
});

test("GET /errors/panic: 500 Internal server error, and the server keeps serving", async () => {
    for (let i = 0; i < 3; i++) {
        expectError(await api.GET("/errors/panic"), 500, { error: "Internal server error" });
        expectData(await api.GET("/health"), 200, { status: "ok" });
    }
});

test("GET /errors/bad-response: 500 Response validation failed, no details", async () => {
    expectError(await api.GET("/errors/bad-response"), 500, { error: "Response validation failed" });
});

test("POST /echo: 201 with the body as parsed", async () => {
    const body: Echo = { items: [{ sku: "a-1", qty: 1 }, { sku: "b".repeat(20), qty: 99 }] };
    expectData(await api.POST("/echo", { body }), 201, body);
    const noted: Echo = { items: [{ sku: "ü", qty: 5 }], note: "n".repeat(200) };
    expectData(await api.POST("/echo", { body: noted }), 201, noted);
    // `note: null` is accepted (the document says string|null) and left out of the answer.
    expectData(await api.POST("/echo", { body: { items: [{ sku: "c", qty: 2 }], note: null } }), 201, {
        items: [{ sku: "c", qty: 2 }],
    });
});

test("POST /echo: 400 with one detail per failing field, nested paths", async () => {
    expectValidation(
        await api.POST("/echo", {
            body: {
                items: [
                    { sku: "a", qty: 1 },
                    { sku: "", qty: 100 },
                ],
            },
        }),
        [
            { path: ["items", 1, "qty"], message: "must be between 1 and 99" },
            { path: ["items", 1, "sku"], message: "length must be between 1 and 20" },
        ],
    );
    expectValidation(await api.POST("/echo", { body: { items: [] } }), [
        { path: ["items"], message: "length must be at least 1" },
    ]);
    expectValidation(await api.POST("/echo", { body: { items: [{ sku: "a", qty: 1 }], note: "n".repeat(201) } }), [
        { path: ["note"], message: "length must be at most 200" },
    ]);
    expectValidation(await api.POST("/echo", { body: { items: [{ sku: "a", qty: 0 }] } }), [
        { path: ["items", 0, "qty"], message: "must be between 1 and 99" },
    ]);
});

test("GET /slow?ms=10: 200 {slept: 10} after about that long", async () => {
    const started = performance.now();
    expectData(await api.GET("/slow", { params: { query: { ms: 10 } } }), 200, { slept: 10 });
    assert.ok(performance.now() - started >= 9, "answered before sleeping 10 ms");
    expectData(await api.GET("/slow", { params: { query: { ms: 0 } } }), 200, { slept: 0 });
});

test("GET /slow: ms over 10000 is a 400 on `ms`", async () => {
    expectValidation(await api.GET("/slow", { params: { query: { ms: 10001 } } }), [
        { path: ["ms"], message: "must be between 0 and 10000" },
    ]);
});

test("POST /webhooks: the x-signature header the document declares, computed over the body, 200", async () => {
    const body = { event: "order.paid" };
    // openapi-fetch sends JSON.stringify(body): the signature is over those exact bytes.
    const bytes = JSON.stringify(body);
    const signature = "sha256=" + createHmac("sha256", "whsec").update(bytes).digest("hex");
    const answer = await api.POST("/webhooks", { body, params: { header: { "x-signature": signature } } });
    expectData(answer, 200, { ok: true, event: "order.paid", bytes: bytes.length });
    const wrong = "sha256=" + "0".repeat(64);
    expectError(await api.POST("/webhooks", { body, params: { header: { "x-signature": wrong } } }), 401, {
        error: "Invalid signature",
    });
});

test("GET /session: the cookie params the document declares", async () => {
    // openapi-fetch does not write cookie parameters: the Cookie header is set by hand.
    const answer = await api.GET("/session", {
        params: { cookie: { session: "abcdefgh", theme: "dark" } },
        headers: { cookie: "session=abcdefgh; theme=dark" },
    });
    expectData(answer, 200, { session: "abcdefgh", theme: "dark" });
    expectValidation(await api.GET("/session", { params: { cookie: { session: "abc" } }, headers: { cookie: "session=abc" } }), [
        { path: ["session"], message: "length must be between 8 and 64" },
    ]);
});

test("POST /tickets: 201 with the Location and X-Total-Count the document declares", async () => {
    const first = await api.POST("/tickets", { body: { subject: "printer" } });
    assert.equal(first.response.status, 201);
    assert.ok(first.data, "a body");
    assert.equal(first.response.headers.get("location"), `/tickets/${first.data.id}`);
    const second = await api.POST("/tickets", { body: { subject: "scanner" } });
    assert.ok(second.data, "a body");
    assert.equal(second.data.id, first.data.id + 1);
    assert.equal(second.response.headers.get("x-total-count"), String(second.data.id));
});
