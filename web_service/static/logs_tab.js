// The Logs tab: follows both services' logs over /stream/logs while the tab is shown and
// the page visible; a hidden tab, a hidden page or a paused view holds no stream (it
// resumes from the last line seen). When the stream is refused (every slot taken) or
// fails, the tab reads GET /api/v3/logs every 5 s instead and says so.
import api from "./api.js";
import { describe, panel, say } from "./tool_common.js";

const MAX_LINES = 1000;
const POLL_MS = 5000;
const STREAM_RETRY_MS = 30000;  // the server's Retry-After for STREAMS_BUSY

const state = {
  source: null,      // the open EventSource
  lastId: "",        // the last event id seen: a reopened stream resumes after it
  paused: false,
  pollTimer: null,
  pollingSince: 0,   // when the stream was given up for polling (0: not polling)
};

function root() { return panel("logs")?.querySelector('[data-partial="logs"]') || null; }
function view() { return root()?.querySelector("[data-logs-view]") || null; }
function filters() {
  const form = root()?.querySelector("[data-logs-filters]");
  return { daemon: form?.elements.daemon.value || "all", level: form?.elements.level.value || "INFO" };
}
function shown() {
  const tab = panel("logs");
  return Boolean(tab && !tab.hidden && document.visibilityState === "visible" && root());
}

function lineFor(entry) {
  const line = document.createElement("div");
  line.className = `log-line level-${String(entry.level || "").toLowerCase()}`;
  if (entry.continued) line.classList.add("continued");
  const parts = [
    ["at", entry.at ? new Date(entry.at * 1000).toLocaleTimeString() : ""],
    ["daemon", entry.daemon], ["level", entry.level], ["logger", entry.logger],
    ["message", entry.message]];
  for (const [name, text] of parts) {
    if (entry.continued && name !== "message") continue;
    const span = document.createElement("span");
    span.className = name;
    span.textContent = text ?? "";
    line.appendChild(span);
  }
  return line;
}

function append(entries) {
  const target = view();
  if (!target) return;
  for (const entry of entries) target.appendChild(lineFor(entry));
  while (target.childElementCount > MAX_LINES) target.firstElementChild.remove();
  if (root().querySelector('[name="follow"]').checked) target.scrollTop = target.scrollHeight;
}

function notice(text) {
  const line = root()?.querySelector("[data-logs-notice]");
  if (!line) return;
  line.textContent = text;
  line.hidden = !text;
}

function status(text, error = false) { say(root()?.querySelector("[data-logs-status]"), text, error); }

function closeStream() {
  if (state.source) { state.source.close(); state.source = null; }
}

function stopPolling() {
  if (state.pollTimer) { clearTimeout(state.pollTimer); state.pollTimer = null; }
}

function openStream() {
  closeStream();
  const { daemon, level } = filters();
  const params = new URLSearchParams({ daemon, level, lines: "200" });
  if (state.lastId) params.set("last_event_id", state.lastId);
  const source = new EventSource(`/stream/logs?${params}`);
  state.source = source;
  const remember = (event) => { if (event.lastEventId) state.lastId = event.lastEventId; };
  source.addEventListener("log", (event) => {
    remember(event);
    try { append([JSON.parse(event.data)]); } catch { /* a line that is not JSON is skipped */ }
  });
  source.addEventListener("ready", (event) => {
    remember(event);
    notice("");
    status("Following the logs as they are written.");
  });
  source.addEventListener("error", () => {
    // CLOSED: refused (503 STREAMS_BUSY, LOGS_UNAVAILABLE) or broken for good; CONNECTING
    // is the browser reconnecting by itself after the stream's lifetime.
    if (source.readyState === EventSource.CLOSED && state.source === source) {
      state.source = null;
      startPolling();
    }
  });
}

async function pollOnce() {
  state.pollTimer = null;
  if (!shown() || state.paused || !state.pollingSince) return;
  if (Date.now() - state.pollingSince >= STREAM_RETRY_MS) {  // try the stream again
    state.pollingSince = 0;
    state.lastId = "";
    view()?.replaceChildren();
    openStream();
    return;
  }
  const { daemon, level } = filters();
  try {
    const answer = await api.get(`/logs?${new URLSearchParams({ daemon, level, lines: "200" })}`);
    view()?.replaceChildren();
    append(answer.data.entries);
    status(`Read at ${new Date().toLocaleTimeString()}.`);
  } catch (err) {
    status(describe(err), true);
  }
  if (shown() && !state.paused && state.pollingSince) state.pollTimer = setTimeout(pollOnce, POLL_MS);
}

function startPolling() {
  stopPolling();
  state.pollingSince = Date.now();
  notice("The live log stream is not available (other pages may hold every stream, or the " +
         "stream failed): the view is read again every 5 seconds.");
  pollOnce();
}

// Hold a stream (or a poll) only while the tab is shown, the page visible and not paused.
function settle() {
  if (!shown() || state.paused) {
    if (state.source && !state.paused) status("");  // says "Following" again once back
    closeStream();
    stopPolling();
    return;
  }
  if (state.pollingSince) {
    if (!state.pollTimer) pollOnce();
  } else if (!state.source) {
    openStream();
  }
}

function restart() {
  closeStream();
  stopPolling();
  state.lastId = "";
  state.pollingSince = 0;
  view()?.replaceChildren();
  settle();
}

function wire(element) {
  if (element.dataset.wired) return;
  element.dataset.wired = "1";
  element.querySelector("[data-logs-filters]").addEventListener("change", (event) => {
    if (event.target.name === "daemon" || event.target.name === "level") restart();
  });
  element.querySelector("[data-logs-clear]").addEventListener("click", () => view()?.replaceChildren());
  const pause = element.querySelector("[data-logs-pause]");
  pause.addEventListener("click", () => {
    state.paused = !state.paused;
    pause.textContent = state.paused ? "Resume" : "Pause";
    pause.setAttribute("aria-pressed", String(state.paused));
    status(state.paused ? "Paused." : "");
    settle();
  });
  settle();
}

const logsPanel = panel("logs");
if (logsPanel) {
  new MutationObserver(settle).observe(logsPanel, { attributes: true, attributeFilter: ["hidden"] });
}
document.addEventListener("visibilitychange", settle);
window.addEventListener("pagehide", () => { closeStream(); stopPolling(); });
document.body.addEventListener("htmx:afterSettle", () => { const r = root(); if (r) wire(r); });
if (root()) wire(root());
