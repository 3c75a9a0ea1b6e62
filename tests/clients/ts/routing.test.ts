// FIXTURE.md rows 8 and 9: pattern params and the catch-all, with values the generated client
// percent-encodes (openapi-fetch encodes each path param with encodeURIComponent, `/` included).

import assert from "node:assert/strict";
import { test } from "node:test";
import { client, expectData, expectError, expectValidation, rawPath, recordUrls } from "./client.js";

const api = client();

async function repo(org: string, repo: string) {
    const { urls, middleware } = recordUrls();
    const answer = await api.GET("/orgs/{org}/repos/{repo}", { params: { path: { org, repo } }, middleware: [middleware] });
    return { answer, sent: rawPath(urls[0]!) };
}

async function file(path: string, c = api) {
    const { urls, middleware } = recordUrls();
    const answer = await c.GET("/files/{path}", { params: { path: { path } }, middleware: [middleware] });
    return { answer, sent: rawPath(urls[0]!) };
}

test("GET /orgs/{org}/repos/{repo}: plain values", async () => {
    const { answer, sent } = await repo("pactum", "core");
    assert.equal(sent, "/orgs/pactum/repos/core");
    expectData(answer, 200, { org: "pactum", repo: "core" });
});

test("GET /orgs/{org}/repos/{repo}: percent-encoded values come back decoded", async () => {
    const cases: [string, string, string][] = [
        ["a b", "c/d", "/orgs/a%20b/repos/c%2Fd"],
        ["café", "日本", "/orgs/caf%C3%A9/repos/%E6%97%A5%E6%9C%AC"],
        ["100%", "a+b?c#d", "/orgs/100%25/repos/a%2Bb%3Fc%23d"],
        ["[x]", "semi;colon=1&2", "/orgs/%5Bx%5D/repos/semi%3Bcolon%3D1%262"],
    ];
    for (const [org, name, path] of cases) {
        const { answer, sent } = await repo(org, name);
        assert.equal(sent, path);
        expectData(answer, 200, { org, repo: name });
    }
});

test("GET /files/{path}: one segment", async () => {
    const { answer, sent } = await file("readme.md");
    assert.equal(sent, "/files/readme.md");
    expectData(answer, 200, { path: "readme.md" });
});

test("GET /files/{path}: slashes and other characters, encoded by the client, decoded by the server", async () => {
    const cases: [string, string][] = [
        ["docs/guide/intro.md", "/files/docs%2Fguide%2Fintro.md"],
        ["a b/ü.txt", "/files/a%20b%2F%C3%BC.txt"],
        ["50%/x?y#z", "/files/50%25%2Fx%3Fy%23z"],
    ];
    for (const [value, path] of cases) {
        const { answer, sent } = await file(value);
        assert.equal(sent, path);
        expectData(answer, 200, { path: value });
    }
});

test("GET /files/{path}: the catch-all with real slashes (a pathSerializer that encodes segment by segment)", async () => {
    const perSegment = client({
        pathSerializer: (pathname, params) =>
            pathname.replace("{path}", String(params.path).split("/").map(encodeURIComponent).join("/")),
    });
    const { answer, sent } = await file("docs/guide/ü b.md", perSegment);
    assert.equal(sent, "/files/docs/guide/%C3%BC%20b.md");
    expectData(answer, 200, { path: "docs/guide/ü b.md" });
});

test("GET /files/{path}: a `..` value never reaches the handler (the URL parser removes it: GET /)", async () => {
    const { answer, sent } = await file("..");
    assert.equal(sent, "/");
    expectError(answer, 404, { error: "Not found" });
});

test("GET /files/{path}: `..` between encoded slashes is refused too (400 on path)", async () => {
    const cases: [string, string][] = [
        ["a/../b", "/files/a%2F..%2Fb"],
        ["../etc/passwd", "/files/..%2Fetc%2Fpasswd"],
        ["a/./b", "/files/a%2F.%2Fb"],
        ["a//b", "/files/a%2F%2Fb"],
    ];
    for (const [value, path] of cases) {
        const { answer, sent } = await file(value);
        assert.equal(sent, path);
        expectValidation(answer, [{ path: ["path"], message: "must not have an empty, `.` or `..` segment" }]);
    }
});
