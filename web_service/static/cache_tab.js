// The Cache tab: clear one entry or all (each confirmed), refresh. The table is drawn
// by the server; after each action the tab is drawn again.
import api from "./api.js";
import { describe, onDrawn, redraw, say } from "./tool_common.js";

function statusLine() { return document.querySelector("#tab-cache [data-cache-status]"); }

async function clear(body, question, button) {
  if (!window.confirm(question)) return;
  if (button) button.disabled = true;
  try {
    const answer = await api.post("/cache/clear", body);
    await redraw("cache");
    say(statusLine(), answer.message || "cleared");
  } catch (err) {
    if (button) button.disabled = false;
    say(statusLine(), describe(err), true);
  }
}

onDrawn("cache", (root) => {
  root.addEventListener("click", async (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.matches("[data-cache-refresh]")) {
      await redraw("cache");
      say(statusLine(), "refreshed");
    } else if (target.matches("[data-cache-clear-all]")) {
      clear({}, "Clear every cache entry? Plugins fetch their data again.", target);
    } else if (target.dataset.cacheKey !== undefined) {
      clear({ key: target.dataset.cacheKey }, `Clear the cache entry ${target.dataset.cacheKey}?`, target);
    } else if (target.dataset.cacheFile !== undefined) {
      clear({ file: target.dataset.cacheFile }, `Clear the cache file ${target.dataset.cacheFile}?`, target);
    }
  });
});
