// Plugin settings forms (templates/partials/plugin_config.html): read the form back into
// the JSON shape GET /plugins/config answered and POST it; run the widgets that talk to
// the API (uploads, the file manager, the calendar list). Untrusted text is only ever
// set with textContent; links are never built here.

import api from "/static/api.js";
import { hexToRgb } from "/static/rgb_color.js";

const SKIP = Symbol("skip");  // nothing to send for this field: the stored value stays
const ROW_KEY = "__row";  // shared/config/secrets.py strips it on save
const VALUE_KEY = "__value";  // with ROW_KEY: a row that is a plain value (secrets.py)

// ---- reading values back

function parseJson(text, what) {
  try { return JSON.parse(text); } catch { throw new Error(`${what} is not valid JSON`); }
}

function numberFrom(el) {
  const text = el.value.trim();
  if (text === "") return el.dataset.nullable === "true" ? null : SKIP;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error("must be a number");
  return value;
}

function readRows(el) {
  const rows = [];
  const scalar = el.dataset.scalar === "true";
  const body = el.querySelector(":scope > table > tbody");
  for (const row of body ? body.children : []) {
    const cells = [...row.querySelectorAll("[data-col]")];
    if (scalar) {
      const value = cells.length ? readValue(cells[0]) : SKIP;
      if (value === SKIP) continue;
      // A stored row says where it came from too: a list of secret strings is masked
      // item by item, and a removed row must not hand its secret to the next one.
      rows.push(row.dataset.row === undefined ? value
        : { [ROW_KEY]: Number(row.dataset.row), [VALUE_KEY]: value });
      continue;
    }
    // A stored row keeps the keys no column shows, and says which stored row it was
    // drawn from, so the server matches its masked secrets to that row (ROW_KEY).
    const original = row.dataset.original ? parseJson(row.dataset.original, "the row") : null;
    const item = original && typeof original === "object" && !Array.isArray(original)
      ? { ...original } : {};
    if (row.dataset.row !== undefined) item[ROW_KEY] = Number(row.dataset.row);
    for (const cell of cells) {
      const value = readValue(cell);
      if (value !== SKIP) item[cell.dataset.col] = value;
    }
    rows.push(item);
  }
  return rows;
}

// A range, colour, date or time input the user has not touched sends the stored value
// (data-stored), never what the browser made of it (a clamped or blanked value).
function untouched(el) {
  return el.dataset.stored !== undefined && el.dataset.shown !== undefined
    && el.value === el.dataset.shown;
}

// Return the value one control holds, typed as its schema says (data-kind).
export function readValue(el) {
  if (untouched(el)) {
    const stored = parseJson(el.dataset.stored, "the stored value");
    return stored === null ? SKIP : stored;
  }
  switch (el.dataset.kind) {
    case "boolean": return el.checked;
    case "integer": case "number": return numberFrom(el);
    case "rgb": return hexToRgb(el.value);
    case "choice": {
      const picked = el.matches("select") ? el.value
        : (el.querySelector("input:checked") || { value: "" }).value;
      return picked === "" ? SKIP : parseJson(picked, "the choice");
    }
    case "list":
      return [...el.querySelectorAll("input[type=checkbox]:checked")]
        .map((box) => parseJson(box.value, "a choice"));
    case "rows": return readRows(el);
    case "json": {
      const source = el.matches("textarea, input") ? el : el.querySelector(":scope > .pf-value");
      if (!source || source.value.trim() === "") return SKIP;
      const value = parseJson(source.value, "the value");
      return value === null && el.dataset.nullable !== "true" ? SKIP : value;
    }
    default: return el.value;  // strings stay strings, "" included
  }
}

function setPath(target, path, value) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key];
  }
  node[path[path.length - 1]] = value;
}

// Return {config, problems}: the form as JSON, and fields that could not be read.
export function collect(form) {
  const config = {};
  const problems = [];
  for (const el of form.querySelectorAll("[data-path]")) {
    const path = JSON.parse(el.dataset.path);
    try {
      const value = readValue(el);
      if (value !== SKIP) setPath(config, path, value);
    } catch (err) {
      problems.push({ field: path.join("."), message: err.message });
    }
  }
  collectSkin(form, config, problems);
  return { config, problems };
}

// The skin picker (templates/partials/plugin_config.html): skin and skin_options.
function collectSkin(form, config, problems) {
  const picker = form.querySelector("[data-skin-picker]");
  if (!picker) return;
  config.skin = picker.value || null;
  const text = form.querySelector("[data-skin-options]")?.value.trim() || "{}";
  const error = form.querySelector("[data-skin-error]");
  let options = null;
  try { options = JSON.parse(text); } catch { /* named below */ }
  if (!options || typeof options !== "object" || Array.isArray(options)) {
    problems.push({ field: "skin_options", message: "skin options must be a JSON object" });
    if (error) { error.textContent = "Skin options must be a JSON object."; error.hidden = false; }
    return;
  }
  if (error) error.hidden = true;
  config.skin_options = options;
}

// ---- errors and status

function fieldFor(form, name) {
  const parts = String(name || "").split(".");
  for (let n = parts.length; n > 0; n -= 1) {
    const wanted = parts.slice(0, n).join(".");
    for (const field of form.querySelectorAll(".pf-field")) {
      if (field.dataset.name === wanted) return field;
    }
  }
  return null;
}

function clearErrors(form) {
  for (const error of form.querySelectorAll(".pf-error")) {
    error.textContent = "";
    error.hidden = true;
  }
  form.querySelector(".pf-form-status")?.classList.remove("error");
}

function showErrors(form, problems) {
  for (const { field, message } of problems) {
    const box = fieldFor(form, field)?.querySelector(":scope > .pf-error");
    if (!box) continue;
    box.textContent = box.textContent ? `${box.textContent}; ${message}` : message;
    box.hidden = false;
  }
}

function setStatus(form, text, isError = false) {
  const status = form.querySelector(".pf-form-status");
  if (!status) return;
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function problemsOf(err, pluginId) {
  const details = err.details || {};
  if (details.errors && Array.isArray(details.errors[pluginId])) return details.errors[pluginId];
  if (details.field) return [{ field: details.field, message: err.message }];
  return [];
}

// ---- save

async function save(form) {
  const pluginId = form.dataset.plugin;
  clearErrors(form);
  setStatus(form, "saving…");
  const { config, problems } = collect(form);
  if (problems.length) {
    showErrors(form, problems);
    setStatus(form, "Not saved: fix the marked fields.", true);
    return;
  }
  const button = form.querySelector(".save-config");
  if (button) button.disabled = true;
  try {
    const answer = await api.post("/plugins/config", { plugin_id: pluginId, config });
    await reload(form, answer.message || "saved");
  } catch (err) {
    showErrors(form, problemsOf(err, pluginId));
    setStatus(form, err.message || "not saved", true);
  } finally {
    if (button) button.disabled = false;
  }
}

// Draw the form again from the server, so it shows what was stored (secrets masked).
async function reload(form, message) {
  const holder = form.parentElement;
  const url = `/v3/partials/plugin-config/${encodeURIComponent(form.dataset.plugin)}`;
  await window.htmx.ajax("GET", url, { target: holder, swap: "innerHTML" });
  const fresh = holder.querySelector(".plugin-form");
  if (fresh) setStatus(fresh, message);
}

// ---- widgets that talk to the API

function fileLabel(item) {
  if (item && typeof item === "object") {
    return String(item.original_name || item.name || item.path || "file");
  }
  return String(item);
}

function filesValue(widget) {
  const value = readValue(widget);
  if (value === SKIP || value === null || value === "") return [];
  return Array.isArray(value) ? value : [value];
}

function setFilesValue(widget, items) {
  const multiple = widget.dataset.multiple === "true";
  const empty = widget.dataset.type === "string" ? "" : null;
  const value = multiple ? items : (items.length ? items[items.length - 1] : empty);
  widget.querySelector(":scope > .pf-value").value = JSON.stringify(value);
  drawFiles(widget);
}

function drawFiles(widget) {
  const list = widget.querySelector(":scope > .pf-file-list");
  list.replaceChildren();
  filesValue(widget).forEach((item, index) => {
    const entry = document.createElement("li");
    entry.className = "pf-file";
    const name = document.createElement("span");
    name.textContent = fileLabel(item);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "pf-file-remove";
    remove.dataset.index = String(index);
    remove.textContent = "Remove";
    entry.append(name, " ", remove);
    list.append(entry);
  });
}

function widgetStatus(widget, text, isError = false) {
  const status = widget.parentElement.querySelector(".pf-status");
  if (!status) return;
  status.textContent = text;
  status.classList.toggle("error", isError);
}

async function upload(input) {
  const widget = input.closest(".pf-files");
  const form = input.closest(".plugin-form");
  if (!input.files.length) return;
  const body = new FormData();
  body.append("plugin_id", form.dataset.plugin);
  for (const file of input.files) body.append("files", file);
  try {
    const stored = (await api.post("/plugins/assets/upload", body)).data.files;
    const asValue = widget.dataset.type === "string" ? stored.map((f) => f.path) : stored;
    const multiple = widget.dataset.multiple === "true";
    setFilesValue(widget, multiple ? [...filesValue(widget), ...asValue] : asValue.slice(-1));
    widgetStatus(widget, `${stored.length} file(s) uploaded; save to keep them`);
  } catch (err) {
    widgetStatus(widget, err.message, true);
  }
  input.value = "";
}

async function removeFile(button) {
  const widget = button.closest(".pf-files");
  const form = button.closest(".plugin-form");
  const items = filesValue(widget);
  const [gone] = items.splice(Number(button.dataset.index), 1);
  setFilesValue(widget, items);
  const path = gone && typeof gone === "object" ? gone.path : gone;
  if (typeof path !== "string" || !path) return;
  try {
    await api.post("/plugins/assets/delete", { plugin_id: form.dataset.plugin, path });
    widgetStatus(widget, "file removed; save to keep the change");
  } catch (err) {
    widgetStatus(widget, `removed from the list; the file stays: ${err.message}`, true);
  }
}

async function listAssets(manager) {
  const pluginId = manager.closest(".plugin-form").dataset.plugin;
  const list = manager.querySelector(".pf-asset-list");
  try {
    const files = (await api.get(`/plugins/assets/list?plugin_id=${encodeURIComponent(pluginId)}`))
      .data.files;
    list.replaceChildren(...files.map((file) => {
      const entry = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = String(file.original_name || file.name);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "pf-asset-delete";
      remove.dataset.file = String(file.path);
      remove.textContent = "Delete";
      entry.append(name, " ", remove);
      return entry;
    }));
    widgetStatus(manager, `${files.length} file(s)`);
  } catch (err) {
    widgetStatus(manager, err.message, true);
  }
}

async function deleteAsset(button) {
  const manager = button.closest(".pf-file-manager");
  const pluginId = button.closest(".plugin-form").dataset.plugin;
  try {
    await api.post("/plugins/assets/delete", { plugin_id: pluginId, path: button.dataset.file });
    await listAssets(manager);
  } catch (err) {
    widgetStatus(manager, err.message, true);
  }
}

// Where an action's outcome is shown: beside its button on the plugin's action list,
// else in the file manager that drew the button.
function actionStatus(button, text, isError = false) {
  const own = button.closest(".pf-plugin-action")?.querySelector(".pf-status");
  if (!own) { widgetStatus(button.closest(".pf-file-manager"), text, isError); return; }
  own.textContent = text;
  own.classList.toggle("error", isError);
  own.classList.toggle("ok", !isError);
}

async function runAction(button) {
  const pluginId = button.closest(".plugin-form").dataset.plugin;
  let params = {};
  try { params = JSON.parse(button.dataset.params || "{}"); } catch { params = {}; }
  button.disabled = true;
  actionStatus(button, "running…");
  try {
    const answer = await api.post("/plugins/action",
      { plugin_id: pluginId, action_id: button.dataset.action, params });
    // A script may answer {"status": "error", "message": ...} without failing.
    const failed = answer.data?.status === "error";
    actionStatus(button, answer.message || (failed ? "the action failed" : "done"), failed);
  } catch (err) {
    actionStatus(button, err.message, true);
  } finally {
    button.disabled = false;
  }
}

async function loadCalendars(picker) {
  const plugin = picker.dataset.calendarPlugin || "calendar";
  try {
    const found = (await api.get(
      `/calendar/list-calendars?plugin_id=${encodeURIComponent(plugin)}`)).data.calendars;
    const have = new Set([...picker.querySelectorAll("input")].map((box) => box.value));
    for (const calendar of found) {
      const value = JSON.stringify(calendar.id);
      if (have.has(value)) continue;
      const label = document.createElement("label");
      label.className = "check";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = value;
      label.append(box, ` ${calendar.summary}`);
      picker.append(label);
    }
    widgetStatus(picker, found.length ? `${found.length} calendar(s)` : "the plugin lists no calendars");
  } catch (err) {
    widgetStatus(picker, err.message, true);
  }
}

// ---- wiring (event delegation: forms arrive later, swapped in by htmx)

function prepare(root) {
  for (const form of root.querySelectorAll(".plugin-form:not([data-ready])")) {
    form.dataset.ready = "1";
    // What the browser shows at load, to tell the user's changes from its own.
    for (const input of form.querySelectorAll("input[data-stored]")) input.dataset.shown = input.value;
    for (const widget of form.querySelectorAll(".pf-files")) drawFiles(widget);
    for (const picker of form.querySelectorAll(".pf-calendars")) loadCalendars(picker);
    for (const manager of form.querySelectorAll(".pf-file-manager")) listAssets(manager);
  }
}

const CLICKS = {
  ".pf-add-row": (button) => {
    const wrap = button.closest(".pf-table-wrap");
    const row = wrap.querySelector(":scope > .pf-row-template").content.cloneNode(true);
    wrap.querySelector(":scope > table > tbody").append(row);
  },
  ".pf-remove-row": (button) => button.closest("tr").remove(),
  ".pf-file-remove": removeFile,
  ".pf-asset-delete": deleteAsset,
  ".pf-assets-refresh": (button) => listAssets(button.closest(".pf-file-manager")),
  ".pf-action": runAction,
};

document.addEventListener("click", (event) => {
  if (!event.target.closest?.(".plugin-form")) return;
  for (const [selector, handle] of Object.entries(CLICKS)) {
    const button = event.target.closest(selector);
    if (button) { handle(button); return; }
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target.closest?.(".plugin-form");
  if (!form) return;
  event.preventDefault();
  if (form.dataset.ownSave !== undefined) return;  // its page's script saves it elsewhere
  save(form);
});

document.addEventListener("input", (event) => {
  const target = event.target;
  if (target.matches?.(".pf-slider input")) {
    target.parentElement.querySelector("output").textContent = target.value;
  }
});

document.addEventListener("change", (event) => {
  const target = event.target;
  if (target.matches?.(".pf-file-input")) upload(target);
  if (target.matches?.(".pf-switch input")) {
    target.parentElement.querySelector(".pf-switch-text").textContent = target.checked ? "on" : "off";
  }
});

// The chosen skin's preview.png under the skin picker (none: hidden).
function showSkinPreview(picker) {
  const img = picker.closest(".pf-skin-picker")?.querySelector("[data-skin-preview]");
  if (!img) return;
  const source = picker.selectedOptions[0]?.dataset.preview;
  if (source) img.src = source;
  img.hidden = !source;
}

document.addEventListener("change", (event) => {
  if (event.target.matches?.("[data-skin-picker]")) showSkinPreview(event.target);
});

function showSkinPreviews(root) {
  for (const picker of root.querySelectorAll?.("[data-skin-picker]") || []) showSkinPreview(picker);
}

document.addEventListener("htmx:afterSettle", (event) => showSkinPreviews(event.detail.elt || document));
showSkinPreviews(document);

document.addEventListener("htmx:afterSettle", (event) => prepare(event.detail.elt || document));
prepare(document);
