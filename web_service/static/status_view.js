// What the pages say about GET /system/status: pure functions of its data, so the
// header, the Overview and the Plugin Manager word the same state the same way.

const SERVICE_WORDS = { running: "running", starting: "starting",
                        stopped: "not running (stopped)", not_running: "not running" };

export function serviceText(d) {
  const text = SERVICE_WORDS[d.service] || d.service;
  return d.service === "running" && d.pid ? `${text} (pid ${d.pid})` : text;
}

export const isRunning = (data) => data?.display?.service === "running";
export const isPanelOff = (data) => isRunning(data) && data.display.showing === "off";

// A plugin as people know it: its name (from the installed list), then its mode only
// when that adds something: a mode named otherwise than the plugin, or one of several.
export function pluginLabel(plugins, pluginId, mode) {
  const record = (plugins || []).find((p) => p.id === pluginId);
  const name = record?.name || pluginId || "—";
  const modes = Array.isArray(record?.display_modes) ? record.display_modes : [];
  // A lone mode named after the plugin ("blue_fill" of "blue-fill") adds nothing.
  const same = (a, b) => String(a).replace(/_/g, "-") === String(b).replace(/_/g, "-");
  return mode && (!same(mode, pluginId) || modes.length > 1) ? `${name} / ${mode}` : name;
}

const SHOWING_WORDS = { on_demand: " (on-demand)", live: " (live content)",
                        full_screen: " (Vegas ticker)", sync: " (following its leader panel)" };

// The header's one line: said only while the display runs, since a panel nobody drives
// shows nothing, whatever the last file said. A plugin shown is named as in its tab.
export function headline(data, plugins = []) {
  if (!data) return "loading…";
  const d = data.display;
  if (d.service === "starting") return "display service starting";
  if (d.service !== "running") return "display service not running";
  if (!d.plugin_id || d.showing === "off") return d.summary;
  return `showing ${pluginLabel(plugins, d.plugin_id, d.mode)}${SHOWING_WORDS[d.showing] || ""}`
    + (d.dimmed ? ", dimmed" : "");
}

// Time left of an on-demand run, counting down from ``ends_at`` (epoch seconds).
export function timeLeft(od, nowMs = Date.now()) {
  if (od.pinned) return "pinned";
  if (typeof od.ends_at !== "number") return "until stopped";
  const left = Math.max(0, Math.round(od.ends_at - nowMs / 1000));
  if (left < 60) return `${left} s left`;
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = String(left % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s} left` : `${m}:${s} left`;
}

export function tone(data) {
  if (!data) return "wait";
  if (!isRunning(data)) return "down";
  if (isPanelOff(data)) return "off";
  const hw = data.hardware;
  const problems = (data.config?.problems || []).length;
  if ((hw && !hw.ok) || problems || Object.keys(data.display.plugin_errors || {}).length) {
    return "warn";
  }
  return "ok";
}

export function onDemandText(od, plugins = [], nowMs = Date.now()) {
  if (!od) return null;
  if (od.state === "active") {
    return `${pluginLabel(plugins, od.plugin_id, od.mode)}, ${timeLeft(od, nowMs)}`;
  }
  if (od.state === "error" && od.error) return `error: ${od.error}`;
  return od.state;
}

// The Overview's On-demand card: what runs on demand now, whoever started it.
export function onDemandNow(data, plugins = [], nowMs = Date.now()) {
  if (!data) return "";
  if (!isRunning(data)) return "Nothing runs on demand: the display service is not running.";
  const od = data.display.on_demand || {};
  if (od.state === "active") return `Running on demand: ${onDemandText(od, plugins, nowMs)}.`;
  if (od.state === "error" && od.error) return `The last on-demand failed: ${od.error}`;
  return "Nothing runs on demand: the rotation shows.";
}

// The Overview's Panel card, label then text, in order.
export function displayRows(data, plugins = [], nowMs = Date.now()) {
  if (!data) return [];
  const d = data.display;
  const hw = data.hardware;
  const config = data.config || { problems: [] };
  const rows = [["Display service", serviceText(d)],
                ["Panel", isRunning(data) ? headline(data, plugins) : d.summary],
                ["Why", data.reason]];
  if (isRunning(data)) {
    rows.push(["On-demand", onDemandText(d.on_demand || {}, plugins, nowMs)]);
    rows.push(["Brightness", d.brightness]);
    rows.push(["Frames/s", d.fps]);
  }
  rows.push(["Hardware", hw ? hw.summary : "unknown (the display service has not started yet)"]);
  if (hw && hw.hint && !hw.ok) rows.push(["Hint", hw.hint]);
  if (hw && hw.restart_required) {
    rows.push(["Restart needed", "saved panel settings differ from the running ones: " +
               (hw.restart_settings || []).join(", ")]);
  }
  rows.push(["Config", config.problems.length
    ? config.problems.map((p) => p.message).join("\n") : "ok"]);
  const busProblems = Object.entries((data.bus || {}).problems || {});
  if (busProblems.length) {
    rows.push(["Bus files ignored", busProblems.map(([f, p]) => `${f}: ${p}`).join("\n")]);
  }
  return rows.map(([label, value]) => [label, value ?? "—"]);
}

export function systemRows(data) {
  if (!data) return [];
  const host = data.host || {};
  return [
    ["Version", data.version],
    ["Load", host.load ? host.load.join(" ") : null],
    ["Memory used", host.memory ? `${host.memory.used_percent}%` : null],
    ["CPU temperature", host.cpu_temperature_c ? `${host.cpu_temperature_c} °C` : null],
  ].map(([label, value]) => [label, value ?? "—"]);
}

// Plugins that failed since the display started, sorted by id.
export function pluginErrors(data) {
  const errors = data?.display?.plugin_errors || {};
  return Object.keys(errors).sort().map((id) => {
    const record = errors[id];
    return { id, count: `${record.count} failure${record.count === 1 ? "" : "s"}`,
             last: (record.where ? `${record.where}(): ` : "") + (record.last_error || "") };
  });
}

// What a plugin warned about while the running display loaded it (a missing optional
// package, a config it repaired): its lines, [] when none or while the display is down.
export function loadWarnings(data, pluginId) {
  if (!isRunning(data)) return [];
  const all = data?.display?.load_warnings;
  const lines = all && Object.hasOwn(all, pluginId) ? all[pluginId] : null;
  return Array.isArray(lines) ? lines.filter((line) => typeof line === "string" && line) : [];
}

// Why there is no live picture, or null when there should be one.
export function previewBlocked(data) {
  if (!data) return "Waiting for the display service…";
  if (!isRunning(data)) return "No live picture: the display service is not running.";
  if (isPanelOff(data)) {
    return data.display.power_cause === "hand" ? "The panel is off (turned off by hand)."
      : "The panel is off (power schedule).";
  }
  return null;
}

// The Overview's power button: what pressing it does, and the "on" it sends. While the
// display is not running there is nothing to switch (null).
export function powerButton(data) {
  if (!isRunning(data)) return null;
  const on = data.display.power === "on";
  return { label: on ? "Panel off" : "Panel on", on: !on };
}
