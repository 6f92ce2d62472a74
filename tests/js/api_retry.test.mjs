// Unit tests of the API client's retry helper (api.withRetry), fetch stubbed, no waiting.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import api, { ApiError, isRetryable, withRetry } from "../../web_service/static/api.js";

let waits;
const sleep = async (ms) => { waits.push(ms); };
const DELAYS = [1, 2, 4, 8, 16];

beforeEach(() => { waits = []; });

// fetch answering each call with the next of `plan`: "reject", or [status, body].
function stubFetch(plan) {
  const calls = [];
  globalThis.fetch = async (url, init) => {
    calls.push({ url, init });
    const step = plan[Math.min(calls.length - 1, plan.length - 1)];
    if (step === "reject") throw new TypeError("Failed to fetch");
    const [status, body] = step;
    return { ok: status >= 200 && status < 300, status, json: async () => body };
  };
  return calls;
}

const OK = [200, { status: "success", data: { n: 1 }, message: "", error_code: null }];

test("a request the network dropped is asked again and the later answer returned", async () => {
  const calls = stubFetch(["reject", "reject", OK]);
  const answer = await withRetry(() => api.post("/plugins/update", { plugin_id: "a" }),
                                 { delays: DELAYS, sleep });
  assert.deepEqual(answer.data, { n: 1 });
  assert.equal(calls.length, 3);
  assert.deepEqual(waits, [1, 2]);  // the backoff, in order
});

test("502, 503 and 504 are retried", async () => {
  for (const status of [502, 503, 504]) {
    waits = [];
    const calls = stubFetch([[status, "<html>gateway</html>"], OK]);
    await withRetry(() => api.get("/x"), { delays: DELAYS, sleep });
    assert.equal(calls.length, 2, `status ${status}`);
  }
});

test("a 4xx refusal is thrown at once, never retried", async () => {
  for (const status of [400, 404, 409]) {
    waits = [];
    const calls = stubFetch([[status, { status: "error", message: "no", error_code: "JOB_RUNNING" }]]);
    await assert.rejects(withRetry(() => api.post("/plugins/update", {}), { delays: DELAYS, sleep }),
                         (err) => err instanceof ApiError && err.status === status);
    assert.equal(calls.length, 1);
    assert.deepEqual(waits, []);
  }
});

test("five more attempts at most, then the last failure is thrown", async () => {
  const calls = stubFetch(["reject"]);
  const told = [];
  await assert.rejects(
    withRetry(() => api.get("/x"), { delays: DELAYS, sleep,
                                     onRetry: (err, attempt, wait) => told.push([attempt, wait]) }),
    (err) => err.error_code === "NETWORK_ERROR");
  assert.equal(calls.length, 6);
  assert.deepEqual(waits, DELAYS);
  assert.deepEqual(told, [[1, 1], [2, 2], [3, 4], [4, 8], [5, 16]]);
});

test("the default backoff is 1, 2, 4, 8, 16 seconds", async () => {
  stubFetch(["reject"]);
  await assert.rejects(withRetry(() => api.get("/x"), { sleep }));
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000]);
});

test("attempts is bounded and a short delay list repeats its last delay", async () => {
  const calls = stubFetch(["reject"]);
  await assert.rejects(withRetry(() => api.get("/x"), { attempts: 3, delays: [5], sleep }));
  assert.equal(calls.length, 4);
  assert.deepEqual(waits, [5, 5, 5]);
  waits = [];
  const many = stubFetch(["reject"]);
  await assert.rejects(withRetry(() => api.get("/x"), { attempts: 1e9, delays: [0], sleep }));
  assert.equal(many.length, 21);  // never more than 20 retries whatever is asked
});

test("a 429 of the rate limit is asked again after the wait it names", async () => {
  const limited = [429, { status: "error", data: null, message: "retry in 7 seconds",
                          error_code: "RATE_LIMITED", details: { group: "store", retry_after: 7 } }];
  const calls = stubFetch([limited, OK]);
  const answer = await withRetry(() => api.post("/plugins/update", { plugin_id: "a" }),
                                 { delays: DELAYS, sleep });
  assert.deepEqual(answer.data, { n: 1 });
  assert.equal(calls.length, 2);
  assert.deepEqual(waits, [7000]);
});

test("a 429 that is not the rate limit (wrong passwords, busy actions) is not retried", async () => {
  for (const code of ["ACTION_BUSY", "RATE_LIMITED"]) {
    waits = [];
    const details = code === "RATE_LIMITED" ? { retry_after: "soon" } : null;
    const calls = stubFetch([[429, { status: "error", message: "no", error_code: code, details }]]);
    await assert.rejects(withRetry(() => api.get("/x"), { delays: DELAYS, sleep }));
    assert.equal(calls.length, 1, code);
  }
});

test("only network-level failures count as retryable", () => {
  assert.ok(isRetryable(new ApiError("NETWORK_ERROR", "down")));
  assert.ok(isRetryable(new ApiError("API_ERROR", "x", { status: 503 })));
  assert.ok(isRetryable(new ApiError("REGISTRY_UNAVAILABLE", "x", { status: 503 })));
  assert.ok(!isRetryable(new ApiError("INVALID_FIELD", "x", { status: 400 })));
  assert.ok(!isRetryable(new ApiError("INTERNAL", "x", { status: 500 })));
  assert.ok(!isRetryable(new Error("plain")));
});

test("DELETE can carry a JSON body", async () => {
  const calls = stubFetch([OK]);
  await api.del("/plugins/store/sources", { kind: "registry", url: "https://x/y.json" });
  assert.equal(calls[0].init.method, "DELETE");
  assert.deepEqual(JSON.parse(calls[0].init.body), { kind: "registry", url: "https://x/y.json" });
});
