// What the Fonts, Logs, Cache and Operation History tabs share: their panel, a status
// line, redrawing a tab from its server-rendered partial, and one way to word errors.
import { ApiError } from "./api.js";

// The tab's panel element (#tab-<name>), or null before the page has it.
export function panel(name) { return document.getElementById(`tab-${name}`); }

export function describe(err) {
  if (err instanceof ApiError) return err.message;
  return String(err?.message || err);
}

// Put text on a status line (textContent only); error lines are styled as errors.
export function say(element, text, error = false) {
  if (!element) return;
  element.textContent = text;
  element.classList.toggle("error", Boolean(error));
}

// Draw the tab again from its partial (query: extra parameters); resolves when swapped.
export async function redraw(name, query = "") {
  const target = panel(name);
  if (!target) return;
  await window.htmx.ajax("GET", `/v3/partials/${name}${query}`, { target, swap: "innerHTML" });
}

// Show each <time datetime> in the browser's own time zone.
export function localTimes(root) {
  for (const time of root.querySelectorAll("time[datetime]:not([data-local])")) {
    const when = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      time.title = time.textContent;
      time.textContent = when.toLocaleString();
      time.dataset.local = "1";
    }
  }
}

// Run fn(root) now if the tab's partial is in the page, and every time it is drawn again.
export function onDrawn(name, fn) {
  const run = () => {
    const root = panel(name)?.querySelector(`[data-partial="${name}"]`);
    if (root && !root.dataset.wired) { root.dataset.wired = "1"; fn(root); }
  };
  document.body.addEventListener("htmx:afterSettle", run);
  run();
}
