// How the pages word GET /system/status: never "showing X" over a black panel.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as view from "../../web_service/static/status_view.js";

const running = (display) => ({
  version: "3.8.0", hardware: { ok: true, summary: "headless 128x32" },
  config: { problems: [] }, host: {},
  display: { service: "running", pid: 7, summary: "showing clock / big", showing: "rotation",
             on_demand: { state: "idle" }, plugin_errors: {}, ...display },
});

test("a running display shows the server's summary", () => {
  const data = running({});
  assert.equal(view.headline(data), "showing clock / big");
  assert.equal(view.tone(data), "ok");
  assert.equal(view.previewBlocked(data), null);
});

test("the power schedule's off reads as off, with no picture", () => {
  const data = running({ showing: "off", summary: "panel off (power schedule)" });
  assert.equal(view.headline(data), "panel off (power schedule)");
  assert.equal(view.tone(data), "off");
  assert.equal(view.previewBlocked(data), "The panel is off (power schedule).");
});

test("a display that is down never reads as showing anything", () => {
  const data = running({ service: "not_running", summary: "showing clock / big" });
  assert.equal(view.headline(data), "display service not running");
  assert.equal(view.tone(data), "down");
  assert.match(view.previewBlocked(data), /not running/);
  const labels = view.displayRows(data).map(([label]) => label);
  assert.ok(!labels.includes("On-demand") && !labels.includes("Frames/s"));
});

test("failing plugins and config problems warn", () => {
  const data = running({ plugin_errors: { b: { count: 1, last_error: "E", where: "display" },
                                           a: { count: 2, last_error: "F" } } });
  assert.equal(view.tone(data), "warn");
  assert.deepEqual(view.pluginErrors(data).map((e) => [e.id, e.count, e.last]),
                   [["a", "2 failures", "F"], ["b", "1 failure", "display(): E"]]);
});
