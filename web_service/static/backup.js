// The Backup & Restore tab: download a backup (secrets only when ticked), restore one in
// two steps (a dry run listing what would change, then Confirm), and the kept
// pre-restore backups. Handlers are delegated from the document, so the tab works
// however often it is drawn.
import api, { ApiError, pageToken } from "./api.js";

const ROOT = "[data-backup]";
const TOKEN_HEADER = "X-Ledpanel-Token";
const NOTE_HEADER = "X-Ledpanel-Backup-Note";
const pending = new WeakMap();  // tab root -> the File checked by the dry run

function part(root, name) {
  return root.querySelector(`[data-backup-${name}]`);
}

function show(el, text) {
  el.textContent = text;
  el.hidden = !text;
}

function describe(err) {
  if (!(err instanceof ApiError)) return String(err?.message || err);
  const entry = err.details?.entry ? ` (${err.details.entry})` : "";
  return `${err.message}${entry} [${err.error_code}]`;
}

function listChanges(data) {
  const lines = [];
  const config = data.config || {};
  const sections = config.changed_sections || [];
  lines.push(sections.length ? `Config: changes ${sections.join(", ")}`
    : "Config: no change");
  lines.push(data.backup?.contents?.secrets
    ? `Secrets: ${config.secrets_changes ? "replaced by the backup's" : "no change"}`
    : "Secrets: not in the backup, the stored ones are kept");
  const kinds = [["fonts", "Fonts"], ["plugin_assets", "Plugin files"],
                 ["notify_icons", "Notification icons"]];
  for (const [key, label] of kinds) {
    const c = data[key] || {};
    const name = (e) => e.split("/").pop();
    const bits = [];
    if (c.added?.length) bits.push(`adds ${c.added.map(name).join(", ")}`);
    if (c.replaced?.length) bits.push(`replaces ${c.replaced.map(name).join(", ")}`);
    if (c.unchanged?.length) bits.push(`${c.unchanged.length} unchanged`);
    lines.push(`${label}: ${bits.length ? bits.join("; ") : "none in the backup"}`);
  }
  const made = data.backup?.created_at ? ` made ${data.backup.created_at}` : "";
  lines.push(`Backup${made} by version ${data.backup?.core_version ?? "unknown"}`);
  return lines;
}

// Fetch a backup ZIP with our page token (secrets go out only to the panel's own pages,
// or signed in) and hand it to the browser as a download; say what the server noted,
// e.g. that the secrets were left out and why.
async function fetchZip(root, url, fallbackName) {
  const status = part(root, "download-status");
  const secrets = url.endsWith("include_secrets=1");
  show(part(root, "error"), "");
  show(status, "Preparing the backup…");
  try {
    const answer = await fetch(url, { headers: { [TOKEN_HEADER]: pageToken() || "" } });
    if (!answer.ok) {
      const body = await answer.json().catch(() => null);
      throw new ApiError(body?.error_code || "API_ERROR", body?.message || `HTTP ${answer.status}`,
                         { status: answer.status, details: body?.details });
    }
    const name = /filename="?([^";]+)"?/.exec(answer.headers.get("Content-Disposition") || "")?.[1]
      || fallbackName;
    const note = answer.headers.get(NOTE_HEADER);
    const blob = URL.createObjectURL(await answer.blob());
    const link = Object.assign(document.createElement("a"), { href: blob, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(blob), 60000);
    show(status, note ? `Downloaded ${name}: ${note}.`
      : `Downloaded ${name}${secrets ? " (with secrets)" : ""}.`);
  } catch (err) {
    show(status, "");
    show(part(root, "error"), `Download failed: ${describe(err)}`);
  }
}

function download(root) {
  const secrets = part(root, "secrets").checked ? 1 : 0;
  return fetchZip(root, `/api/v3/backup/download?include_secrets=${secrets}`,
                  "ledpanel-backup.zip");
}

async function post(file, dryRun) {
  const form = new FormData();
  form.append("backup_file", file, file.name);
  if (dryRun) form.append("dry_run", "1");
  return (await api.post("/backup/restore", form)).data;
}

function reset(root) {
  pending.delete(root);
  part(root, "plan").hidden = true;
  part(root, "plan-list").replaceChildren();
}

async function check(root, form) {
  reset(root);
  show(part(root, "error"), "");
  show(part(root, "done"), "");
  const file = form.elements.backup_file.files[0];
  if (!file) {
    show(part(root, "error"), "Choose a backup file first.");
    return;
  }
  try {
    const data = await post(file, true);
    part(root, "plan-list").replaceChildren(...listChanges(data).map((line) =>
      Object.assign(document.createElement("li"), { textContent: line })));
    part(root, "plan").hidden = false;
    pending.set(root, file);
  } catch (err) {
    show(part(root, "error"), `The backup was refused, nothing changed: ${describe(err)}`);
  }
}

async function confirm(root) {
  const file = pending.get(root);
  if (!file) return;
  const button = part(root, "confirm");
  button.disabled = true;
  try {
    const data = await post(file, false);
    reset(root);
    show(part(root, "done"), `Restored. What it replaced is kept as ${data.pre_restore_backup}.`);
    await loadKept(root);
  } catch (err) {
    show(part(root, "error"), `The restore failed, nothing changed: ${describe(err)}`);
  } finally {
    button.disabled = false;
  }
}

async function loadKept(root) {
  const list = part(root, "kept");
  try {
    const { backups } = (await api.get("/backup/pre-restore")).data;
    if (!backups.length) {
      list.replaceChildren(Object.assign(document.createElement("li"),
        { className: "hint", textContent: "None yet: a restore keeps one here." }));
      return;
    }
    list.replaceChildren(...backups.map((b) => {
      const item = document.createElement("li");
      const link = Object.assign(document.createElement("a"), { textContent: b.name });
      link.dataset.backupKeptName = b.name;
      link.setAttribute("download", b.name);
      item.append(link, ` — ${b.created_at}, ${Math.ceil(b.size / 1024)} KiB`);
      return item;
    }));
    keptLinks(root);
  } catch (err) {
    list.replaceChildren(Object.assign(document.createElement("li"),
      { className: "error", textContent: `Cannot list them: ${describe(err)}` }));
  }
}

// The kept backups' links send the secrets only while "Include secrets" is ticked.
function keptLinks(root) {
  const secrets = part(root, "secrets").checked ? 1 : 0;
  for (const link of root.querySelectorAll("[data-backup-kept-name]")) {
    const name = encodeURIComponent(link.dataset.backupKeptName);
    link.href = `/api/v3/backup/pre-restore/${name}?include_secrets=${secrets}`;
  }
}

function init(root) {
  if (root.dataset.backupReady) return;
  root.dataset.backupReady = "1";
  loadKept(root);
}

document.addEventListener("click", (event) => {
  const root = event.target.closest?.(ROOT);
  if (!root) return;
  const kept = event.target.closest("[data-backup-kept-name]");
  if (kept) {  // fetched with the page token, so ticked secrets come along
    event.preventDefault();
    fetchZip(root, kept.getAttribute("href"), kept.dataset.backupKeptName);
  } else if (event.target.closest("[data-backup-download]")) download(root);
  else if (event.target.closest("[data-backup-confirm]")) confirm(root);
  else if (event.target.closest("[data-backup-cancel]")) reset(root);
});

document.addEventListener("change", (event) => {
  const root = event.target.closest?.(ROOT);
  if (!root) return;
  if (event.target.matches("[data-backup-secrets]")) {
    part(root, "secrets-warning").hidden = !event.target.checked;
    keptLinks(root);
  } else if (event.target.name === "backup_file") {
    reset(root);
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target.closest?.("[data-backup-restore]");
  if (!form) return;
  event.preventDefault();
  check(form.closest(ROOT), form);
});

document.addEventListener("htmx:afterSettle", () => document.querySelectorAll(ROOT).forEach(init));
document.querySelectorAll(ROOT).forEach(init);
