// The MQTT tab: the bridge's settings (GET /mqtt fills the form; Save posts every field,
// the password as the mask when it was not retyped, so the stored one stays), Test
// connection (POST /mqtt/test with the form's values, nothing saved), and the connection
// state, read again every 3 s while the tab is shown. A refusal is shown under the field
// it names. Everything is drawn with textContent.
import api from "./api.js";
import { describe, onDrawn, say } from "./tool_common.js";

const CHECKBOXES = ["enabled", "tls"];
const STATE_EVERY = 3000;

onDrawn("mqtt", (root) => {
  const $ = (selector) => root.querySelector(selector);
  const form = $("[data-mqtt-form]");
  const status = $("[data-mqtt-status]");
  const field = (name) => $(`[data-mqtt-field="${name}"]`);

  function showState(state) {
    const shown = $("[data-mqtt-state]");
    shown.textContent = state;
    shown.dataset.state = ["connected", "connecting", "disabled"].includes(state) ? state : "problem";
  }

  function fill(data) {
    for (const [name, value] of Object.entries(data)) {
      const input = field(name);
      if (!input) continue;
      if (CHECKBOXES.includes(name)) input.checked = Boolean(value);
      else input.value = value ?? "";
    }
    $("[data-mqtt-topics]").textContent = `${data.base_topic}/state, ${data.base_topic}/notify, …`;
    showState(data.state);
  }

  function values() {
    const body = {};
    for (const input of form.querySelectorAll("[data-mqtt-field]")) {
      const name = input.dataset.mqttField;
      if (CHECKBOXES.includes(name)) body[name] = input.checked;
      else if (name === "port") body[name] = input.value === "" ? 1883 : Number(input.value);
      else body[name] = input.value.trim();
    }
    return body;
  }

  function clearErrors() {
    for (const old of form.querySelectorAll("p.error[data-mqtt-error]")) old.remove();
  }

  function showError(err) {
    say(status, describe(err), true);
    const name = err?.details?.field;
    const input = name && field(name);
    if (!input) return;
    const line = document.createElement("p");
    line.className = "error";
    line.dataset.mqttError = name;
    line.textContent = describe(err);
    input.closest("label").append(line);
  }

  async function load() {
    try {
      fill((await api.get("/mqtt")).data);
    } catch (err) {
      say(status, describe(err), true);
    }
  }

  async function send(button, path, busy) {
    clearErrors();
    button.disabled = true;
    say(status, busy);
    try {
      const answer = await api.post(path, values());
      if (path === "/mqtt") fill(answer.data);
      say(status, answer.message, answer.data?.connected === false);
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send($("[data-mqtt-save]"), "/mqtt", "Saving…");
  });
  $("[data-mqtt-test]").addEventListener("click", (event) => {
    send(event.currentTarget, "/mqtt/test", "Connecting…");
  });

  const timer = setInterval(async () => {
    if (!root.isConnected) { clearInterval(timer); return; }
    if (document.visibilityState !== "visible" || root.offsetParent === null) return;
    try {
      showState((await api.get("/mqtt")).data.state);
    } catch {
      // the next look tries again; a save or test shows its own errors
    }
  }, STATE_EVERY);
  load();
});
