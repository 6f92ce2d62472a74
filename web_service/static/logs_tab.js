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
  sources: null,     // where the logs are read from, as the server said (null: not yet)
  problem: "",       // why the logs cannot be read now, in words ("" when they can)
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

// "display: journald unit ledpanel-display.service; web: log file /var/…/web.log"
export function describeSources(sources) {
  return Object.entries(sources || {}).map(([daemon, where]) => {
    if (where?.kind === "file") return `${daemon}: log file ${where.path}`;
    if (where?.kind === "journald") return `${daemon}: journald unit ${where.unit}`;
    return `${daemon}: unknown`;
  }).join("; ");
}

// Until the first line arrives the view says so, or why the logs cannot be read (where
// they are read from is the line above the view).
function showEmpty() {
  const target = view();
  if (!target || target.querySelector(".log-line")) return;
  const text = state.problem ? `Cannot read the logs: ${state.problem}`
    : state.sources ? "No log lines yet." : "Connecting to the logs…";
  let empty = target.querySelector("[data-logs-empty]");
  if (!empty) {
    empty = document.createElement("p");
    empty.className = "log-empty";
    empty.dataset.logsEmpty = "";
    target.appendChild(empty);
  }
  empty.textContent = text;
  empty.classList.toggle("error", Boolean(state.problem));
}

function learned(sources, problem = "") {
  if (sources) state.sources = sources;
  state.problem = problem;
  const line = root()?.querySelector("[data-logs-sources]");
  const where = describeSources(state.sources);
  if (line) line.textContent = where ? `Reading from ${where}.` : "";
  showEmpty();
}

function clearView() {
  view()?.replaceChildren();
  showEmpty();
}

function append(entries) {
  const target = view();
  if (!target) return;
  if (entries.length) target.querySelector("[data-logs-empty]")?.remove();
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
    try { learned(JSON.parse(event.data).sources); } catch { learned(null); }
  });
  source.addEventListener("end", (event) => {
    let reason = "";
    try { reason = JSON.parse(event.data).reason; } catch { /* said below in general words */ }
    if (reason === "stopping") {
      status("The web service is stopping or restarting; trying again shortly.", true);
    } else if (reason !== "lifetime") {
      status(`The log source stopped (${reason || "no reason given"}); trying again shortly.`, true);
    }
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
    clearView();
    openStream();
    return;
  }
  const { daemon, level } = filters();
  try {
    const answer = await api.get(`/logs?${new URLSearchParams({ daemon, level, lines: "200" })}`);
    view()?.replaceChildren();
    append(answer.data.entries);
    learned(answer.data.sources);
    status(`Read at ${new Date().toLocaleTimeString()}.`);
  } catch (err) {
    learned(null, describe(err));
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
  state.sources = null;
  state.problem = "";
  clearView();
  settle();
}

function wire(element) {
  if (element.dataset.wired) return;
  element.dataset.wired = "1";
  element.querySelector("[data-logs-filters]").addEventListener("change", (event) => {
    if (event.target.name === "daemon" || event.target.name === "level") restart();
  });
  element.querySelector("[data-logs-clear]").addEventListener("click", clearView);
  const pause = element.querySelector("[data-logs-pause]");
  pause.addEventListener("click", () => {
    state.paused = !state.paused;
    pause.textContent = state.paused ? "Resume" : "Pause";
    pause.setAttribute("aria-pressed", String(state.paused));
    status(state.paused ? "Paused." : "");
    settle();
  });
  showEmpty();
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
