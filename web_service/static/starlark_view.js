// How the Scripted apps tab words what GET /api/v3/starlark/status and /repository
// answer. Pure functions (no DOM, no fetch), so tests/js can check them. Every value is
// untrusted: anything of the wrong type reads as absent.

const SCALES = {
  magnify: "magnified by whole pixels",
  "2x": "drawn at 2x where the app can",
  none: "shown 1:1",
};

function text(value) { return typeof value === "string" ? value : ""; }
function count(value) { return Number.isFinite(value) && value >= 0 ? value : null; }

// "Runtime ledpanel-starlark 3.9.0 · built in"
export function runtimeText(status) {
  if (!status || typeof status !== "object") return "Reading the runtime…";
  const runtime = status.runtime && typeof status.runtime === "object" ? status.runtime : {};
  const version = text(status.runtime_version) || text(runtime.version)
    || text(status.runtime) || text(status.version);
  const how = status.renderer === "built-in" ? "built in" : text(status.renderer) || "built in";
  return `Runtime ${version || "(version unknown)"} · ${how}`;
}

// "Each app is drawn again every 5 min, with 3 s to draw; magnified by whole pixels."
export function settingsText(settings) {
  if (!settings || typeof settings !== "object") return "";
  const interval = count(settings.render_interval);
  const seconds = count(settings.render_seconds);
  const every = interval === null ? "on its interval"
    : `every ${interval % 60 === 0 ? `${interval / 60} min` : `${interval} s`}`;
  const budget = seconds === null ? "" : `, with ${seconds} s to draw`;
  const scale = SCALES[settings.scale] || "";
  return `Each app is drawn again ${every}${budget}${scale ? `; ${scale}` : ""}.`;
}

// "3 min ago" from epoch seconds, against now (ms).
export function ago(epochSeconds, now = Date.now()) {
  const seconds = Math.max(0, Math.round(now / 1000 - epochSeconds));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

// "in 3 min" from epoch seconds, against now (ms).
export function inTime(epochSeconds, now = Date.now()) {
  const seconds = Math.max(0, Math.round(epochSeconds - now / 1000));
  if (seconds < 60) return `in ${seconds} s`;
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  return `in ${Math.round(seconds / 3600)} h`;
}

// "Rendered 2 min ago in 140 ms: 20 frames, 50 ms each; 64x32, magnify x2" /
// "Waiting for the display…" ("" when it has only failed so far: its error says so).
export function renderedText(app, now = Date.now()) {
  const at = count(app?.rendered_at);
  if (at === null || at === 0) return text(app?.error) ? "" : "Waiting for the display to draw it";
  const ms = count(app.render_ms);
  const frames = count(app.frames);
  const delay = count(app.delay_ms);
  let words = `Rendered ${ago(at, now)}`;
  if (ms !== null && !text(app.error)) words += ` in ${Math.round(ms)} ms`;
  if (frames) {
    words += `: ${frames} frame${frames === 1 ? "" : "s"}`;
    if (frames > 1 && delay) words += `, ${delay} ms each`;
  }
  const width = count(app.width);
  const height = count(app.height);
  const scale = text(app.scale);
  if (width && height) words += `; ${width}x${height}${scale ? `, ${scale}` : ""}`;
  return words;
}

// "Last render failed (3 times in a row): <the app's error>; held, tried again in 4 min"
// or "".
export function errorText(app, now = Date.now()) {
  const error = text(app?.error);
  if (!error) return "";
  const times = count(app.errors);
  const row = times && times > 1 ? ` (${times} times in a row)` : "";
  const next = count(app.next_render_at);
  const held = app.held === true ? `; held, tried again ${next ? inTime(next, now) : "later"}` : "";
  return `Last render failed${row}: ${error}${held}`;
}

// An app that had nothing to show at its last render (main returned []).
export function skippedText(app) {
  return app?.skipped === true && !text(app.error)
    ? "It had nothing to show at its last render, so it skips its turns until the next one." : "";
}

// What the preview box says when there is no picture: why, when the status tells.
export function previewText(app) {
  if (text(app?.error)) return "Could not be drawn";
  if (app?.skipped === true) return "Nothing to show";
  return "Not rendered yet";
}

// The preview's URL only when it is our own plain path (it carries the render time, so
// a new render is fetched again); "" when the display has drawn none.
export function previewSrc(app) {
  const url = text(app?.preview_url);
  return /^\/api\/v3\/starlark\/apps\/[a-z0-9_-]+\/preview(\?v=[0-9.]+)?$/.test(url) ? url : "";
}

// The repository's categories as [{name, count}], whether it sent a list of names, a
// list of {name|category, count} or a {name: count} object.
export function categoryList(categories) {
  if (Array.isArray(categories)) {
    return categories.map((c) => {
      if (typeof c === "string") return { name: c, count: null };
      const name = text(c?.name) || text(c?.category);
      return name ? { name, count: count(c.count) } : null;
    }).filter(Boolean);
  }
  if (categories && typeof categories === "object") {
    return Object.entries(categories).map(([name, n]) => ({ name, count: count(n) }));
  }
  return [];
}

// How many pages a repository answer spans.
export function pageCount(answer) {
  const pages = count(answer?.pages);
  if (pages) return pages;
  const total = count(answer?.total);
  const per = count(answer?.per_page) || count(answer?.page_size);
  return total && per ? Math.max(1, Math.ceil(total / per)) : 1;
}

// "12 apps match, fetched 5 min ago" under the search box.
export function repoSummary(answer, shown, now = Date.now()) {
  const total = count(answer?.total);
  const n = total === null ? shown : total;
  const cached = count(answer?.cached_at);
  const when = cached ? `; the list was fetched ${ago(cached, now)}` : "";
  return `${n} app${n === 1 ? "" : "s"} match${n === 1 ? "es" : ""}${when}.`;
}

// The words of an install's answer: "Installed Clock (clock)".
export function installedWords(answer) {
  const app = answer?.data?.app || answer?.data || {};
  const name = text(app.name) || text(app.id);
  return answer?.message || (name ? `Installed ${name}` : "Installed");
}

// While the repository's index is built: "Reading the apps' manifests: 120 of 980…";
// "" once it is done.
export function indexingText(indexing) {
  if (!indexing || indexing.running !== true) return "";
  const done = count(indexing.done);
  const total = count(indexing.total);
  if (!total) return "Listing the apps repository…";
  const failed = count(indexing.failed);
  const skipped = failed ? ` (${failed} could not be read)` : "";
  return `Reading the apps' manifests: ${done || 0} of ${total}${skipped}…`;
}
