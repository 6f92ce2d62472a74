// The Overview's core update line (Alpine "coreUpdate"): how Update Code goes, from
// GET /system/update. It polls while an update runs, through the web service's own
// restart (no answer then is expected, not an error), until the verdict; an update with
// no verdict after the lost-timeout is shown as lost with what to do. Update Code starts
// an update (POST /system/action git_pull) and then dispatches "ledpanel:core-update"
// on window, which starts the polling here.
import api from "./api.js";

export const POLL_MS = 2000;
const PHASES = {
  starting: "starting", preflight: "checking for local changes", pulling: "fetching the new release",
  installing: "reinstalling dependencies", restarting: "restarting both services",
  verifying: "checking the new release is healthy", rolling_back: "rolling back",
};
const VERDICTS = {
  updated: "Updated", up_to_date: "Already up to date", rolled_back: "Rolled back",
  rollback_failed: "Rollback failed", blocked: "Blocked", failed: "Update failed",
};

// Return {text, error, running} for one state of GET /system/update (null: none yet).
export function updateLine(state) {
  if (!state || (!state.running && !state.result && !state.lost)) {
    return { text: "", error: false, running: false };
  }
  if (state.lost) return { text: `Update lost: ${state.message}`, error: true, running: false };
  if (state.running) {
    const phase = PHASES[state.phase] || state.phase || "running";
    return { text: `Updating: ${phase}…`, error: false, running: true };
  }
  const words = VERDICTS[state.result] || state.result;
  const ok = state.result === "updated" || state.result === "up_to_date";
  const stashed = state.stashed ? ` (${state.stashed})` : "";
  return { text: `${words}: ${state.message}${stashed}`, error: !ok, running: false };
}

function coreUpdate() {
  return {
    line: { text: "", error: false, running: false },
    timer: null,
    waiting: false,

    init() {
      window.addEventListener("ledpanel:core-update", () => this.poll());
      this.poll();
    },

    async poll() {
      clearTimeout(this.timer);
      try {
        const answer = await api.get("/system/update");
        this.waiting = false;
        this.line = updateLine(answer.data);
      } catch {
        // The web service restarts during an update: keep asking until it is back.
        this.waiting = this.line.running;
      }
      if (this.line.running || this.waiting) this.timer = setTimeout(() => this.poll(), POLL_MS);
    },
  };
}

if (typeof document !== "undefined") {  // not in the unit tests (node)
  document.addEventListener("alpine:init", () => {
    window.Alpine.data("coreUpdate", coreUpdate);
  });
}
