// The Overview's "open to your network" line and the General tab's Sign-in card.
//
// The line can be dismissed; the dismissal is remembered in this browser under the
// address the web service listens on (the line's data-exposure), so the line comes
// back when the web listens somewhere else (and in every other browser). Its link
// opens the General tab at the Sign-in card.
import api, { ApiError } from "./api.js";

const DISMISSED = "ledpanel.exposureDismissed";
let revealPending = false;

function remembered() {
  try { return localStorage.getItem(DISMISSED); } catch { return null; }
}

function hideDismissed(root) {
  for (const line of root.querySelectorAll("[data-exposure]")) {
    if (remembered() === line.dataset.exposure) line.hidden = true;
  }
}

function dismiss(line) {
  try { localStorage.setItem(DISMISSED, line.dataset.exposure); } catch { /* private mode */ }
  line.hidden = true;
}

function reveal() {
  const card = document.getElementById("sign-in-settings");
  if (!card) return;  // the General tab is still loading: afterSettle calls again
  revealPending = false;
  card.scrollIntoView({ block: "start" });
  card.querySelector("input")?.focus();
}

function say(card, text, error = false) {
  const line = card.querySelector("[data-si-message]");
  line.textContent = text;
  line.classList.toggle("error", error);
}

function why(err) {
  return err instanceof ApiError ? `${err.message} [${err.error_code}]` : String(err?.message || err);
}

async function loadTokens(card) {
  const list = card.querySelector("[data-si-tokens]");
  if (!list) return;
  try {
    const { tokens } = (await api.get("/auth/tokens")).data;
    list.replaceChildren(...(tokens.length ? tokens.map((t) => {
      const item = document.createElement("li");
      item.dataset.token = t.name;
      const revoke = Object.assign(document.createElement("button"),
        { type: "button", textContent: "Revoke" });
      revoke.dataset.siRevoke = t.id;
      item.append(`${t.name} · ${t.scope} · made ${new Date(t.created_at * 1000).toLocaleString()} `,
                  revoke);
      return item;
    }) : [Object.assign(document.createElement("li"),
      { className: "hint", textContent: "No API tokens yet." })]));
  } catch (err) {
    list.replaceChildren(Object.assign(document.createElement("li"),
      { className: "error", textContent: `Cannot list them: ${why(err)}` }));
  }
}

function sameTwice(form) {
  const again = form.elements.again;
  return !again || again.value === form.elements.password.value;
}

async function switchOn(card, form) {
  if (!sameTwice(form)) return say(card, "The two passwords differ.", true);
  try {
    await api.post("/config/main",
                   { web: { sign_in: { enabled: true, password: form.elements.password.value } } });
    say(card, "Sign-in is on. Sign in with the password.");
    window.location.reload();  // the page now asks for sign-in
  } catch (err) {
    say(card, why(err), true);
  }
}

async function changePassword(card, form) {
  if (!sameTwice(form)) return say(card, "The two passwords differ.", true);
  try {
    await api.post("/auth/password", { password: form.elements.password.value,
                                       current_password: form.elements.current_password.value });
    form.reset();
    say(card, "Password changed; other browsers were signed out.");
  } catch (err) {
    say(card, why(err), true);
  }
}

async function mint(card, form) {
  try {
    const { data } = await api.post("/auth/tokens", { name: form.elements.name.value.trim(),
                                                      scope: form.elements.scope.value });
    card.querySelector("[data-si-token-value]").textContent = data.token;
    card.querySelector("[data-si-new-token]").hidden = false;
    form.reset();
    say(card, `Token ${data.name} (${data.scope}) made.`);
    await loadTokens(card);
  } catch (err) {
    say(card, why(err), true);
  }
}

async function act(card, call, done) {
  try {
    await call();
    say(card, done);
  } catch (err) {
    say(card, why(err), true);
  }
}

document.addEventListener("click", (event) => {
  const line = event.target.closest("[data-exposure]");
  if (line && event.target.closest("[data-exposure-dismiss]")) return dismiss(line);
  if (event.target.closest("[data-sign-in-link]")) {
    revealPending = true;
    setTimeout(reveal, 0);
  }
  const card = event.target.closest("[data-sign-in-card]");
  if (!card) return;
  if (event.target.closest("[data-si-switch-off]")) {
    act(card, () => api.post("/config/main", { web: { sign_in: { enabled: false } } }),
        "Sign-in is off.").then(() => window.location.reload());
  }
  const revoke = event.target.closest("[data-si-revoke]");
  if (revoke) {
    act(card, () => api.del(`/auth/tokens/${encodeURIComponent(revoke.dataset.siRevoke)}`),
        "Token revoked.").then(() => loadTokens(card));
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  const card = form.closest?.("[data-sign-in-card]");
  if (!card) return;
  event.preventDefault();
  if (form.matches("[data-si-switch-on]")) switchOn(card, form);
  else if (form.matches("[data-si-password]")) changePassword(card, form);
  else if (form.matches("[data-si-mint]")) mint(card, form);
});

document.addEventListener("htmx:afterSettle", (event) => {
  const root = event.target;
  hideDismissed(root);
  for (const card of root.querySelectorAll("[data-sign-in-card]")) loadTokens(card);
  if (revealPending) reveal();
});
