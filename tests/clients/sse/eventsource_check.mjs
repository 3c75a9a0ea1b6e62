// The fixture's `GET /events` (FIXTURE.md row 19) read by npm `eventsource`, the WHATWG
// EventSource for node: each event must arrive exactly once. The client reconnects after every
// end of stream (the SSE spec's rule) with `Last-Event-ID`; the fixture resumes after that id
// and, with nothing after it, answers 204, on which the client stops for good.
//
//     node eventsource_check.mjs http://127.0.0.1:PORT
//
// Run from a folder whose node_modules holds `eventsource` (run.sh copies it next to the
// installed packages). Requests go through a `fetch` wrapper that records each request's
// `Last-Event-ID` and, in the second check, cuts the first answer after two events (a dropped
// connection). eventsource waits 3 s before each reconnection (the fixture sends no `retry:`),
// so the checks run side by side. Prints one line per check and a last line
// `node eventsource: N passed, M failed`; exits 1 when a check failed.
import { EventSource } from "eventsource";

const BASE = process.argv[2].replace(/\/$/, "");
const LIMIT_MS = 20_000;

/** A `fetch` that records each request's `Last-Event-ID`, and cuts the first answer's body
 * after `cutAfter` events when given. */
function recordingFetch(sent, cutAfter) {
  return async (url, init) => {
    const headers = new Headers(init?.headers);
    sent.push(headers.get("last-event-id"));
    const response = await fetch(url, init);
    if (cutAfter === undefined || sent.length > 1 || !response.body) {
      return response;
    }
    // Pass bytes through until `cutAfter` whole events went by, then break the body.
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const cut = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        seen += decoder.decode(value, { stream: true });
        const events = seen.split("\n\n");
        if (events.length - 1 >= cutAfter) {
          controller.enqueue(new TextEncoder().encode(events.slice(0, cutAfter).join("\n\n") + "\n\n"));
          reader.cancel().catch(() => {});
          controller.error(new Error("connection dropped by the check"));
          return;
        }
        controller.enqueue(value);
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
}

/** Reads `path` until the client gives up for good; resolves with the events' data and ids,
 * the `Last-Event-ID` of each request, and the code of the error that closed it. */
function readAll(path, cutAfter) {
  return new Promise((resolve, reject) => {
    const sent = [];
    const events = [];
    const source = new EventSource(BASE + path, { fetch: recordingFetch(sent, cutAfter) });
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`not closed within ${LIMIT_MS} ms; got ${JSON.stringify(events)}, sent ${JSON.stringify(sent)}`));
    }, LIMIT_MS);
    source.onmessage = (event) => events.push({ id: event.lastEventId, n: JSON.parse(event.data).n });
    source.onerror = (error) => {
      // A dropped or ended stream: eventsource reconnects by itself (CONNECTING). CLOSED: done.
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(timer);
        resolve({ events, sent, code: error.code });
      }
    };
  });
}

function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) {
    throw new Error(`${what}: got ${a}, expected ${e}`);
  }
}

const ticks = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: String(from + i), n: from + i }));

const CHECKS = [
  [
    "each event once: the stream ends, the client resumes with Last-Event-ID, gets 204, stops",
    async () => {
      const { events, sent, code } = await readAll("/events?count=3");
      assertEqual(events, ticks(1, 3), "events");
      assertEqual(sent, [null, "3"], "Last-Event-ID of each request");
      assertEqual(code, 204, "the status that closed it");
    },
  ],
  [
    "each event once after a dropped connection: resumed after the last id received",
    async () => {
      const { events, sent, code } = await readAll("/events?count=5", 2);
      assertEqual(events, ticks(1, 5), "events");
      assertEqual(sent, [null, "2", "5"], "Last-Event-ID of each request");
      assertEqual(code, 204, "the status that closed it");
    },
  ],
];

const results = await Promise.allSettled(CHECKS.map(([, run]) => run()));
let passed = 0;
let failed = 0;
results.forEach((result, i) => {
  const name = CHECKS[i][0];
  if (result.status === "fulfilled") {
    passed += 1;
    console.log(`ok   - ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL - ${name}\n       ${result.reason?.stack ?? result.reason}`);
  }
});
console.log(`node eventsource: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
