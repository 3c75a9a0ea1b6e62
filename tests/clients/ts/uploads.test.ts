// FIXTURE.md row 24: POST /uploads, a multipart form, sent the way a browser or node's fetch
// sends one (FormData: the boundary is fetch's own), through the generated client.

import { createHash } from "node:crypto";
import { test } from "node:test";
import { client, expectData, expectError, expectValidation } from "./client.js";

const api = client();

/** The form of POST /uploads as FormData; `file` omitted when null. */
function form(title: string | null, file: Uint8Array | null, filename = "data.bin"): FormData {
    const data = new FormData();
    if (title !== null) {
        data.append("title", title);
    }
    if (file !== null) {
        data.append("file", new Blob([file], { type: "application/octet-stream" }), filename);
    }
    return data;
}

/** POST /uploads with this FormData (the generated body type says what the fields are; the
 * bytes go through `bodySerializer`). */
function upload(data: FormData) {
    return api.POST("/uploads", {
        body: { title: "", file: "" },
        bodySerializer: () => data,
    });
}

test("POST /uploads: 201 with the title, file name, size and lowercase hex SHA-256", async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7) % 256);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    expectData(await upload(form("From fetch", bytes, "photo.jpg")), 201, {
        title: "From fetch",
        filename: "photo.jpg",
        size: bytes.length,
        sha256,
    });
});

test("POST /uploads: a file of exactly 1 MiB is taken, one byte more is a 413 naming it", async () => {
    const exact = new Uint8Array(1 << 20);
    const answer = await upload(form("Exact", exact));
    expectData(answer, 201, {
        title: "Exact",
        filename: "data.bin",
        size: 1 << 20,
        sha256: createHash("sha256").update(exact).digest("hex"),
    });
    expectError(await upload(form("Over", new Uint8Array((1 << 20) + 1))), 413, {
        error: "Payload too large",
        details: [{ path: ["file"], message: "must be at most 1048576 bytes" }],
    });
});

test("POST /uploads: a missing title or file is a 400 naming it", async () => {
    expectValidation(await upload(form(null, new Uint8Array([1]))), [
        { path: ["title"], message: "missing field `title`" },
    ]);
    expectValidation(await upload(form("No file", null)), [{ path: ["file"], message: "missing field `file`" }]);
});
