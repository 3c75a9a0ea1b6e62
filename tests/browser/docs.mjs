// The docs page in a real browser (run by run.sh): opens BASE/docs in headless Chromium with
// every request to another host than the server aborted, and checks what a reader sees.
//
//   node docs.mjs BASE_URL SCREENSHOT
//
// Environment: PACTUM_NODE_DIR (where playwright-core is installed), CHROMIUM (the browser).
// Prints one line per check; exits 1 when any failed, 2 when it could not run at all.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [base, screenshot] = process.argv.slice(2);
if (!base || !screenshot) {
  console.error("usage: node docs.mjs BASE_URL SCREENSHOT");
  process.exit(2);
}
const require = createRequire(resolve(process.env.PACTUM_NODE_DIR ?? ".", "package.json"));
const { chromium } = require("playwright-core");

// Every step is bounded; the whole run too (run.sh bounds the process as well).
const STEP_MS = 30_000;
const overall = setTimeout(() => {
  console.error(`FAIL the run took over 150 s`);
  process.exit(1);
}, 150_000);

const failures = [];
const check = (ok, what, detail = "") => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ` (${detail})` : ""}`);
  if (!ok) failures.push(what);
};

// The document, as the page will read it: its title and every operation.
const response = await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(STEP_MS) });
const doc = await response.json();
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ method, path })),
);
const title = doc.info.title;
console.log(`document: "${title}", ${operations.length} operations`);

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const blocked = [];
const pageErrors = [];
const consoleErrors = [];
const userDataDir = mkdtempSync(join(tmpdir(), "pactum-browser-"));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM,
    headless: true,
    timeout: STEP_MS,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(STEP_MS);
  // Offline: anything not on the loopback server is aborted, and counted.
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (LOOPBACK.has(url.hostname)) {
      return route.continue();
    }
    blocked.push(route.request().url());
    return route.abort("blockedbyclient");
  });
  // A Content-Security-Policy without 'unsafe-inline' for scripts: the page has none.
  const violations = [];
  await context.exposeFunction("pactumCspViolation", (v) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      window.pactumCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await context.route(`${base}/docs`, async (route) => {
    const answer = await route.fetch();
    const headers = {
      ...answer.headers(),
      "content-security-policy": "script-src 'self'; object-src 'none'; base-uri 'none'",
    };
    await route.fulfill({ response: answer, headers });
  });

  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));

  const answer = await page.goto(`${base}/docs`, { waitUntil: "load" });
  check(answer?.status() === 200, "GET /docs answers 200", `${answer?.status()}`);

  // Every operation of the document is on the page.
  await page
    .waitForFunction((n) => document.querySelectorAll(".opblock").length >= n, operations.length)
    .catch(() => {});
  const shown = await page.$$eval(".opblock", (blocks) =>
    blocks.map((b) => ({
      method: b.querySelector(".opblock-summary-method")?.textContent.trim().toLowerCase(),
      path: b.querySelector(".opblock-summary-path")?.getAttribute("data-path"),
    })),
  );
  const key = (op) => `${op.method} ${op.path}`;
  const shownKeys = new Set(shown.map(key));
  const missing = operations.filter((op) => !shownKeys.has(key(op)));
  check(
    shown.length === operations.length && missing.length === 0,
    `every operation is rendered (${shown.length} of ${operations.length})`,
    missing.length ? `missing: ${missing.map(key).join(", ")}` : "",
  );

  check((await page.title()) === title, `the page's title is the API's`, await page.title());
  const heading = await page.locator(".info .title").first().textContent();
  check(heading.includes(title), "Swagger UI shows the document's title", heading);

  const block = (method, path) =>
    page.locator(`.opblock.opblock-${method}`).filter({
      has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });
  const opened = async (method, path) => {
    const op = block(method, path);
    await op.locator(".opblock-summary").first().click();
    await op.locator(".opblock-body").waitFor();
    return op;
  };

  // Whether an opened operation's body comes to show `text`: Swagger UI renders its parts
  // one after the other, so the text is waited for (up to 5 s), not read once.
  const shows = async (op, text) => {
    try {
      await op.locator(".opblock-body", { hasText: text }).waitFor({ timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  };

  // Server-sent events and a multipart upload show their media types.
  if (doc.paths["/events"]?.get) {
    const events = await opened("get", "/events");
    check(await shows(events, "text/event-stream"), "GET /events shows text/event-stream");
  }
  if (doc.paths["/uploads"]?.post) {
    const uploads = await opened("post", "/uploads");
    check(
      await shows(uploads, "multipart/form-data"),
      "POST /uploads shows multipart/form-data",
    );
  }

  // Try it out on GET /health: the live answer of the server.
  const health = await opened("get", "/health");
  await health.getByRole("button", { name: "Try it out" }).click();
  await health.getByRole("button", { name: "Execute" }).click();
  const live = health.locator(".live-responses-table tbody tr.response").first();
  await live.waitFor();
  const status = (await live.locator(".response-col_status").textContent()).trim();
  const body = await live.locator(".response-col_description").textContent();
  check(status === "200", "Try it out on GET /health shows status 200", status);
  check(
    /"status":\s*"ok"/.test(body),
    'Try it out on GET /health shows its body {"status":"ok"}',
    body.replace(/\s+/g, " ").slice(0, 80),
  );

  // The whole page, and two readable parts: the top, and GET /health with its live answer.
  await page.screenshot({ path: screenshot, fullPage: true });
  const part = (name) => screenshot.replace(/\.png$/, `-${name}.png`);
  await page.screenshot({
    path: part("top"),
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: 1400 },
  });
  await health.screenshot({ path: part("health") });
  console.log(`screenshots: ${screenshot}, ${part("top")}, ${part("health")}`);

  check(violations.length === 0, "no Content-Security-Policy violation", violations.join("; "));
} catch (e) {
  check(false, "the page could be driven", String(e).split("\n")[0]);
} finally {
  await context?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
  clearTimeout(overall);
}

check(blocked.length === 0, "the page asked for nothing outside the server", blocked.join(", "));
check(pageErrors.length === 0, "no script error on the page", pageErrors.join("; "));
if (consoleErrors.length) {
  console.log(`console errors (not failures): ${consoleErrors.join("; ")}`);
}
if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all checks passed");
