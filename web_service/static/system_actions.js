// The Overview's system buttons: POST /system/action, a confirmation before reboot and
// shutdown, the state while an action runs, and the wait for the web service to come
// back after a web restart or a reboot ("back in N s").
import api, { ApiError } from "./api.js";

export const CONFIRM = {
  reboot_system: {
    title: "Reboot the Raspberry Pi?",
    text: "The panel goes dark and this page waits until the web service is back (about a minute).",
    yes: "Reboot",
  },
  shutdown_system: {
    title: "Shut down the Raspberry Pi?",
    text: "The panel stays off until its power is unplugged and plugged in again.",
    yes: "Shut down",
  },
};

export const RUNNING_WORDS = {
  start_display: "Starting the display…",
  stop_display: "Stopping the display…",
  restart_display_service: "Restarting the display…",
  restart_web_service: "Restarting the web service…",
  reboot_system: "Asking the system to reboot…",
  shutdown_system: "Asking the system to shut down…",
  enable_autostart: "Turning autostart on…",
  disable_autostart: "Turning autostart off…",
  git_pull: "Starting Update Code…",
};

// After these the web service goes away and comes back: the page waits for it.
export const RECONNECT_AFTER = new Set(["restart_web_service", "reboot_system"]);
export const RECONNECT_STEP_MS = 1000;
export const RECONNECT_LIMIT_MS = 10 * 60 * 1000;

// Whether the page waits for the web service after `action` answered `err` (null: it
// succeeded). A reboot may take the web down before its answer leaves: no answer at all
// is then the reboot under way, not a failure.
export function awaitsReturn(action, err = null) {
  if (!RECONNECT_AFTER.has(action)) return false;
  return err === null || (err instanceof ApiError && err.error_code === "NETWORK_ERROR");
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Wait for the web service to be back: its health check failed once and answers again,
// or a web with another pid answers. Returns the seconds since `startedAt`, or null once
// `limitMs` passed without it.
export async function waitForReturn({ beforePid = null, startedAt = Date.now(),
                                      health = () => api.get("/health"),
                                      status = () => api.get("/system/status"),
                                      sleep = pause, now = Date.now,
                                      stepMs = RECONNECT_STEP_MS,
                                      limitMs = RECONNECT_LIMIT_MS } = {}) {
  let sawDown = false;
  while (now() - startedAt < limitMs) {
    await sleep(stepMs);
    try {
      await health();
    } catch {
      sawDown = true;
      continue;
    }
    let pid = null;
    try { pid = (await status())?.data?.web?.pid ?? null; } catch { pid = null; }
    if (sawDown || (beforePid !== null && pid !== null && pid !== beforePid)) {
      return Math.max(0, Math.round((now() - startedAt) / 1000));
    }
  }
  return null;
}

function describe(err) {
  return err instanceof ApiError ? err.message : String(err?.message || err);
}

export function systemActions() {
  return {
    running: null,     // the action in flight
    asking: null,      // the action waiting for its confirmation
    reconnecting: false,
    note: { text: "", error: false },

    get confirmText() { return CONFIRM[this.asking] || { title: "", text: "", yes: "" }; },

    press(action) {
      if (this.running) return;
      if (CONFIRM[action]) {
        this.asking = action;
        this.$refs.confirm.showModal();
        return;
      }
      this.run(action);
    },
    confirmed() {
      const action = this.asking;
      this.cancel();
      if (action) this.run(action);
    },
    cancel() {
      if (this.$refs.confirm.open) this.$refs.confirm.close();
      this.asking = null;
    },

    async run(action) {
      const store = this.$store.ledpanel;
      const beforePid = store.status?.web?.pid ?? null;
      const startedAt = Date.now();
      this.running = action;
      this.note = { text: RUNNING_WORDS[action] || "Working…", error: false };
      try {
        const answer = await api.post("/system/action", { action });
        this.note = { text: answer.message || "done", error: false };
        // The Overview's core-update line follows the update from here.
        if (action === "git_pull") window.dispatchEvent(new CustomEvent("ledpanel:core-update"));
        if (awaitsReturn(action)) await this.reconnect(answer.message, beforePid, startedAt);
      } catch (err) {
        this.note = { text: describe(err), error: true };
        if (awaitsReturn(action, err)) {
          const doing = action === "reboot_system" ? "Rebooting" : "Restarting";
          await this.reconnect(doing, beforePid, startedAt);
        }
      } finally {
        this.running = null;
        await store.refresh();
      }
    },

    async reconnect(message, beforePid, startedAt) {
      this.reconnecting = true;
      this.note = { text: `${message || "restarting"}. Waiting for the web service…`, error: false };
      try {
        const seconds = await waitForReturn({ beforePid, startedAt });
        this.note = seconds === null
          ? { text: "The web service has not come back after 10 minutes: check the Pi's power "
                    + "and network, or reload this page later.", error: true }
          : { text: `The web service is back in ${seconds} s.`, error: false };
      } finally {
        this.reconnecting = false;
      }
    },
  };
}
