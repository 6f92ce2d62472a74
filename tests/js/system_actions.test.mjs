// The wait for the web service after a web restart or a reboot ("back in N s").
import { test } from "node:test";
import assert from "node:assert/strict";

import { ApiError } from "../../web_service/static/api.js";
import { awaitsReturn, waitForReturn } from "../../web_service/static/system_actions.js";

// A clock that moves only when the wait sleeps, and answers given step by step.
function scripted(answers) {
  let clock = 0;
  let step = 0;
  return {
    sleep: async (ms) => { clock += ms; },
    now: () => clock,
    health: async () => {
      const answer = answers[Math.min(step, answers.length - 1)];
      step += 1;
      if (answer.down) throw new Error("network error");
      return { data: { status: "ok" } };
    },
    status: async () => ({ data: { web: { pid: answers[Math.min(step - 1, answers.length - 1)].pid } } }),
  };
}

test("back once the health check failed and answers again", async () => {
  const fake = scripted([{ pid: 1 }, { down: true }, { down: true }, { pid: 1 }]);
  assert.equal(await waitForReturn({ beforePid: 1, startedAt: 0, stepMs: 1000, ...fake }), 4);
});

test("back when a new web answers, even if no failure was seen", async () => {
  const fake = scripted([{ pid: 1 }, { pid: 1 }, { pid: 2 }]);
  assert.equal(await waitForReturn({ beforePid: 1, startedAt: 0, stepMs: 1000, ...fake }), 3);
});

test("never back: null once the limit passed", async () => {
  const fake = scripted([{ down: true }]);
  assert.equal(await waitForReturn({ beforePid: 1, startedAt: 0, stepMs: 1000, limitMs: 5000,
                                     ...fake }), null);
});

test("the page waits after a web restart or a reboot, even one that cut the answer off", () => {
  assert.equal(awaitsReturn("restart_web_service"), true);
  assert.equal(awaitsReturn("reboot_system"), true);
  assert.equal(awaitsReturn("reboot_system", new ApiError("NETWORK_ERROR", "gone")), true);
  assert.equal(awaitsReturn("reboot_system", new ApiError("ACTION_FAILED", "no")), false);
  assert.equal(awaitsReturn("stop_display"), false);
  assert.equal(awaitsReturn("shutdown_system"), false);
});
