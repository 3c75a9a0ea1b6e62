// The generated client and a few assertion helpers shared by the *.test.ts files.
//
// `schema.d.ts` is not in the repository: run.sh generates it with openapi-typescript from the
// running fixture's GET /openapi.json, next to these files, before compiling them.

import assert from "node:assert/strict";
import createClient, { type ClientOptions, type Middleware } from "openapi-fetch";
import type { paths } from "./schema.js";

// Types by operation rather than by schema name, so that renaming a component schema (say, a
// request type split from its response type) does not break the suite.
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The 200 answer of `GET /users/{id}`. */
export type User = Json<paths["/users/{id}"]["get"]["responses"][200]>;
/** The body of `POST /users`. */
export type NewUser = Json<paths["/users"]["post"]["requestBody"]>;
/** The body of `POST /echo`. */
export type Echo = Json<paths["/echo"]["post"]["requestBody"]>;
/** The 404 answer of `GET /users/{id}`: the error body. */
export type ErrorBody = Json<paths["/users/{id}"]["get"]["responses"][404]>;
/** The query of `GET /users`. */
export type ListQuery = NonNullable<paths["/users"]["get"]["parameters"]["query"]>;

/** `http://127.0.0.1:PORT` of the running fixture, from run.sh. */
export const BASE_URL: string = (() => {
    const base = process.env.PACTUM_BASE_URL;
    if (!base) {
        throw new Error("PACTUM_BASE_URL is not set (run the suite through tests/clients/run.sh)");
    }
    return base;
})();

/** The token the fixture's auth middleware accepts. */
export const TOKEN = "secret-token";

/** A client for the fixture, with openapi-fetch's defaults unless `options` says otherwise. */
export function client(options: ClientOptions = {}) {
    return createClient<paths>({ baseUrl: BASE_URL, ...options });
}

/** A middleware that records the URL of every request the client sends. */
export function recordUrls(): { urls: string[]; middleware: Middleware } {
    const urls: string[] = [];
    return {
        urls,
        middleware: {
            onRequest({ request }) {
                urls.push(request.url);
                return undefined;
            },
        },
    };
}

/** The query string of a recorded URL, exactly as sent (no decoding). */
export function rawQuery(url: string): string {
    const at = url.indexOf("?");
    return at < 0 ? "" : url.slice(at + 1);
}

/** The path of a recorded URL, exactly as sent (no decoding). */
export function rawPath(url: string): string {
    const path = url.slice(BASE_URL.length);
    const at = path.indexOf("?");
    return at < 0 ? path : path.slice(0, at);
}

type Answer = { data?: unknown; error?: unknown; response: Response };

/** A success answer: exact status, `application/json`, exact body. */
export function expectData<T>(answer: { data?: T; error?: unknown; response: Response }, status: number, body: T): T {
    const { response } = answer;
    assert.equal(response.status, status, `status of ${response.url}: ${JSON.stringify(answer.error ?? answer.data)}`);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(answer.error, undefined);
    assert.deepEqual(answer.data, body);
    return answer.data as T;
}

/** An error answer: exact status, `application/json`, exact error body. */
export function expectError(answer: Answer, status: number, body: ErrorBody): void {
    const { response } = answer;
    assert.equal(response.status, status, `status of ${response.url}: ${JSON.stringify(answer.error ?? answer.data)}`);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(answer.data, undefined);
    assert.deepEqual(answer.error, body);
}

/** `400 Validation failed` with exactly these details. */
export function expectValidation(answer: Answer, details: ErrorBody["details"]): void {
    expectError(answer, 400, details === undefined ? { error: "Validation failed" } : { error: "Validation failed", details });
}
