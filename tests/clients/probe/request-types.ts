// Type-level checks of the types openapi-typescript generates from the fixture's document, with
// its default options (as a user runs it). Not run: ts/types.test.ts compiles this file with
// `strict` and reports the compiler's errors per `// check:` block.
//
// Requests must accept what the contract accepts: a field with a serde default (NewUser's `tags`
// and `active`) or an optional field may be left out. Responses must promise what the server
// always sends: every field of a User is present (`age` as null).

import type { paths } from "../src/schema.js";

type JsonBody<T> = T extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Query<T> = T extends { parameters: { query?: infer Q } } ? Q : never;
type User = paths["/users/{id}"]["get"]["responses"][200] extends { content: { "application/json": infer U } } ? U : never;

// check: POST /users accepts a NewUser without tags and active (defaults [] and true)
export const createMinimal: JsonBody<paths["/users"]["post"]> = { name: "Ann", email: "ann@example.com" };

// check: PUT /users/{id} accepts a NewUser without tags and active (defaults [] and true)
export const replaceMinimal: JsonBody<paths["/users/{id}"]["put"]> = { name: "Ann", email: "ann@example.com" };

// check: PATCH /users/{id} accepts an empty patch
export const emptyPatch: JsonBody<paths["/users/{id}"]["patch"]> = {};

// check: PATCH /users/{id} accepts null for age (a merge patch: it clears the age)
export const clearAge: JsonBody<paths["/users/{id}"]["patch"]> = { age: null };

// check: PATCH /users/{id} refuses null for a field that cannot be cleared
// @ts-expect-error `name` is not nullable
export const clearName: JsonBody<paths["/users/{id}"]["patch"]> = { name: null };

// check: POST /echo accepts a body without its optional note
export const echoWithoutNote: JsonBody<paths["/echo"]["post"]> = { items: [{ sku: "a", qty: 1 }] };

// check: GET /users accepts no query at all, and each query field alone
export const noQuery: Query<paths["/users"]["get"]> = {};
export const onlyTag: Query<paths["/users"]["get"]> = { tag: ["red"] };

// check: GET /slow requires ms
// @ts-expect-error `ms` has no default
export const slowWithoutMs: NonNullable<Query<paths["/slow"]["get"]>> = {};

// check: a User answer has every field, age included (as null)
export const user: User = {
    id: 1,
    name: "Ann",
    email: "ann@example.com",
    age: null,
    tags: [],
    active: true,
};
// @ts-expect-error a User answer always has `tags` and `active`
export const partialUser: User = { id: 1, name: "Ann", email: "ann@example.com", age: null };
// @ts-expect-error a User answer always has `age`, null when unknown
export const userWithoutAge: User = {
    id: 1,
    name: "Ann",
    email: "ann@example.com",
    tags: [],
    active: true,
};
