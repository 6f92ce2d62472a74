// The Overview's Performance card: the figures it picks and the line it draws.
import { test } from "node:test";
import assert from "node:assert/strict";

import { rows, sparkPoints, summarize } from "../../web_service/static/overview_metrics.js";

const DATA = {
  display: { frames: { fps: 9.5 } },
  plugins: {
    clock: { display_calls: 10, display_seconds: 0.02 },
    weather: { display_calls: 4, display_seconds: 0.2 },
    idle: { display_calls: 0, display_seconds: 0 },
  },
  pi: { cpu_temperature_c: 51.2 },
};

test("the slowest plugin is the one with the longest frame on average", () => {
  const summary = summarize(DATA);
  assert.equal(summary.fps, 9.5);
  assert.deepEqual(summary.slowest, { id: "weather", ms: 50 });
  assert.equal(summary.temperature, 51.2);
  assert.deepEqual(rows(summary), [
    ["Frame rate", "9.5 frames/s"],
    ["Slowest plugin", "weather (50.0 ms a frame)"],
    ["Temperature", "51.2 °C"],
  ]);
});

test("unknown figures say so", () => {
  const summary = summarize({ display: { frames: null }, plugins: {}, pi: {} });
  assert.deepEqual(rows(summary), [
    ["Frame rate", "unknown"], ["Slowest plugin", "none yet"],
    ["Temperature", "not measured here"],
  ]);
});

test("the line spans the box, the largest value near the top, gaps left out", () => {
  assert.equal(sparkPoints([0, 10, null, 5], 30, 12), "0.0,11.0 10.0,3.0 30.0,7.0");
  assert.equal(sparkPoints([], 30, 12), "");
});

// A page whose Overview partial has not arrived yet: the card's elements come later.
function fakePage() {
  const listeners = {};
  const elements = { "tab-overview": { hidden: false } };
  const node = () => ({ className: "", append() {}, setAttribute() {} });
  globalThis.document = {
    visibilityState: "visible",
    getElementById: (id) => elements[id] ?? null,
    addEventListener: (type, fn) => { (listeners[type] ||= []).push(fn); },
    createElement: node,
    createElementNS: node,
  };
  return {
    arrive() {  // the partial swapped in and settled
      elements.metrics = { replaceChildren() {} };
      elements["fps-chart"] = { viewBox: { baseVal: { width: 120, height: 24 } },
                                querySelector: () => null, append() {}, dataset: {} };
      for (const fn of listeners["htmx:afterSettle"] || []) fn({ detail: {} });
    },
    chart: () => elements["fps-chart"],
  };
}

test("the card is read as soon as the Overview's partial arrives, not a poll later", async () => {
  const page = fakePage();
  const timers = [];
  const realTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (fn, ms) => { timers.push(ms); return timers.length; };
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(url);
    return { ok: true, status: 200,
             json: async () => ({ status: "success", data: DATA, message: "", error_code: null }) };
  };
  try {
    const { startMetrics } = await import("../../web_service/static/overview_metrics.js");
    startMetrics();
    await new Promise((resolve) => realTimeout(resolve, 0));
    assert.deepEqual(asked, []);  // no card yet: nothing read, the next try is a poll away
    page.arrive();
    await new Promise((resolve) => realTimeout(resolve, 0));
    assert.equal(asked.length, 1);
    assert.match(asked[0], /\/metrics$/);
    assert.equal(page.chart().dataset.readings, "1");
  } finally {
    globalThis.setTimeout = realTimeout;
    delete globalThis.document;
  }
});
