// The plugin store's shared client logic: start an install/update/uninstall job and
// follow it, word its progress and outcome, update every plugin in turn (Check & Update
// All), and keep the tab bar's plugin tabs in step with the installed list. The API
// client and the pause are passed in, so tests/js can drive it without a browser.
import { ApiError, isRetryable, withRetry } from "./api.js";

export const POLL_MS = 500;
export const MAX_POLLS = 3600;  // 30 minutes at 500 ms: past that the job is left running

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A link target only for a plain http(s) URL; null for javascript:, data:, relative...
export function safeLink(url) {
  if (typeof url !== "string" || !/^https?:\/\//i.test(url.trim())) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

export function humanBytes(size) {
  const n = Number(size) || 0;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

// "downloading (3 of 7 files)" / "downloading (1.2 MiB)" / "queued" / "waiting for:
// install of clock-simple" (a queued job behind another).
export function progressText(job) {
  if (!job) return "";
  if (job.state === "queued") {
    const ahead = job.waiting_for && job.waiting_for.description;
    return ahead ? `waiting for: ${ahead}` : "queued";
  }
  const step = job.step || job.state || "";
  const p = job.progress || {};
  if (p.files_total) return `${step} (${p.files_done || 0} of ${p.files_total} files)`;
  if (p.bytes) return `${step} (${humanBytes(p.bytes)})`;
  return step;
}

// 0..100 when the job says how far it is, null while it cannot tell.
export function progressPercent(job) {
  if (!job) return null;
  if (job.state === "done") return 100;
  const p = job.progress || {};
  if (p.files_total > 0) return Math.min(100, Math.round(100 * (p.files_done || 0) / p.files_total));
  return null;
}

// An update's result in words.
export function updateWords(result) {
  const status = result?.update_status;
  if (status === "updated") {
    return `Updated ${result.previous_version || "?"} → ${result.version || "?"}`;
  }
  if (status === "up_to_date") return "Already up to date";
  if (status === "local_only") return "Installed locally: not from the store, nothing to update";
  return result?.message || "done";
}

// An install's result in words, with the display's note when it was not told.
export function installWords(job) {
  const r = job?.result || {};
  let words = job?.message || `Installed ${r.version || ""}`.trim();
  if (r.previous_version && r.previous_version === r.version) words = `Reinstalled ${r.version}`;
  return r.display_note ? `${words} (${r.display_note})` : words;
}

// POST a store operation (a JSON body, or a FormData upload) without waiting; return the
// job (queued, running or finished).
// A 409 JOB_RUNNING hands back the running job's id, which is followed instead.
export async function startJob(api, path, body) {
  let sent = { ...body, wait: 0 };
  if (body instanceof FormData) {  // an upload: the form itself, not its copy
    body.set("wait", "0");
    sent = body;
  }
  try {
    const answer = await api.post(path, sent);
    return answer.data.job || { id: answer.data.job_id, state: "queued" };
  } catch (err) {
    const running = err instanceof ApiError && err.error_code === "JOB_RUNNING"
      && typeof err.details?.job_id === "string";
    if (running) return { id: err.details.job_id, state: "running", step: "already running" };
    throw err;
  }
}

// Poll the job until it is done or failed; onProgress(job) after each read. A read that
// fails at the network level is asked again (a few times) before giving up.
export async function followJob(api, job, { onProgress = null, sleep = pause, interval = POLL_MS,
                                            maxPolls = MAX_POLLS, delays } = {}) {
  let current = job;
  for (let polls = 0; polls < maxPolls; polls += 1) {
    if (onProgress) onProgress(current);
    if (current.state === "done" || current.state === "failed") return current;
    await sleep(interval);
    const path = `/plugins/store/jobs/${encodeURIComponent(current.id)}`;
    const answer = await withRetry(() => api.get(path), { attempts: 3, delays, sleep });
    current = answer.data;
  }
  throw new ApiError("JOB_TIMEOUT", `job ${job.id} did not finish in time; it may still be running`);
}

// Start a job and follow it; resolve with the finished job (state done or failed).
export async function runJob(api, path, body, options = {}) {
  const job = await startJob(api, path, body);
  return followJob(api, job, options);
}

// Check & Update All: update each plugin in turn. The POST is retried on network-level
// failures (options.delays between tries, five more at most); a refusal is not retried.
// onStep({index, total, pluginId, job, retry}) reports progress. Returns the summary:
// {updated: [{plugin_id, words}], up_to_date: [ids], local_only: [ids], failed: [{plugin_id, message}]}.
export async function updateAll(api, pluginIds, { onStep = null, sleep = pause, delays,
                                                  attempts = 5, interval = POLL_MS } = {}) {
  const summary = { updated: [], up_to_date: [], local_only: [], failed: [] };
  const total = pluginIds.length;
  for (const [index, pluginId] of pluginIds.entries()) {
    const tell = (more) => onStep && onStep({ index, total, pluginId, ...more });
    tell({ job: null });
    try {
      const job = await withRetry(() => startJob(api, "/plugins/update", { plugin_id: pluginId }), {
        attempts, delays, sleep, onRetry: (err, attempt, wait) => tell({ retry: { attempt, wait, message: err.message } }) });
      const done = await followJob(api, job, { sleep, interval, delays,
                                                onProgress: (j) => tell({ job: j }) });
      const result = done.result || {};
      if (done.state === "failed") {
        summary.failed.push({ plugin_id: pluginId, message: done.message || done.error_code || "failed" });
      } else if (result.update_status === "updated") {
        summary.updated.push({ plugin_id: pluginId, words: updateWords(result) });
      } else if (result.update_status === "local_only") {
        summary.local_only.push(pluginId);
      } else {
        summary.up_to_date.push(pluginId);
      }
    } catch (err) {
      const why = isRetryable(err) ? `${err.message} (gave up after ${attempts + 1} tries)` : err.message;
      summary.failed.push({ plugin_id: pluginId, message: why || String(err) });
    }
  }
  return summary;
}

// ---- the tab bar (browser only): one tab per installed plugin, after the Plugin Store

// Add tabs for plugins newly installed, drop those of plugins gone; the panel of a new
// tab loads its partial the first time it opens, as the server-drawn ones do.
export function syncPluginTabs(plugins) {
  const bar = document.querySelector(".tab-bar");
  const select = document.getElementById("tab-select");
  const main = document.querySelector("main");
  if (!bar || !select || !main) return;
  const wanted = new Map(plugins.filter((p) => typeof p.id === "string" && /^[A-Za-z0-9_.-]+$/.test(p.id)
                                                && p.id !== "." && p.id !== "..")
                                 .map((p) => [`plugin-${p.id}`, p]));
  for (const button of bar.querySelectorAll(".tab.plugin-tab")) {
    const key = button.dataset.tab;
    if (wanted.has(key)) continue;
    button.closest("li").remove();
    select.querySelector(`option[value="${CSS.escape(key)}"]`)?.remove();
    document.getElementById(`tab-${key}`)?.remove();
  }
  const storeItem = bar.querySelector('[data-tab="plugin-store"]')?.closest("li");
  let after = [...bar.querySelectorAll(".tab.plugin-tab")].pop()?.closest("li") || storeItem;
  for (const [key, plugin] of wanted) {
    if (document.getElementById(`tab-${key}`)) continue;
    const title = String(plugin.name || plugin.id);
    const item = document.createElement("li");
    const button = document.createElement("button");
    Object.assign(button, { type: "button", className: "tab plugin-tab", textContent: title });
    button.setAttribute("role", "tab");
    button.dataset.tab = key;
    button.setAttribute("aria-controls", `tab-${key}`);
    button.setAttribute("aria-selected", "false");
    item.append(button);
    if (after) after.after(item); else bar.append(item);
    after = item;
    const option = document.createElement("option");
    option.value = key;
    option.textContent = title;
    const before = select.querySelector(`option[value="${CSS.escape(after.nextElementSibling?.firstElementChild?.dataset.tab || "")}"]`);
    select.insertBefore(option, before);
    const section = document.createElement("section");
    Object.assign(section, { id: `tab-${key}`, className: "tab-panel", hidden: true });
    section.setAttribute("role", "tabpanel");
    section.setAttribute("hx-get", `/v3/partials/plugin/${encodeURIComponent(plugin.id)}`);
    section.setAttribute("hx-trigger", "ledpanel:open once");
    section.setAttribute("hx-swap", "innerHTML");
    const loading = document.createElement("p");
    loading.className = "loading";
    loading.textContent = `Loading ${title}…`;
    section.append(loading);
    main.append(section);
    window.htmx.process(section);
  }
}

// Refresh the shared store's installed list, then the tab bar from it.
export async function refreshInstalled() {
  const store = window.Alpine.store("ledpanel");
  await store.refresh();
  syncPluginTabs(store.plugins);
}
