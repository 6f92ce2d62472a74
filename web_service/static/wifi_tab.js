// The WiFi tab: the current network and signal, a scan, connecting (the password field is
// cleared once sent and never shown back), disconnecting and forgetting, the setup access
// point and its automatic opening. Everything is drawn with textContent.
import api from "./api.js";
import { describe, onDrawn, say } from "./tool_common.js";

onDrawn("wifi", (root) => {
  const $ = (selector) => root.querySelector(selector);
  const line = $("[data-wifi-status]");
  if (!line) return; // no NetworkManager here: the tab says so and asks nothing
  let current = null;

  function show(status) {
    current = status;
    $("[data-wifi-now]").hidden = false;
    $("[data-wifi-ssid]").textContent = status.connected ? status.ssid : "not connected";
    $("[data-wifi-signal]").textContent = status.signal == null ? "—" : `${status.signal}%`;
    $("[data-wifi-address]").textContent = status.address || "—";
    $("[data-wifi-radio]").textContent = status.radio ? "on" : "off";
    $("[data-wifi-ap]").textContent = status.ap_active ? `open (${status.ap_ssid})` : "closed";
    $("[data-wifi-ap-toggle]").textContent = status.ap_active ? "Close the access point" : "Open the access point";
    $("[data-wifi-ap-note]").hidden = !status.ap_active;
    $("[data-wifi-auto]").checked = Boolean(status.auto_enable_ap_mode);
    $("[data-wifi-disconnect]").disabled = !status.connected;
    $("[data-wifi-forget]").disabled = !status.connected;
  }

  async function refresh() {
    try {
      show((await api.get("/wifi/status")).data);
      return true;
    } catch (err) {
      say(line, describe(err), true);
      return false;
    }
  }

  function drawNetworks(networks) {
    const body = $("[data-wifi-networks] tbody");
    body.replaceChildren();
    if (!networks.length) {
      const row = body.insertRow();
      const cell = row.insertCell();
      cell.colSpan = 4;
      cell.className = "hint";
      cell.textContent = "No network in range.";
      return;
    }
    for (const net of networks) {
      const row = body.insertRow();
      row.dataset.wifiNetwork = net.ssid;
      row.insertCell().textContent = net.in_use ? `${net.ssid} (connected)` : net.ssid;
      row.insertCell().textContent = `${net.signal}%`;
      row.insertCell().textContent = net.security || "open";
      const pick = document.createElement("button");
      pick.type = "button";
      pick.textContent = "Choose";
      pick.dataset.wifiPick = net.ssid;
      row.insertCell().append(pick);
    }
  }

  async function run(button, work, busy) {
    if (button) button.disabled = true;
    say(line, busy);
    try {
      const answer = await work();
      say(line, answer.message || "done");
    } catch (err) {
      say(line, describe(err), true);
    } finally {
      if (button) button.disabled = false;
      await refresh();
    }
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.matches("[data-wifi-scan]")) {
      run(target, async () => {
        const answer = await api.get("/wifi/scan");
        drawNetworks(answer.data.networks);
        return { message: `${answer.data.networks.length} network(s) in range` };
      }, "scanning…");
    } else if (target.dataset.wifiPick !== undefined) {
      $("[data-wifi-connect-ssid]").value = target.dataset.wifiPick;
      $("[data-wifi-connect-password]").focus();
    } else if (target.matches("[data-wifi-disconnect]")) {
      run(target, () => api.post("/wifi/disconnect", {}), "disconnecting…");
    } else if (target.matches("[data-wifi-forget]") && current?.ssid) {
      if (!window.confirm(`Forget ${current.ssid}? The panel will not join it again by itself.`)) return;
      run(target, () => api.post("/wifi/disconnect", { forget: current.ssid }), "forgetting…");
    } else if (target.matches("[data-wifi-ap-toggle]")) {
      const open = !current?.ap_active;
      run(target, () => api.post(open ? "/wifi/ap/enable" : "/wifi/ap/disable", {}),
        open ? "opening the access point…" : "closing the access point…");
    }
  });

  $("[data-wifi-connect]").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const ssid = form.elements.ssid.value;
    const password = form.elements.password.value;
    form.elements.password.value = "";
    const body = password ? { ssid, password } : { ssid };
    run(form.querySelector("button"), () => api.post("/wifi/connect", body), `connecting to ${ssid}…`);
  });

  $("[data-wifi-auto]").addEventListener("change", (event) => {
    const box = event.currentTarget;
    run(box, () => api.post("/wifi/ap/auto-enable", { auto_enable_ap_mode: box.checked }), "saving…");
  });

  refresh();
});
