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

const PLUGINS = [
  { id: "web-ui-info", name: "Web UI Info", display_modes: ["web-ui-info"] },
  { id: "multi-mode", name: "Multi Mode", display_modes: ["mm_news", "mm_sports"] },
  { id: "clock", name: "Clock", display_modes: ["clock"] },
  { id: "blue-fill", name: "Blue Fill", display_modes: ["blue_fill"] },
];

test("the header names the plugin and adds its mode only when it says something", () => {
  const shown = (plugin_id, mode, more = {}) => view.headline(
    running({ plugin_id, mode, summary: `showing ${plugin_id} / ${mode}`, ...more }), PLUGINS);
  assert.equal(shown("web-ui-info", "web-ui-info"), "showing Web UI Info");
  assert.equal(shown("blue-fill", "blue_fill"), "showing Blue Fill");  // same name, spelt _
  assert.equal(shown("multi-mode", "mm_news"), "showing Multi Mode / mm_news");
  assert.equal(shown("clock", "clock", { showing: "on_demand", dimmed: true }),
               "showing Clock (on-demand), dimmed");
  assert.equal(shown("clock", "clock", { showing: "sync" }),
               "showing Clock (following its leader panel)");
  // A plugin the list does not know (yet): its id, as the server said it.
  assert.equal(shown("gone", "gone"), "showing gone");
  assert.equal(shown("gone", "big"), "showing gone / big");
  // Not a plugin: the server's words.
  assert.equal(shown(null, null, { summary: "panel blank (no plugin has anything to show)" }),
               "panel blank (no plugin has anything to show)");
});

test("an on-demand run says the plugin's name and counts down to its end", () => {
  const now = 1_800_000_000_000;
  const od = { state: "active", plugin_id: "clock", mode: "clock", pinned: false,
               ends_at: now / 1000 + 125 };
  const data = running({ showing: "on_demand", on_demand: od });
  const row = (at) => Object.fromEntries(view.displayRows(data, PLUGINS, at))["On-demand"];
  assert.equal(row(now), "Clock, 2:05 left");
  assert.equal(Object.fromEntries(view.displayRows(
    { ...data, display: { ...data.display, plugin_id: "clock", mode: "clock" } }, PLUGINS, now)).Panel,
               "showing Clock (on-demand)");
  assert.equal(row(now + 80_000), "Clock, 45 s left");
  assert.equal(row(now + 500_000), "Clock, 0 s left");
  assert.equal(view.onDemandNow(data, PLUGINS, now), "Running on demand: Clock, 2:05 left.");
  const pinned = running({ on_demand: { ...od, plugin_id: "multi-mode", mode: "mm_news",
                                        pinned: true, ends_at: null } });
  assert.equal(view.onDemandNow(pinned, PLUGINS, now),
               "Running on demand: Multi Mode / mm_news, pinned.");
  const open = running({ on_demand: { ...od, ends_at: null } });
  assert.equal(view.onDemandNow(open, PLUGINS, now), "Running on demand: Clock, until stopped.");
  assert.equal(view.onDemandNow(running({}), PLUGINS, now),
               "Nothing runs on demand: the rotation shows.");
  assert.equal(view.onDemandNow(running({ on_demand: { state: "error", error: "no such plugin" } })),
               "The last on-demand failed: no such plugin");
  assert.match(view.onDemandNow(running({ service: "stopped" })), /not running/);
});

test("a plugin's load-time warnings come from the running display only", () => {
  const data = running({ load_warnings: { clock: ["pytz missing: UTC", 7, ""], other: "x" } });
  assert.deepEqual(view.loadWarnings(data, "clock"), ["pytz missing: UTC"]);
  assert.deepEqual(view.loadWarnings(data, "other"), []);
  assert.deepEqual(view.loadWarnings(data, "none"), []);
  assert.deepEqual(view.loadWarnings(data, "constructor"), []);
  assert.deepEqual(view.loadWarnings(running({ load_warnings: null }), "clock"), []);
  const down = running({ service: "not_running", load_warnings: { clock: ["old"] } });
  assert.deepEqual(view.loadWarnings(down, "clock"), []);
  assert.deepEqual(view.loadWarnings(null, "clock"), []);
});

test("the Overview says why the panel shows what it shows, and offers the other power", () => {
  const on = running({ power: "on" });
  on.reason = "rotation: slot 2 of 5";
  assert.equal(Object.fromEntries(view.displayRows(on))["Why"], "rotation: slot 2 of 5");
  assert.deepEqual(view.powerButton(on), { label: "Panel off", on: false });
  const off = running({ power: "off", showing: "off", power_cause: "hand" });
  assert.deepEqual(view.powerButton(off), { label: "Panel on", on: true });
  assert.equal(view.previewBlocked(off), "The panel is off (turned off by hand).");
  assert.equal(view.powerButton(running({ service: "not_running" })), null);
});
