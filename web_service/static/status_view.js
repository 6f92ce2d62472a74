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

// The header's one line: the server's summary only while the display runs, since a
// panel nobody drives shows nothing, whatever the last file said.
export function headline(data) {
  if (!data) return "loading…";
  const d = data.display;
  if (d.service === "starting") return "display service starting";
  if (d.service !== "running") return "display service not running";
  return d.summary;
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

export function onDemandText(od) {
  if (!od) return null;
  if (od.state === "active") return `${od.plugin_id} / ${od.mode}`;
  if (od.state === "error" && od.error) return `error: ${od.error}`;
  return od.state;
}

// The Overview's Panel card, label then text, in order.
export function displayRows(data) {
  if (!data) return [];
  const d = data.display;
  const hw = data.hardware;
  const config = data.config || { problems: [] };
  const rows = [["Display service", serviceText(d)], ["Panel", d.summary]];
  if (isRunning(data)) {
    rows.push(["On-demand", onDemandText(d.on_demand || {})]);
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

// Why there is no live picture, or null when there should be one.
export function previewBlocked(data) {
  if (!data) return "Waiting for the display service…";
  if (!isRunning(data)) return "No live picture: the display service is not running.";
  if (isPanelOff(data)) return "The panel is off (power schedule).";
  return null;
}
