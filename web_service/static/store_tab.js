// The Plugin Store tab (Alpine component "pluginStore"): search the registry, install,
// reinstall or update a plugin with a progress bar, install from a repository URL or an
// uploaded ZIP, manage the store's sources and show the repository host's status.
// Registry values are untrusted: the template shows them with x-text only, links only
// for http(s) URLs.
import api, { ApiError } from "./api.js";
import { installWords, progressPercent, progressText, refreshInstalled, runJob, safeLink,
         updateWords } from "./store_view.js";

function describe(err) {
  return err instanceof ApiError ? err.message : String(err?.message || err);
}

function when(iso) {
  const date = new Date(iso);
  return iso && !Number.isNaN(date.getTime()) ? date.toLocaleString() : "an earlier fetch";
}

function pluginStore() {
  return {
    query: "", category: "", categories: [], plugins: [], loaded: false, loading: false,
    stale: false, warnings: [], fetchedAt: null, unavailable: "", problem: "",
    jobs: {},  // plugin id (or "repo-url", "zip") -> {text, percent, running, done, message, error}
    sources: [], newKind: "registry", newUrl: "", sourcesNote: { text: "", error: false },
    host: null, hostProblem: "", repoUrl: "", seq: 0,

    init() {
      this.load();
      this.loadSources();
      this.loadHost();
    },

    async load(refresh = false) {
      const seq = ++this.seq;  // a slower earlier answer never replaces a newer one
      this.loading = true;
      const query = new URLSearchParams({ query: this.query.trim(), category: this.category });
      if (refresh) query.set("refresh", "1");
      try {
        const answer = await api.get(`/plugins/store/list?${query}`);
        if (seq !== this.seq) return;
        const data = answer.data || {};
        this.plugins = Array.isArray(data.plugins) ? data.plugins : [];
        this.categories = Array.isArray(data.categories) ? data.categories : [];
        this.stale = Boolean(data.stale);
        this.warnings = Array.isArray(data.warnings) ? data.warnings.map(String) : [];
        this.fetchedAt = data.fetched_at || null;
        this.unavailable = "";
        this.problem = "";
      } catch (err) {
        if (seq !== this.seq) return;
        if (err.error_code === "REGISTRY_UNAVAILABLE") {
          this.unavailable = describe(err);
          this.plugins = [];
        } else {
          this.problem = describe(err);
        }
      } finally {
        if (seq === this.seq) { this.loading = false; this.loaded = true; }
      }
    },

    staleText() {
      const why = this.warnings.length ? this.warnings.join("; ") : "the registry";
      return `Showing the list from ${when(this.fetchedAt)}; could not reach ${why}.`;
    },

    link(plugin) { return safeLink(plugin.repo); },
    hasUpdate(plugin) {
      return plugin.installed && plugin.latest_version && plugin.installed_version !== plugin.latest_version;
    },
    actionLabel(plugin) {
      if (!plugin.installed) return "Install";
      return this.hasUpdate(plugin) ? "Update" : "Reinstall";
    },
    stateText(plugin) {
      if (!plugin.installed) return "";
      const installed = `Installed${plugin.installed_version ? ` ${plugin.installed_version}` : ""}`;
      return this.hasUpdate(plugin) ? `${installed} · Update available` : installed;
    },
    job(key) { return this.jobs[key] || null; },
    busy(key) { return Boolean(this.jobs[key] && this.jobs[key].running); },
    stepOf(key) { return this.busy(key) ? this.jobs[key].text : ""; },
    percentOf(key) { return this.jobs[key] ? this.jobs[key].percent ?? null : null; },
    failedOf(key) { return Boolean(this.jobs[key] && this.jobs[key].error); },
    outcomeOf(key) { return (this.jobs[key] && this.jobs[key].message) || ""; },

    async operate(key, path, body, words) {
      if (this.busy(key)) return;
      this.jobs[key] = { text: "starting", percent: 0, running: true, message: "", error: false };
      let finished = null;
      try {
        finished = await runJob(api, path, body, {
          onProgress: (job) => {
            this.jobs[key] = { ...this.jobs[key], text: progressText(job),
                               percent: progressPercent(job) };
          } });
        const failed = finished.state === "failed";
        this.jobs[key] = { text: failed ? "failed" : "done", percent: failed ? 0 : 100,
                           running: false, error: failed,
                           message: failed ? (finished.message || finished.error_code)
                             : words(finished) };
      } catch (err) {
        this.jobs[key] = { text: "", percent: 0, running: false, error: true, message: describe(err) };
      }
      if (finished?.state === "done") {
        await refreshInstalled();
        await this.load();
      }
    },

    act(plugin) {
      const id = String(plugin.id);
      if (this.hasUpdate(plugin)) {
        return this.operate(id, "/plugins/update", { plugin_id: id },
                            (job) => updateWords(job.result));
      }
      return this.operate(id, "/plugins/install", { plugin_id: id }, installWords);
    },

    installFromUrl() {
      const url = this.repoUrl.trim();
      if (!safeLink(url)) {
        this.jobs["repo-url"] = { text: "", running: false, error: true,
                                  message: "Give the repository's http(s) address." };
        return null;
      }
      return this.operate("repo-url", "/plugins/install", { repo_url: url }, installWords);
    },

    installFromZip(input) {
      const file = input && input.files && input.files[0];
      if (!file) {
        this.jobs.zip = { text: "", running: false, error: true,
                          message: "Choose the plugin's .zip file first." };
        return null;
      }
      const form = new FormData();
      form.append("plugin_zip", file, file.name);
      return this.operate("zip", "/plugins/install/upload", form, installWords);
    },

    async loadSources() {
      try {
        this.sources = (await api.get("/plugins/store/sources")).data.sources || [];
      } catch (err) {
        this.sourcesNote = { text: describe(err), error: true };
      }
    },

    async changeSource(method, body, said) {
      try {
        const answer = method === "add" ? await api.post("/plugins/store/sources", body)
          : await api.del("/plugins/store/sources", body);
        this.sources = answer.data.sources || [];
        this.sourcesNote = { text: said, error: false };
        if (method === "add") this.newUrl = "";
        await this.load(true);
        return true;
      } catch (err) {
        this.sourcesNote = { text: describe(err), error: true };
        return false;
      }
    },
    addSource() {
      return this.changeSource("add", { kind: this.newKind, url: this.newUrl.trim() }, "Source added.");
    },
    removeSource(source) {
      return this.changeSource("remove", { kind: source.kind, url: source.url }, "Source removed.");
    },

    async loadHost() {
      try {
        this.host = (await api.get("/plugins/store/github-status")).data;
        this.hostProblem = "";
      } catch (err) {
        this.hostProblem = describe(err);
      }
    },
    hostText() {
      const h = this.host;
      if (!h) return this.hostProblem || "checking…";
      const quota = h.rate_limit && h.rate_limit.remaining != null
        ? `${h.rate_limit.remaining} of ${h.rate_limit.limit ?? "?"} requests left` : "quota unknown";
      return `${h.reachable ? "reachable" : "not reachable"} · token configured: ${
        h.token_configured ? "yes" : "no"} · ${quota}`;
    },
  };
}

document.addEventListener("alpine:init", () => {
  window.Alpine.data("pluginStore", pluginStore);
});
