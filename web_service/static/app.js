// The web UI shell: tabs (each loaded once from /v3/partials/<name> by htmx), and the
// one shared store every tab reads, refreshed from the API while the page is visible.
import api, { ApiError } from "./api.js";
import * as view from "./status_view.js";
import { startMetrics } from "./overview_metrics.js";
import { startPreview } from "./overview_preview.js";
import { systemActions } from "./system_actions.js";

const POLL_MS = 2000;

function describe(err) {
  if (err instanceof ApiError) return err.message;
  return String(err?.message || err);
}

function makeStore() {
  return {
    status: null,        // data of GET /system/status
    plugins: [],         // data of GET /plugins/installed
    pluginsError: null,  // why the plugin list could not be read (a broken config file)
    reachable: true,     // false while the web service does not answer
    signedOut: false,    // the API asks for sign-in (the session ended)
    message: { text: "", error: false },
    preview: null,       // data: URL of the last frame while it is current
    busy: false,
    clock: Date.now(),   // ticks each second while an on-demand run counts down

    headline() {
      if (this.signedOut) return "signed out: reload the page to sign in";
      return this.reachable ? view.headline(this.status, this.plugins) : "web service not reachable";
    },
    tone() { return this.reachable && !this.signedOut ? view.tone(this.status) : "down"; },
    displayRows() { return view.displayRows(this.status, this.plugins, this.clock); },
    onDemandNow() { return view.onDemandNow(this.status, this.plugins, this.clock); },
    systemRows() { return view.systemRows(this.status); },
    pluginErrors() { return view.pluginErrors(this.status); },
    loadWarnings(pluginId) { return view.loadWarnings(this.status, pluginId); },
    safeMode() { return this.status?.display?.safe_mode || []; },
    previewBlocked() { return view.previewBlocked(this.status); },
    running() { return view.isRunning(this.status); },
    onDemand() { return this.status?.display?.on_demand || null; },
    plugin(id) { return this.plugins.find((p) => p.id === id) || null; },

    say(text, error = false) { this.message = { text, error }; },

    async refresh() {
      try {
        const [status, plugins] = await Promise.allSettled([
          api.get("/system/status"), api.get("/plugins/installed")]);
        if (status.status === "rejected") throw status.reason;
        this.status = status.value.data;
        this.reachable = true;
        this.signedOut = false;
        if (plugins.status === "fulfilled") {
          this.plugins = plugins.value.data;
          this.pluginsError = null;
        } else {
          this.pluginsError = describe(plugins.reason);
        }
        if (view.previewBlocked(this.status)) this.preview = null;
      } catch (err) {
        this.reachable = !(err instanceof ApiError && err.error_code === "NETWORK_ERROR");
        this.signedOut = err instanceof ApiError && err.status === 401;
        if (!this.reachable) this.preview = null;
      }
    },

    // Run one API action, say its answer, and refresh what it changed.
    async act(path, body) {
      this.busy = true;
      try {
        const answer = await api.post(path, body);
        this.say(answer.message || "done");
        return answer;
      } catch (err) {
        this.say(describe(err), true);
        return null;
      } finally {
        this.busy = false;
        await this.refresh();
      }
    },

    startOnDemand(pluginId, { mode = null, duration = null, pinned = false } = {}) {
      const body = { plugin_id: pluginId, pinned };
      if (mode) body.mode = mode;
      if (duration !== null && duration !== "" && !Number.isNaN(Number(duration))) {
        body.duration = Number(duration);
      }
      return this.act("/display/on-demand/start", body);
    },
    stopOnDemand() { return this.act("/display/on-demand/stop", {}); },
    nextEntry() { return this.act("/display/next", {}); },
    setPower(on) { return this.act("/display/power", { on }); },
    powerButton() { return view.powerButton(this.status); },
    toggle(pluginId, enabled) { return this.act("/plugins/toggle", { plugin_id: pluginId, enabled }); },
    release(pluginId) { return this.act("/plugins/safe-mode/release", { plugin_id: pluginId }); },
  };
}

// The words of an action's answer for a tab's own message line.
function noteOf(done, store, before) {
  if (done) return { text: done.message || "done", error: false };
  return store.message === before ? { text: "failed", error: true } : store.message;
}

// A plugin tab's own state: the Run On-Demand choices and its own message line.
function pluginTab(pluginId, firstMode) {
  return {
    pluginId, mode: firstMode || "", duration: "", pinned: false, note: { text: "", error: false },
    get record() { return this.$store.ledpanel.plugin(this.pluginId); },
    async run(answer) {
      const store = this.$store.ledpanel;
      const before = store.message;
      this.note = noteOf(await answer, store, before);
    },
    start() {
      this.run(this.$store.ledpanel.startOnDemand(this.pluginId, {
        mode: this.mode, duration: this.duration, pinned: this.pinned }));
    },
    stop() { this.run(this.$store.ledpanel.stopOnDemand()); },
    async reload() { await this.$store.ledpanel.refresh(); this.note = { text: "refreshed", error: false }; },
  };
}

// The Plugin Manager: its rows come from the installed-plugins listing, which leaves the
// manifests' icons out; the partial carries them (a plugin installed since shows the default).
function pluginManager() {
  return {
    icons: {}, defaultIcon: "",
    init() {
      this.defaultIcon = this.$el.dataset.defaultIcon || "";
      try { this.icons = JSON.parse(this.$el.dataset.icons || "{}") || {}; } catch { this.icons = {}; }
    },
    icon(pluginId) {
      const icon = Object.hasOwn(this.icons, pluginId) ? this.icons[pluginId] : null;
      return typeof icon === "string" ? icon : this.defaultIcon;
    },
  };
}

// The Overview: its on-demand chooser follows the run in progress, whoever started it;
// its message line answers only what was pressed here (a plugin tab has its own).
function overview() {
  return {
    pluginId: "", session: null, note: { text: "", error: false },
    panelNote: { text: "", error: false },
    follow() {
      const od = this.$store.ledpanel.onDemand();
      const session = od?.state === "active" ? `${od.plugin_id}|${od.request_id}` : null;
      if (session === this.session) return;
      this.session = session;
      if (session) this.pluginId = od.plugin_id;
    },
    async run(answer) {
      const store = this.$store.ledpanel;
      const before = store.message;
      this.note = noteOf(await answer, store, before);
    },
    start() { if (this.pluginId) this.run(this.$store.ledpanel.startOnDemand(this.pluginId)); },
    stop() { this.run(this.$store.ledpanel.stopOnDemand()); },
    release(pluginId) { this.run(this.$store.ledpanel.release(pluginId)); },
    // Next and the power button answer on the Panel card's own line.
    async panel(answer) {
      const store = this.$store.ledpanel;
      const before = store.message;
      this.panelNote = noteOf(await answer, store, before);
    },
    next() { this.panel(this.$store.ledpanel.nextEntry()); },
    power() {
      const button = this.$store.ledpanel.powerButton();
      if (button) this.panel(this.$store.ledpanel.setPower(button.on));
    },
  };
}

document.addEventListener("alpine:init", () => {
  const Alpine = window.Alpine;
  Alpine.store("ledpanel", makeStore());
  Alpine.data("pluginTab", pluginTab);
  Alpine.data("overview", overview);
  Alpine.data("pluginManager", pluginManager);
  Alpine.data("systemActions", systemActions);
});

// ---- tabs

function panels() { return [...document.querySelectorAll(".tab-panel")]; }

function openTab(key, { remember = true } = {}) {
  const panel = document.getElementById(`tab-${key}`);
  if (!panel) return openTab("overview", { remember });
  for (const other of panels()) other.hidden = other !== panel;
  for (const button of document.querySelectorAll(".tab-bar .tab")) {
    const selected = button.dataset.tab === key;
    button.setAttribute("aria-selected", String(selected));
    if (selected) button.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  document.getElementById("tab-select").value = key;
  if (!panel.dataset.opened) {  // loaded once, then kept
    panel.dataset.opened = "1";
    window.htmx.trigger(panel, "ledpanel:open");
  }
  if (remember && location.hash !== `#${key}`) history.replaceState(null, "", `#${key}`);
}

function startTabs() {
  // A partial's 404/500 answer is a friendly fragment: show it rather than nothing.
  window.htmx.config.responseHandling = [
    { code: "204", swap: false }, { code: "[23]..", swap: true },
    { code: "[45]..", swap: true, error: true }];
  window.htmx.config.historyEnabled = false;
  // A tab asked for after the session ended is answered by the sign-in page: go there
  // instead of drawing it inside the tab.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const answered = new URL(event.detail.xhr.responseURL || location.href, location.href);
    if (answered.pathname === "/sign-in") {
      event.detail.shouldSwap = false;
      location.assign(`/sign-in?next=${encodeURIComponent(`/${location.hash}`)}`);
    }
  });
  document.querySelector(".tab-bar").addEventListener("click", (event) => {
    const button = event.target.closest("[data-tab]");
    if (button) openTab(button.dataset.tab);
  });
  document.getElementById("tab-select").addEventListener("change",
    (event) => openTab(event.target.value));
  // Links inside partials ("open its tab") are plain #hash links.
  window.addEventListener("hashchange", () => openTab(location.hash.slice(1) || "overview",
                                                      { remember: false }));
  openTab(location.hash.slice(1) || "overview", { remember: false });
}

// ---- refresh loops: each is bounded by the page being visible

async function pollStatus() {
  const store = window.Alpine.store("ledpanel");
  if (document.visibilityState === "visible") await store.refresh();
  setTimeout(pollStatus, POLL_MS);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") window.Alpine.store("ledpanel").refresh();
});

// An on-demand run's time left counts down by the second between status polls.
function tickClock() {
  const store = window.Alpine.store("ledpanel");
  const od = store.onDemand();
  if (document.visibilityState === "visible" && od?.state === "active") store.clock = Date.now();
  setTimeout(tickClock, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  setTimeout(startTabs);  // after htmx's own DOMContentLoaded start has processed the page
  window.Alpine.store("ledpanel").refresh();
  setTimeout(pollStatus, POLL_MS);
  tickClock();
  // The header badge is cut short on a phone: its whole text is its tooltip.
  const badge = document.getElementById("header-state");
  window.Alpine.effect(() => { badge.title = window.Alpine.store("ledpanel").headline(); });
  startPreview(window.Alpine.store("ledpanel"));  // the Overview's live picture
  startMetrics();  // the Overview's Performance card
});
