// The store's buttons outside the Plugin Store tab: Update and Uninstall on a plugin's
// tab (Alpine "pluginStoreActions"), Check & Update All in the Plugin Manager (Alpine
// "updateAllPlugins"). Each runs a store job and shows its progress and outcome.
import api, { ApiError } from "./api.js";
import { progressPercent, progressText, refreshInstalled, runJob, updateAll, updateWords }
  from "./store_view.js";

function describe(err) {
  return err instanceof ApiError ? err.message : String(err?.message || err);
}

function pluginStoreActions(pluginId) {
  return {
    pluginId, running: false, text: "", percent: null, outcome: { text: "", error: false },
    confirming: false, removeConfig: false,

    async run(path, body, words) {
      this.running = true;
      this.outcome = { text: "", error: false };
      try {
        const job = await runJob(api, path, body, { onProgress: (j) => {
          this.text = progressText(j);
          this.percent = progressPercent(j);
        } });
        if (job.state === "failed") {
          this.outcome = { text: job.message || job.error_code || "failed", error: true };
          return null;
        }
        this.outcome = { text: words(job), error: false };
        return job;
      } catch (err) {
        this.outcome = { text: describe(err), error: true };
        return null;
      } finally {
        this.running = false;
      }
    },

    async update() {
      const job = await this.run("/plugins/update", { plugin_id: this.pluginId },
                                 (j) => updateWords(j.result));
      if (job?.result?.update_status === "updated") await refreshInstalled();
    },

    async uninstall() {
      this.confirming = false;
      const job = await this.run("/plugins/uninstall",
                                 { plugin_id: this.pluginId, remove_config: this.removeConfig },
                                 (j) => j.message || "Uninstalled");
      if (!job) return;
      location.hash = "#plugin-manager";
      const store = window.Alpine.store("ledpanel");
      store.say(job.message || `${this.pluginId} uninstalled`);
      await refreshInstalled();
    },
  };
}

function updateAllPlugins() {
  return {
    running: false, line: "", retryLine: "", summary: null, problem: "",

    async start() {
      const store = window.Alpine.store("ledpanel");
      await store.refresh();
      const ids = store.plugins.map((p) => p.id).filter((id) => typeof id === "string");
      if (!ids.length) { this.problem = "No plugins installed."; return; }
      this.running = true;
      this.summary = null;
      this.problem = "";
      try {
        this.summary = await updateAll(api, ids, { onStep: ({ index, total, pluginId, job, retry }) => {
          this.line = `${index + 1} of ${total}: ${pluginId}${job ? ` (${progressText(job)})` : ""}`;
          this.retryLine = retry ? `network problem, trying again in ${Math.round(retry.wait / 1000)} s `
            + `(retry ${retry.attempt} of 5): ${retry.message}` : "";
        } });
      } catch (err) {
        this.problem = describe(err);
      } finally {
        this.running = false;
        this.line = "";
        this.retryLine = "";
        await refreshInstalled();
      }
    },
  };
}

document.addEventListener("alpine:init", () => {
  window.Alpine.data("pluginStoreActions", pluginStoreActions);
  window.Alpine.data("updateAllPlugins", updateAllPlugins);
});
