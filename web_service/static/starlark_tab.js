// The Scripted apps tab (Alpine component "starlarkApps", templates/partials/starlark.html):
// the installed apps with their previews, each app's settings (drawn by the plugin form
// renderer, saved here with PATCH), install from the apps repository or a file. Every
// request shows that it runs and then its outcome; a refusal shows the server's words.
import api, { ApiError } from "./api.js";
import { collect } from "./plugin_form.js";
import * as view from "./starlark_view.js";

const POLL_MS = 5000;
const INDEX_POLL_MS = 1000;  // while the repository's index is built
const BASE = "/starlark";

function describe(err) {
  return err instanceof ApiError ? err.message : String(err?.message || err);
}

function appPath(appId, rest = "") {
  return `${BASE}/apps/${encodeURIComponent(String(appId))}${rest}`;
}

function starlarkApps() {
  return {
    status: null, settings: null, apps: [], loaded: false, problem: "",
    note: { text: "", error: false }, notes: {}, running: {}, confirming: null,
    failedPreviews: {}, now: Date.now(),
    query: "", category: "", categories: [], results: [], page: 1, answer: null,
    repoLoaded: false, browsing: false, browsingText: "", repoProblem: "", repoWarning: "",
    seq: 0,
    uploadId: "", replacing: "",

    init() {
      this.$el.dataset.ready = "1";
      this.load();
      this.poll();
    },

    // While the tab is open and the page visible, follow what the display rendered.
    poll() {
      setTimeout(async () => {
        const panel = this.$el.closest(".tab-panel");
        if (document.visibilityState === "visible" && !(panel && panel.hidden)) await this.load();
        this.poll();
      }, POLL_MS);
    },

    async load() {
      try {
        const data = (await api.get(`${BASE}/status`)).data || {};
        this.status = data;
        this.settings = data.settings || null;
        this.apps = Array.isArray(data.apps) ? data.apps : [];
        this.problem = "";
      } catch (err) {
        this.problem = `The apps could not be read: ${describe(err)}`;
      } finally {
        this.loaded = true;
        this.now = Date.now();
      }
    },

    runtimeText() { return view.runtimeText(this.status); },
    settingsText() { return view.settingsText(this.settings); },
    renderedText(app) { return view.renderedText(app, this.now); },
    errorText(app) { return view.errorText(app, this.now); },
    skippedText(app) { return view.skippedText(app); },
    previewSrc(app) {
      const src = view.previewSrc(app);
      return src && !this.failedPreviews[src] ? src : "";
    },
    previewText(app) { return view.previewText(app); },  // no preview yet, or it answered 404
    previewFailed(app) { this.failedPreviews[view.previewSrc(app)] = true; },

    busy(key) { return Boolean(this.running[key]); },
    noteOf(key) { return this.notes[key]?.text || ""; },
    noteFailed(key) { return Boolean(this.notes[key]?.error); },
    tell(key, text, error = false) { this.notes[key] = { text, error }; },

    // Run one request for `key` (an app id, "upload"): busy while it runs, its outcome
    // (or the server's refusal) in the key's note. Returns the answer, or null.
    async run(key, started, request, words) {
      if (this.busy(key)) return null;
      this.running[key] = true;
      this.tell(key, started);
      try {
        const answer = await request();
        this.tell(key, words(answer));
        return answer;
      } catch (err) {
        this.tell(key, describe(err), true);
        return err;
      } finally {
        this.running[key] = false;
      }
    },

    async setEnabled(app, enabled) {
      const answer = await this.run(app.id, enabled ? "enabling…" : "disabling…",
        () => api.post(appPath(app.id), { enabled }),
        () => (enabled ? "Enabled: it takes its turn on the panel." : "Disabled: it is left out."));
      if (answer instanceof Error) { await this.load(); return; }
      app.enabled = enabled;
    },

    async remove(app) {
      this.confirming = null;
      const answer = await this.run(app.id, "removing…", () => api.del(appPath(app.id)),
                                    (a) => a.message || "Removed");
      if (answer instanceof Error || answer === null) return;
      this.note = { text: `${app.name || app.id} removed.`, error: false };
      await this.load();
      this.markInstalled(app.id, false);
    },

    // The settings panel is drawn by the server the first time it opens.
    openSettings(app, details) {
      const holder = details.querySelector(".sl-form-holder");
      if (!details.open || holder.dataset.loaded) return;
      holder.dataset.loaded = "1";
      window.htmx.ajax("GET", `/v3/partials/starlark-app-config/${encodeURIComponent(app.id)}`,
                       { target: holder, swap: "innerHTML" });
    },

    markInstalled(appId, installed) {
      for (const r of this.results) if (r.id === appId) r.installed = installed;
    },

    // ---- the repository

    // One page of the repository's apps. While its index is still built in the
    // background, the answer holds what is read so far: ask again until it is done.
    async browse(page = 1, again = false) {
      const seq = ++this.seq;  // a slower earlier answer never replaces a newer one
      if (!again) {
        this.browsing = true;
        this.browsingText = this.repoLoaded ? "Searching…" : "Reading the apps repository…";
      }
      const query = new URLSearchParams({ q: this.query.trim(), category: this.category,
                                          page: String(page) });
      try {
        const answer = await api.get(`${BASE}/repository?${query}`);
        if (seq !== this.seq) return;
        this.show(answer.data || {}, page, answer.message);
        if (this.indexingText()) setTimeout(() => seq === this.seq && this.browse(page, true), INDEX_POLL_MS);
      } catch (err) {
        if (seq !== this.seq) return;
        this.repoProblem = `The apps repository could not be read: ${describe(err)}`;
      } finally {
        if (seq === this.seq) this.browsing = false;
      }
    },

    show(data, page, message) {
      this.answer = data;
      this.results = Array.isArray(data.apps) ? data.apps : [];
      this.categories = view.categoryList(data.categories);
      this.page = Number.isFinite(data.page) ? data.page : page;
      this.repoProblem = "";
      this.repoWarning = typeof data.warning === "string" && data.warning ? data.warning : "";
      this.repoLoaded = true;
    },

    indexingText() { return view.indexingText(this.answer?.indexing); },
    indexing() { return this.answer?.indexing || {}; },

    async refreshIndex() {
      this.browsing = true;
      this.browsingText = "Fetching the apps repository's index again…";
      try {
        await api.post(`${BASE}/repository/refresh`, {});
        this.repoProblem = "";
      } catch (err) {
        this.repoProblem = `The apps repository could not be read: ${describe(err)}`;
        this.browsing = false;
        return;
      }
      await this.browse(1);
    },

    pages() { return view.pageCount(this.answer); },
    repoSummary() { return view.repoSummary(this.answer, this.results.length, this.now); },
    categoryLabel(c) { return c.count === null ? c.name : `${c.name} (${c.count})`; },

    async installFromRepo(entry) {
      const answer = await this.run(entry.id, "downloading and checking…",
        () => api.post(`${BASE}/repository/install`, { app_id: entry.id, replace: Boolean(entry.installed) }),
        view.installedWords);
      if (answer instanceof Error || answer === null) return;
      entry.installed = true;
      await this.load();
    },

    // ---- a file

    async upload(input, replace) {
      const file = input && input.files && input.files[0];
      this.replacing = "";
      if (!file) { this.tell("upload", "Choose the app's .star or .zip file first.", true); return; }
      const form = new FormData();
      form.append("file", file, file.name);
      if (this.uploadId.trim()) form.append("app_id", this.uploadId.trim());
      if (replace) form.append("replace", "true");
      const answer = await this.run("upload", "uploading…", () => api.post(`${BASE}/upload`, form),
                                    view.installedWords);
      if (answer instanceof ApiError && answer.error_code === "APP_EXISTS") {
        this.tell("upload", "");
        this.replacing = `${answer.message} Replace the installed app with this file?`;
        return;
      }
      if (answer instanceof Error || answer === null) return;
      input.value = "";
      this.uploadId = "";
      await this.load();
      const app = answer.data?.app || answer.data || {};
      if (typeof app.id === "string") this.markInstalled(app.id, true);
    },
  };
}

// ---- an app's settings form: read back by the plugin form's collect(), saved with PATCH

function formStatus(form, text, error = false) {
  const status = form.querySelector(".pf-form-status");
  status.textContent = text;
  status.classList.toggle("error", error);
}

function showFieldErrors(form, err) {
  const field = String(err.details?.field || "").replace(/^config\./, "");
  const box = [...form.querySelectorAll(".pf-field")].find((f) => f.dataset.name === field)
    ?.querySelector(":scope > .pf-error");
  if (box) { box.textContent = err.message; box.hidden = false; }
}

export async function saveAppForm(form) {
  for (const box of form.querySelectorAll(".pf-error")) { box.textContent = ""; box.hidden = true; }
  const { config, problems } = collect(form);
  const duration = Number(form.querySelector(".sl-duration").value);
  if (problems.length) { formStatus(form, "Not saved: fix the marked fields.", true); return; }
  const button = form.querySelector(".sl-save");
  button.disabled = true;
  formStatus(form, "saving…");
  try {
    const answer = await api.post(appPath(form.dataset.app), { duration, config });
    formStatus(form, answer.message || "Saved.");
    form.dispatchEvent(new CustomEvent("starlark-saved", { bubbles: true }));
  } catch (err) {
    if (err instanceof ApiError && err.details?.field === "duration") {
      const box = form.querySelector(".sl-duration-field > .pf-error");
      box.textContent = err.message;
      box.hidden = false;
    } else if (err instanceof ApiError) {
      showFieldErrors(form, err);
    }
    formStatus(form, `Not saved: ${describe(err)}`, true);
  } finally {
    button.disabled = false;
  }
}

document.addEventListener("submit", (event) => {
  const form = event.target.closest?.(".sl-app-form");
  if (!form) return;
  event.preventDefault();
  saveAppForm(form);
});

document.addEventListener("alpine:init", () => {
  window.Alpine.data("starlarkApps", starlarkApps);
});
