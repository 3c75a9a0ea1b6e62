// Compiles probe/request-types.ts (strict) against the generated schema.d.ts and reports the
// compiler's errors per `// check:` block of that file, one test each: what the generated types
// force on a client, and what they promise about answers.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const probe = fileURLToPath(new URL("../probe/request-types.ts", import.meta.url));

const program = ts.createProgram([probe], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: false,
});
const diagnostics = ts.getPreEmitDiagnostics(program);
const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
};

// The `// check:` blocks of the probe: [name, first line, last line] (0-based).
const lines = readFileSync(probe, "utf8").split("\n");
const blocks: [string, number, number][] = [];
lines.forEach((line, i) => {
    const m = /^\/\/ check: (.*)$/.exec(line);
    if (m) {
        const last = blocks.at(-1);
        if (last) last[2] = i - 1;
        blocks.push([m[1]!, i, lines.length - 1]);
    }
});

function lineOf(d: ts.Diagnostic): number | undefined {
    if (!d.file || d.start === undefined || d.file.fileName !== probe.replaceAll("\\", "/")) return undefined;
    return d.file.getLineAndCharacterOfPosition(d.start).line;
}

test("probe: every diagnostic belongs to a check block", () => {
    const stray = diagnostics.filter((d) => {
        const line = lineOf(d);
        return line === undefined || !blocks.some(([, from, to]) => line >= from && line <= to);
    });
    assert.equal(stray.length, 0, ts.formatDiagnostics(stray, host));
    assert.ok(blocks.length >= 5, `found ${blocks.length} check blocks`);
});

for (const [name, from, to] of blocks) {
    test(`generated types: ${name}`, () => {
        const mine = diagnostics.filter((d) => {
            const line = lineOf(d);
            return line !== undefined && line >= from && line <= to;
        });
        assert.equal(mine.length, 0, ts.formatDiagnostics(mine, host));
    });
}
