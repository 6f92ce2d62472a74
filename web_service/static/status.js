// Status page: polls the API; the preview is fetched only while this page is visible.
"use strict";

// Our pages carry the install's token; the web service asks for it on browser
// requests whose body is not JSON (a form or text a page on another site could send).
const token = document.querySelector('meta[name="ledpanel-token"]').content;

const api = (path, options) => {
  const init = { ...(options || {}) };
  init.headers = { "X-Ledpanel-Token": token, ...(init.headers || {}) };
  return fetch(`/api/v3${path}`, init).then((response) => response.json());
};

function fill(listId, rows) {
  const list = document.getElementById(listId);
  list.replaceChildren();
  for (const [name, value] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value ?? "—";
    list.append(dt, dd);
  }
}

function say(text, isError) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.className = isError ? "error" : "";
}

let displayRunning = false;
let panelOff = false;

function serviceText(d) {
  const words = { running: "running", starting: "starting", stopped: "not running (stopped)",
                  not_running: "not running" };
  const text = words[d.service] || d.service;
  return d.service === "running" && d.pid ? `${text} (pid ${d.pid})` : text;
}

async function refreshStatus() {
  const body = await api("/system/status");
  const d = body.data.display;
  const hw = body.data.hardware;
  const od = d.on_demand || {};
  const config = body.data.config || { problems: [] };
  displayRunning = d.service === "running";
  panelOff = d.showing === "off";
  const rows = [
    ["Display service", serviceText(d)],
    ["Panel", d.summary],
  ];
  if (displayRunning) {
    rows.push(["On-demand", od.state === "active" ? `${od.plugin_id} / ${od.mode}` : od.state]);
    rows.push(["Brightness", d.brightness]);
    rows.push(["Frames/s", d.fps]);
  }
  rows.push(["Hardware", hw ? hw.summary : "unknown (the display service has not started yet)"]);
  if (hw && hw.restart_required) {
    rows.push(["Restart needed", `saved panel settings differ from the running ones: ` +
               hw.restart_settings.join(", ")]);
  }
  rows.push(["Config", config.problems.length ? config.problems.map((p) => p.message).join("\n")
                                              : "ok"]);
  const busProblems = Object.entries((body.data.bus || {}).problems || {});
  if (busProblems.length) {
    rows.push(["Bus files ignored", busProblems.map(([f, p]) => `${f}: ${p}`).join("\n")]);
  }
  fill("display", rows);
  document.getElementById("display").dataset.service = d.service;
  showPluginErrors(d.plugin_errors || {});
  showSafeMode(d.safe_mode || []);
  showPreviewState();
  const host = body.data.host;
  fill("system", [
    ["Version", body.data.version],
    ["Load", host.load ? host.load.join(" ") : null],
    ["Memory used", host.memory ? `${host.memory.used_percent}%` : null],
    ["CPU temperature", host.cpu_temperature_c ? `${host.cpu_temperature_c} °C` : null],
  ]);
}

// Plugins that failed since the display started (null while it is not running).
function showPluginErrors(errors) {
  const list = document.getElementById("plugin-error-list");
  const ids = Object.keys(errors).sort();
  list.replaceChildren();
  for (const id of ids) {
    const record = errors[id];
    const item = document.createElement("li");
    item.className = "plugin-error";
    item.dataset.plugin = id;
    const name = document.createElement("strong");
    name.textContent = id;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${record.count} failure${record.count === 1 ? "" : "s"}`;
    const last = document.createElement("span");
    last.className = "last-error error";
    last.textContent = (record.where ? `${record.where}(): ` : "") + (record.last_error || "");
    item.append(name, count, last);
    list.append(item);
  }
  document.getElementById("plugin-errors").hidden = ids.length === 0;
}

// Plugins the display keeps out (they apply even while it is down), each with Release.
function showSafeMode(entries) {
  const list = document.getElementById("safe-mode-list");
  list.replaceChildren();
  for (const entry of entries) {
    const item = document.createElement("li");
    item.className = "safe-mode-entry";
    item.dataset.plugin = entry.plugin_id;
    const name = document.createElement("strong");
    name.textContent = entry.plugin_id;
    const reason = document.createElement("span");
    reason.className = "reason error";
    reason.textContent = entry.reason;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Release";
    button.addEventListener("click", () => releasePlugin(entry.plugin_id));
    item.append(name, reason, button);
    list.append(item);
  }
  document.getElementById("safe-mode").hidden = entries.length === 0;
}

async function releasePlugin(pluginId) {
  const body = await api("/plugins/safe-mode/release", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ plugin_id: pluginId }),
  });
  say(body.message, body.status !== "success");
  refreshStatus();
}

async function refreshPlugins() {
  const body = await api("/plugins/installed");
  const list = document.getElementById("plugins");
  list.replaceChildren();
  for (const plugin of body.data) {
    const item = document.createElement("li");
    const label = document.createElement("span");
    const notes = [plugin.enabled ? "" : "(disabled)", plugin.safe_mode ? "(safe mode)" : ""];
    label.textContent = `${plugin.name} ${notes.join(" ").trim()}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Run On-Demand";
    button.addEventListener("click", () => onDemand("start", { plugin_id: plugin.id }));
    item.append(label, button);
    list.append(item);
  }
}

async function onDemand(action, payload) {
  const body = await api(`/display/on-demand/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload || {}),
  });
  say(body.message, body.status !== "success");
  refreshStatus();
}

// A picture is shown only while the display service runs: never a stale frame.
function showPreviewState() {
  const img = document.getElementById("preview");
  const empty = document.getElementById("preview-empty");
  if (!displayRunning || panelOff) {
    img.style.display = "none";
    empty.textContent = displayRunning ? "The panel is off (power schedule)."
      : "No live picture: the display service is not running.";
    empty.style.display = "block";
  }
}

async function refreshPreview() {
  if (document.hidden || !displayRunning || panelOff) return;
  const body = await api("/display/preview");
  const frame = body.data;
  if (frame && frame.png_base64 && displayRunning && !panelOff) {
    const img = document.getElementById("preview");
    img.src = `data:image/png;base64,${frame.png_base64}`;
    img.style.display = "block";
    document.getElementById("preview-empty").style.display = "none";
  }
}

document.getElementById("stop-on-demand").addEventListener("click", () => onDemand("stop"));
refreshStatus();
refreshPlugins();
setInterval(refreshStatus, 2000);
setInterval(refreshPreview, 250);
