// How the Overview words the core update's state (GET /system/update).
import { test } from "node:test";
import assert from "node:assert/strict";

import { updateLine } from "../../web_service/static/core_update.js";

test("no update yet shows nothing", () => {
  assert.deepEqual(updateLine({ running: false, result: null, lost: false }),
                   { text: "", error: false, running: false });
  assert.equal(updateLine(null).text, "");
});

test("a running update names its phase and keeps polling", () => {
  const line = updateLine({ running: true, phase: "verifying", result: "verifying" });
  assert.equal(line.text, "Updating: checking the new release is healthy…");
  assert.equal(line.running, true);
});

test("a rollback is an error with the reason", () => {
  const line = updateLine({ running: false, result: "rolled_back", message: "unhealthy" });
  assert.deepEqual(line, { text: "Rolled back: unhealthy", error: true, running: false });
});

test("an update is fine and says what was stashed", () => {
  const line = updateLine({ running: false, result: "updated", message: "a -> b",
                            stashed: "stashed local changes to x" });
  assert.equal(line.error, false);
  assert.match(line.text, /^Updated: a -> b \(stashed local changes to x\)$/);
});

test("a lost update says what to do", () => {
  const line = updateLine({ running: false, lost: true, result: null,
                            message: "run Update Code again" });
  assert.equal(line.error, true);
  assert.match(line.text, /^Update lost: run Update Code again$/);
});
