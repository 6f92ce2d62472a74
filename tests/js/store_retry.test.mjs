// Unit tests of Check & Update All (store_view.updateAll) and the job wording, with a
// fake API: retries on network failures, none on refusals, the summary's four groups.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ApiError } from "../../web_service/static/api.js";
import { installWords, progressPercent, progressText, safeLink, updateAll, updateWords }
  from "../../web_service/static/store_view.js";

const sleep = async () => {};
const DELAYS = [0, 0, 0, 0, 0];

// A fake API: `posts` maps a plugin id to a list of outcomes for successive POSTs
// ("network", "503", "refuse", "running", or a finished job result); jobs finish on the
// first GET.
function fakeApi(posts) {
  const asked = [];
  const jobs = {};
  return {
    asked,
    async post(path, body) {
      asked.push(["POST", path, body.plugin_id, body.wait]);
      const plan = posts[body.plugin_id];
      const step = plan.length > 1 ? plan.shift() : plan[0];
      if (step === "network") throw new ApiError("NETWORK_ERROR", "the web service could not be reached");
      if (step === "503") throw new ApiError("API_ERROR", "HTTP 503", { status: 503 });
      if (step === "refuse") throw new ApiError("NOT_INSTALLED", `${body.plugin_id} is not installed`, { status: 404 });
      if (step === "running") {
        jobs.j0 = { id: "j0", state: "done", result: { update_status: "up_to_date" } };
        throw new ApiError("JOB_RUNNING", "busy", { status: 409, details: { job_id: "j0" } });
      }
      const id = `j${asked.length}`;
      jobs[id] = step.failed ? { id, state: "failed", message: step.failed, error_code: "DOWNLOAD_FAILED" }
        : { id, state: "done", result: step };
      return { data: { job_id: id, job: { id, state: "queued", step: "queued" } } };
    },
    async get(path) {
      asked.push(["GET", path]);
      return { data: jobs[decodeURIComponent(path.split("/").pop())] };
    },
  };
}

test("each plugin lands in its group, one after the other", async () => {
  const api = fakeApi({
    a: [{ update_status: "updated", previous_version: "1.0.0", version: "1.1.0" }],
    b: [{ update_status: "up_to_date" }], c: [{ update_status: "local_only" }],
    d: [{ failed: "the download was cut" }] });
  const steps = [];
  const summary = await updateAll(api, ["a", "b", "c", "d"], {
    sleep, delays: DELAYS, onStep: (s) => steps.push(`${s.index + 1} of ${s.total}: ${s.pluginId}`) });
  assert.deepEqual(summary.updated, [{ plugin_id: "a", words: "Updated 1.0.0 → 1.1.0" }]);
  assert.deepEqual(summary.up_to_date, ["b"]);
  assert.deepEqual(summary.local_only, ["c"]);
  assert.deepEqual(summary.failed, [{ plugin_id: "d", message: "the download was cut" }]);
  assert.ok(steps.includes("3 of 4: c"));
  const posted = api.asked.filter((a) => a[0] === "POST");
  assert.deepEqual(posted.map((a) => a[2]), ["a", "b", "c", "d"]);
  assert.ok(posted.every((a) => a[3] === 0), "every POST asks not to wait");
});

test("network failures are retried with backoff and the plugin still updates", async () => {
  const waits = [];
  const api = fakeApi({ a: ["network", "503", { update_status: "updated", previous_version: "1", version: "2" }] });
  const retries = [];
  const summary = await updateAll(api, ["a"], {
    sleep: async (ms) => { waits.push(ms); }, delays: [10, 20, 40, 80, 160], interval: 0,
    onStep: (s) => s.retry && retries.push(s.retry.attempt) });
  assert.equal(summary.updated.length, 1);
  assert.equal(api.asked.filter((a) => a[0] === "POST").length, 3);
  assert.deepEqual(waits.slice(0, 2), [10, 20]);
  assert.deepEqual(retries, [1, 2]);
});

test("a refusal is not retried; five network retries then it is reported failed", async () => {
  const api = fakeApi({ gone: ["refuse"], down: ["network"] });
  const summary = await updateAll(api, ["gone", "down"], { sleep, delays: DELAYS });
  const posts = (id) => api.asked.filter((a) => a[0] === "POST" && a[2] === id).length;
  assert.equal(posts("gone"), 1);
  assert.equal(posts("down"), 6);
  assert.equal(summary.failed[0].message, "gone is not installed");
  assert.match(summary.failed[1].message, /could not be reached.*gave up after 6 tries/);
});

test("a POST whose answer was lost and finds the job running follows that job", async () => {
  const api = fakeApi({ a: ["network", "running"] });
  const summary = await updateAll(api, ["a"], { sleep, delays: DELAYS });
  assert.deepEqual(summary.up_to_date, ["a"]);
  assert.ok(api.asked.some((a) => a[0] === "GET" && a[1] === "/plugins/store/jobs/j0"));
});

test("job wording", () => {
  assert.equal(updateWords({ update_status: "up_to_date" }), "Already up to date");
  assert.equal(updateWords({ update_status: "local_only" }),
               "Installed locally: not from the store, nothing to update");
  assert.equal(updateWords({ update_status: "updated", previous_version: "1.0.0", version: "1.1.0" }),
               "Updated 1.0.0 → 1.1.0");
  assert.equal(progressText({ state: "running", step: "downloading",
                              progress: { files_done: 3, files_total: 7 } }),
               "downloading (3 of 7 files)");
  assert.equal(progressText({ state: "running", step: "downloading", progress: { bytes: 2048 } }),
               "downloading (2.0 KiB)");
  assert.equal(progressText({ state: "queued", step: "queued", waiting_for: null }), "queued");
  assert.equal(progressText({ state: "queued", step: "waiting for: install of clock",
                              waiting_for: { job_id: "j1", description: "install of clock" } }),
               "waiting for: install of clock");
  assert.equal(progressPercent({ state: "running", progress: { files_done: 1, files_total: 4 } }), 25);
  assert.equal(progressPercent({ state: "running", progress: { bytes: 10 } }), null);
  assert.equal(installWords({ message: "w 1.0.0 installed", result: { version: "1.0.0" } }),
               "w 1.0.0 installed");
  assert.equal(installWords({ message: "w updated 1.0.0 → 1.0.0",
                              result: { version: "1.0.0", previous_version: "1.0.0" } }),
               "Reinstalled 1.0.0");
  assert.equal(installWords({ message: "w 2 installed",
                              result: { version: "2", display_note: "the display did not answer" } }),
               "w 2 installed (the display did not answer)");
});

test("links only for http(s) URLs", () => {
  assert.equal(safeLink("https://github.com/o/n"), "https://github.com/o/n");
  assert.equal(safeLink("http://127.0.0.1:8/o/n"), "http://127.0.0.1:8/o/n");
  for (const bad of ["javascript:alert(1)", " javascript:alert(1)", "data:text/html,x", "//evil",
                     "/relative", "", null, 7, "https://", "JAVASCRIPT:x"]) {
    assert.equal(safeLink(bad), null, String(bad));
  }
});
