// How the Scripted apps tab words the status and the repository's answers; hostile or
// missing values read as absent, never as a link or a crash.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as view from "../../web_service/static/starlark_view.js";

const NOW = 1_800_000_000_000;  // ms
const at = (secondsAgo) => NOW / 1000 - secondsAgo;

test("the runtime line names the version and that it is built in", () => {
  assert.equal(view.runtimeText({ runtime: "ledpanel-starlark 3.9.0", renderer: "built-in" }),
               "Runtime ledpanel-starlark 3.9.0 · built in");
  assert.equal(view.runtimeText(null), "Reading the runtime…");
  assert.equal(view.runtimeText({ runtime: 7 }), "Runtime (version unknown) · built in");
});

test("the settings line words the interval, budget and scale", () => {
  assert.equal(view.settingsText({ render_interval: 300, render_seconds: 3, scale: "magnify" }),
               "Each app is drawn again every 5 min, with 3 s to draw; magnified by whole pixels.");
  assert.equal(view.settingsText({ render_interval: 45, render_seconds: 0.5, scale: "none" }),
               "Each app is drawn again every 45 s, with 0.5 s to draw; shown 1:1.");
  assert.equal(view.settingsText({ render_interval: "x", scale: "<b>" }),
               "Each app is drawn again on its interval.");
  assert.equal(view.settingsText(null), "");
});

test("a render is told with its age, time and frames", () => {
  assert.equal(view.renderedText({ rendered_at: at(120), render_ms: 140.4, frames: 20, delay_ms: 50 }, NOW),
               "Rendered 2 min ago in 140 ms: 20 frames, 50 ms each");
  assert.equal(view.renderedText({ rendered_at: at(2), render_ms: 9, frames: 1, delay_ms: 50 }, NOW),
               "Rendered just now in 9 ms: 1 frame");
  assert.equal(view.renderedText({ rendered_at: null }, NOW), "Waiting for the display to draw it");
  assert.equal(view.renderedText({ rendered_at: "soon" }, NOW), "Waiting for the display to draw it");
  assert.equal(view.renderedText({ rendered_at: null, error: "boom" }, NOW), "");
});

test("a render says the size it was drawn at and how it fills the panel", () => {
  assert.equal(view.renderedText({ rendered_at: at(60), render_ms: 80, frames: 1, width: 128,
                                   height: 64, scale: "2x" }, NOW),
               "Rendered 1 min ago in 80 ms: 1 frame; 128x64, 2x");
  // A failure after a success: the success's time, no frame count of the failure.
  assert.equal(view.renderedText({ rendered_at: at(600), render_ms: 3000, frames: 0,
                                   error: "too slow" }, NOW), "Rendered 10 min ago");
});

test("a held app says when it is tried again; a skipped one says why it is not shown", () => {
  assert.equal(view.errorText({ error: "boom", errors: 3, held: true, next_render_at: at(-240) }, NOW),
               "Last render failed (3 times in a row): boom; held, tried again in 4 min");
  assert.equal(view.skippedText({ skipped: true, error: null }),
               "It had nothing to show at its last render, so it skips its turns until the next one.");
  assert.equal(view.skippedText({ skipped: "yes" }), "");
});

test("an error is shown plainly with how many times in a row", () => {
  assert.equal(view.errorText({ error: "http.star: no network", errors: 3 }),
               "Last render failed (3 times in a row): http.star: no network");
  assert.equal(view.errorText({ error: "boom", errors: 1 }), "Last render failed: boom");
  assert.equal(view.errorText({ error: null, errors: 4 }), "");
  assert.equal(view.errorText({ error: { x: 1 } }), "");
});

test("a preview URL is used only when it is our own path", () => {
  assert.equal(view.previewSrc({ preview_url: "/api/v3/starlark/apps/clock/preview?v=1700000000.5" }),
               "/api/v3/starlark/apps/clock/preview?v=1700000000.5");
  assert.equal(view.previewSrc({ preview_url: "/api/v3/starlark/apps/clock/preview" }),
               "/api/v3/starlark/apps/clock/preview");
  for (const hostile of ["javascript:alert(1)", "https://evil.example/x.webp",
                         "/api/v3/starlark/apps/../../x/preview", null, 5]) {
    assert.equal(view.previewSrc({ preview_url: hostile }), "");
  }
});

test("categories come as names, objects or a map", () => {
  assert.deepEqual(view.categoryList(["clocks", 5]), [{ name: "clocks", count: null }]);
  assert.deepEqual(view.categoryList([{ name: "art", count: 2 }, { category: "games", count: -1 }, {}]),
                   [{ name: "art", count: 2 }, { name: "games", count: null }]);
  assert.deepEqual(view.categoryList({ art: 3 }), [{ name: "art", count: 3 }]);
  assert.deepEqual(view.categoryList("x"), []);
});

test("pages and the summary line follow the repository's answer", () => {
  assert.equal(view.pageCount({ pages: 4 }), 4);
  assert.equal(view.pageCount({ total: 45, per_page: 20 }), 3);
  assert.equal(view.pageCount({}), 1);
  assert.equal(view.repoSummary({ total: 1, cached_at: at(600) }, 1, NOW),
               "1 app matches; the list was fetched 10 min ago.");
  assert.equal(view.repoSummary({ total: 12 }, 10, NOW), "12 apps match.");
  assert.equal(view.repoSummary(null, 0, NOW), "0 apps match.");
});

test("an install's answer is worded by the server first", () => {
  assert.equal(view.installedWords({ message: "app clock installed", data: { id: "clock" } }),
               "app clock installed");
  assert.equal(view.installedWords({ data: { app: { name: "Clock", id: "clock" } } }), "Installed Clock");
  assert.equal(view.installedWords({}), "Installed");
});

test("the index being built is told with how far it got", () => {
  assert.equal(view.indexingText({ running: true, done: 120, total: 980, failed: 0 }),
               "Reading the apps' manifests: 120 of 980…");
  assert.equal(view.indexingText({ running: true, done: 3, total: 5, failed: 2 }),
               "Reading the apps' manifests: 3 of 5 (2 could not be read)…");
  assert.equal(view.indexingText({ running: true, done: 0, total: 0 }), "Listing the apps repository…");
  assert.equal(view.indexingText({ running: false, done: 5, total: 5 }), "");
  assert.equal(view.indexingText(null), "");
});

test("the empty preview box says why there is no picture", () => {
  assert.equal(view.previewText({ error: "app.star:1: Parse error", rendered_at: null }),
               "Could not be drawn");
  assert.equal(view.previewText({ error: null, skipped: true }), "Nothing to show");
  assert.equal(view.previewText({ error: null, skipped: false }), "Not rendered yet");
  assert.equal(view.previewText({ error: 42 }), "Not rendered yet");
  assert.equal(view.previewText(null), "Not rendered yet");
});
