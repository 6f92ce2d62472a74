// The Operation History tab: filters, "load more" (older pages by `before`), clear,
// and a fresh list each time the tab is opened. Rows are drawn by the server.
import api from "./api.js";
import { describe, localTimes, onDrawn, panel, redraw, say } from "./tool_common.js";

function query(root, before = "") {
  const form = root.querySelector("[data-history-filters]");
  const params = new URLSearchParams();
  for (const name of ["kind", "plugin_id"]) {
    if (form.elements[name].value) params.set(name, form.elements[name].value);
  }
  if (before) params.set("before", before);
  const text = params.toString();
  return text ? `?${text}` : "";
}

function statusLine() { return document.querySelector("#tab-history [data-history-status]"); }

async function loadMore(root, button) {
  button.disabled = true;
  try {
    const answer = await fetch(`/v3/partials/history${query(root, button.dataset.before)}`);
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    // The server's own escaped rows, parsed into nodes (no data goes through innerHTML).
    const page = new DOMParser().parseFromString(await answer.text(), "text/html")
      .querySelector("[data-history-page]");
    if (!page) throw new Error("the next page could not be read");
    if (page.dataset.problem) throw new Error(page.dataset.problem);
    const body = root.querySelector("[data-history-body]");
    for (const row of page.querySelectorAll("[data-history-row]")) {
      body.appendChild(document.importNode(row, true));
    }
    localTimes(body);
    button.dataset.before = page.dataset.nextBefore;
    button.hidden = !page.dataset.nextBefore;
  } catch (err) {
    say(statusLine(), describe(err), true);
  } finally {
    button.disabled = false;
  }
}

async function clearAll() {
  if (!window.confirm("Forget the whole operation history of both services?")) return;
  try {
    const answer = await api.post("/history/clear", {});
    await redraw("history");
    say(statusLine(), answer.message || "cleared");
  } catch (err) {
    say(statusLine(), describe(err), true);
  }
}

onDrawn("history", (root) => {
  localTimes(root);
  root.querySelector("[data-history-filters]").addEventListener("change", () => redraw("history", query(root)));
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.matches("[data-history-refresh]")) redraw("history", query(root));
    else if (button.matches("[data-history-clear]")) clearAll();
    else if (button.matches("[data-history-more]")) loadMore(root, button);
  });
});

// Opening the tab again shows what happened meanwhile (the first opening loads it anyway).
const historyPanel = panel("history");
if (historyPanel) {
  let wasHidden = historyPanel.hidden;
  new MutationObserver(() => {
    const root = historyPanel.querySelector('[data-partial="history"]');
    if (wasHidden && !historyPanel.hidden && root) redraw("history", query(root));
    wasHidden = historyPanel.hidden;
  }).observe(historyPanel, { attributes: true, attributeFilter: ["hidden"] });
}
