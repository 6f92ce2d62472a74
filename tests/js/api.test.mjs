// Unit tests of the browser API client (web_service/static/api.js), fetch stubbed.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import api, { ApiError, checkPath, pluginPath } from "../../web_service/static/api.js";

let calls;

function answer(status, body, { json = true } = {}) {
  return async (url, init) => {
    calls.push({ url, init });
    return {
      ok: status >= 200 && status < 300,
      status,
      json: async () => {
        if (!json) throw new SyntaxError("Unexpected token < in JSON");
        return body;
      },
    };
  };
}

beforeEach(() => {
  calls = [];
  globalThis.fetch = answer(200, { status: "success", data: { ok: 1 }, message: "", error_code: null });
  delete globalThis.document;
});

async function refusal(promise) {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApiError, `not an ApiError: ${err}`);
    return err;
  }
  assert.fail("the call did not fail");
}

test("a GET goes to /api/v3 plus the path and returns the envelope", async () => {
  const body = await api.get("/system/status");
  assert.deepEqual(body.data, { ok: 1 });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, "/api/v3/system/status");
  assert.equal(calls[0].init.method, "GET");
  assert.equal(calls[0].init.body, undefined);
});

test("a POST of an object sends JSON; a DELETE sends no body", async () => {
  await api.post("/plugins/toggle", { plugin_id: "clock", enabled: false });
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  assert.deepEqual(JSON.parse(calls[0].init.body), { plugin_id: "clock", enabled: false });
  assert.equal(calls[0].init.headers["X-Ledpanel-Token"], undefined);
  await api.del("/cache/weather");
  assert.equal(calls[1].init.method, "DELETE");
  assert.equal(calls[1].init.body, undefined);
});

test("a form or text post carries the page token", async () => {
  globalThis.document = { querySelector: () => ({ content: "tok-123" }) };
  await api.post("/config/raw/main", "{}");
  assert.equal(calls[0].init.headers["X-Ledpanel-Token"], "tok-123");
  assert.equal(calls[0].init.headers["Content-Type"], undefined);
  await api.post("/plugins/toggle", new URLSearchParams({ plugin_id: "clock" }));
  assert.equal(calls[1].init.headers["X-Ledpanel-Token"], "tok-123");
});

test("every call from a page carries its token: JSON posts and GETs too", async () => {
  globalThis.document = { querySelector: () => ({ content: "tok-123" }) };
  await api.post("/auth/password", { password: "correct horse battery" });
  assert.equal(calls[0].init.headers["X-Ledpanel-Token"], "tok-123");
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  await api.get("/backup/pre-restore");
  assert.equal(calls[1].init.headers["X-Ledpanel-Token"], "tok-123");
});

for (const path of ["//evil.example/x", "/a\\b", "/plugins/../config", "/./status", "/a/..",
                    "/a/%2e%2e/b", "/a/%2E", "/a b", "/a\tb", "/a\nb", "/a\u0000", "/a\u007f",
                    "status", "", "http://evil.example/api", "/a/%2Fb", "/a/%zz", null, 42]) {
  test(`INVALID_ENDPOINT before any request: ${JSON.stringify(path)}`, async () => {
    for (const call of [() => api.get(path), () => api.post(path, {}), () => api.del(path)]) {
      const err = await refusal(call());
      assert.equal(err.error_code, "INVALID_ENDPOINT");
      assert.equal(err.status, null);
    }
    assert.equal(calls.length, 0);
  });
}

test("plain paths with queries pass", () => {
  for (const path of ["/system/status", "/plugins/config?plugin_id=clock", "/fonts/a.b",
                      "/cache/x..y"]) {
    assert.ok(checkPath(path), path);
  }
});

test("a rejected fetch is NETWORK_ERROR", async () => {
  globalThis.fetch = async () => { calls.push(1); throw new TypeError("Failed to fetch"); };
  const err = await refusal(api.get("/system/status"));
  assert.equal(err.error_code, "NETWORK_ERROR");
  assert.match(err.message, /Failed to fetch/);
});

test("a structured server error keeps its own code, message, details and status", async () => {
  globalThis.fetch = answer(400, { status: "error", data: null, message: "enabled must be true or false",
                                   error_code: "INVALID_FIELD", details: { field: "enabled" } });
  const err = await refusal(api.post("/plugins/toggle", { plugin_id: "clock" }));
  assert.equal(err.error_code, "INVALID_FIELD");
  assert.equal(err.message, "enabled must be true or false");
  assert.deepEqual(err.details, { field: "enabled" });
  assert.equal(err.status, 400);
  assert.equal(calls.length, 1);
});

test("an HTTP error without an error_code is API_ERROR with the status, never retried", async () => {
  globalThis.fetch = answer(502, { oops: true });
  const err = await refusal(api.get("/system/status"));
  assert.equal(err.error_code, "API_ERROR");
  assert.equal(err.status, 502);
  assert.equal(calls.length, 1);
});

test("a body that is not JSON is API_ERROR, even with status 200", async () => {
  for (const status of [200, 500]) {
    calls = [];
    globalThis.fetch = answer(status, null, { json: false });
    const err = await refusal(api.get("/system/status"));
    assert.equal(err.error_code, "API_ERROR");
    assert.equal(err.status, status);
    assert.equal(calls.length, 1);
  }
});

test("a JSON body that is not an envelope object is API_ERROR", async () => {
  globalThis.fetch = answer(200, [1, 2]);
  const err = await refusal(api.get("/system/status"));
  assert.equal(err.error_code, "API_ERROR");
});

test("pluginPath URL-encodes the id", async () => {
  assert.equal(pluginPath("/plugins/{id}/assets", "a/../b c"), "/plugins/a%2F..%2Fb%20c/assets");
  assert.equal(api.pluginPath("/x/{id}", "clock"), "/x/clock");
  // An encoded id that decodes to a path trick is still refused as one segment.
  const err = await refusal(api.get(pluginPath("/plugins/{id}", "..")));
  assert.equal(err.error_code, "INVALID_ENDPOINT");
  assert.equal(calls.length, 0);
});
