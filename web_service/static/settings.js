// The settings tabs (General, Display, Durations & Rotation, Schedule, Vegas) and the
// Config Editor. The server renders each form with the stored values; this module
// saves them through api.js, shows a refused save's message next to the field it
// names, and applies the brightness slider live. Event delegation on the document, so
// forms loaded later by htmx need no setup of their own.
import api, { ApiError } from "./api.js";

const BRIGHTNESS_DEBOUNCE_MS = 300;

// ---- reading a form -------------------------------------------------------------

function fieldsOf(form) {
  return [...form.elements].filter((el) => el.name && el.dataset.type && !el.disabled);
}

// Changed by the user: compared with what the input showed at load (data-loaded), not
// with its value attribute, which a colour or time input may show cleaned up.
function isChanged(el) {
  if (el.type === "checkbox") return el.checked !== el.defaultChecked;
  if (el.tagName === "SELECT") return [...el.options].some((o) => o.selected !== o.defaultSelected);
  return el.value !== (el.dataset.loaded ?? el.defaultValue);
}

// Note what each input shows when the form arrives.
function markLoaded(form) {
  for (const el of fieldsOf(form)) {
    if (el.type !== "checkbox" && el.tagName !== "SELECT") el.dataset.loaded = el.value;
  }
}

// Mark what is shown now as the saved state (after a successful save).
function markSaved(form) {
  for (const el of fieldsOf(form)) {
    if (el.type === "checkbox") el.defaultChecked = el.checked;
    else if (el.tagName === "SELECT") for (const o of el.options) o.defaultSelected = o.selected;
    else { el.defaultValue = el.value; el.dataset.loaded = el.value; }
  }
}

const SKIP = Symbol("skip");

// The JSON value of one input, or SKIP (a blank optional number sends nothing).
export function valueOf(el) {
  const type = el.dataset.type;
  if (type === "bool") return el.checked;
  const raw = el.value;
  if (type === "int" || type === "float") {
    if (raw.trim() === "") return el.dataset.blank === "null" ? null : SKIP;
    const number = Number(raw);
    return Number.isFinite(number) ? number : raw;  // the server names what is wrong
  }
  if (type === "color") {
    const hex = /^#([0-9a-f]{6})$/i.exec(raw);
    if (!hex) return raw;
    return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  }
  if (type === "list") return raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (type === "order") {
    try { return JSON.parse(raw); } catch { return raw; }  // the server names what is wrong
  }
  return raw;
}

function setPath(target, dotted, value) {
  const parts = dotted.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
    node = node[part];
  }
  node[parts[parts.length - 1]] = value;
}

// The body of a save: nested by the dotted names; only the changed fields when the
// form says so (a save then changes nothing it did not show as changed).
export function bodyOf(form) {
  const onlyChanged = form.dataset.send === "changed";
  const body = {};
  let count = 0;
  for (const el of fieldsOf(form)) {
    if (onlyChanged && !isChanged(el)) continue;
    const value = valueOf(el);
    if (value === SKIP) continue;
    setPath(body, el.name, value);
    count += 1;
  }
  return { body, count };
}

// ---- showing answers ----------------------------------------------------------------

function status(form, text, tone = "ok") {
  const line = form.querySelector(".sf-status");
  if (!line) return;
  line.textContent = text;
  line.dataset.tone = tone;
}

function clearErrors(form) {
  for (const p of form.querySelectorAll(".sf-error")) { p.hidden = true; p.textContent = ""; }
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const restart = form.querySelector(".sf-restart");
  if (restart) restart.hidden = true;
}

// The error line of the field a server error names: the exact name, else the closest
// enclosing one (a day's row), else one whose name ends with it.
function errorLineFor(form, field) {
  if (!field) return null;
  const lines = [...form.querySelectorAll(".sf-error[data-error-for]")];
  let name = String(field);
  for (let i = 0; i < 6 && name; i += 1) {
    const found = lines.find((p) => p.dataset.errorFor === name);
    if (found) return found;
    name = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : "";
  }
  return lines.find((p) => String(field).endsWith("." + p.dataset.errorFor)
                        || p.dataset.errorFor.endsWith("." + field)) || null;
}

function showError(form, err) {
  const problems = err?.details?.problems;
  const named = Array.isArray(problems) && problems.length
    ? problems.map((p) => [p.setting, `${p.setting}: ${p.message}`])
    : [[err?.details?.field, err.message]];
  let placed = false;
  for (const [field, message] of named) {
    const line = errorLineFor(form, field);
    if (!line) continue;
    line.textContent = line.textContent ? `${line.textContent} ${message}` : message;
    line.hidden = false;
    const input = line.closest("[data-field]")?.querySelector("[name]");
    if (input) input.setAttribute("aria-invalid", "true");
    if (!placed) line.scrollIntoView?.({ block: "center" });
    placed = true;
  }
  status(form, placed ? "Not saved: see the message above." : `Not saved: ${err.message}`, "bad");
}

function showSaved(form, answer) {
  const data = answer?.data || {};
  const restart = form.querySelector(".sf-restart");
  if (restart && data.restart_required) {
    const which = (data.restart_settings || []).join(", ");
    restart.textContent = "Saved. Restart the display service to apply the panel settings"
      + (which ? ` (${which}).` : ".");
    restart.hidden = false;
  }
  const warnings = (data.warnings || []).map((w) => w.message || w.setting).filter(Boolean);
  status(form, warnings.length ? `Saved, with warnings: ${warnings.join("; ")}` : "Saved.",
         warnings.length ? "warn" : "ok");
}

function describe(err) {
  return err instanceof ApiError ? err : new ApiError("ERROR", String(err?.message || err));
}

// ---- the forms ----------------------------------------------------------------------

// The limits the server enforces are on the inputs too (min, max, step, required): a
// value outside them is named next to its field and nothing is sent.
function refusedHere(form) {
  const onlyChanged = form.dataset.send === "changed";
  let refused = false;
  for (const el of fieldsOf(form)) {
    if ((onlyChanged && !isChanged(el)) || el.checkValidity()) continue;
    const line = errorLineFor(form, el.name);
    if (line) { line.textContent = el.validationMessage; line.hidden = false; }
    el.setAttribute("aria-invalid", "true");
    refused = true;
  }
  if (refused) status(form, "Not saved: see the message above.", "bad");
  return refused;
}

async function saveForm(form) {
  clearErrors(form);
  if (refusedHere(form)) return;
  const { body, count } = bodyOf(form);
  if (count === 0) { status(form, "Nothing changed."); return; }
  const button = form.querySelector('button[type="submit"]');
  if (button) button.disabled = true;
  status(form, "Saving…", "busy");
  try {
    const answer = await api.post(form.dataset.endpoint, body);
    markSaved(form);
    showSaved(form, answer);
  } catch (err) {
    showError(form, describe(err));
  } finally {
    if (button) button.disabled = false;
  }
}

// The brightness slider: the number follows it, the save goes once it rests.
let brightnessTimer = null;
function brightnessMoved(input) {
  const form = input.form;
  const shown = form.querySelector("output");
  if (shown) shown.textContent = input.value;
  clearTimeout(brightnessTimer);
  brightnessTimer = setTimeout(async () => {
    clearErrors(form);
    try {
      await api.post("/config/main", { brightness: Number(input.value) });
      input.defaultValue = input.value;
      status(form, `Brightness ${input.value} applied.`);
    } catch (err) {
      showError(form, describe(err));
    }
  }, BRIGHTNESS_DEBOUNCE_MS);
}

// A stored mapping bounds the parallel chains: the form says so before the server does.
function mappingChanged(select) {
  const outputs = select.selectedOptions[0]?.dataset.outputs;
  const parallel = select.form?.elements["display.hardware.parallel"];
  if (!parallel) return;
  if (outputs) parallel.max = outputs; else parallel.removeAttribute("max");
}

// The timezone search: only matching zones stay listed, and the first is chosen
// unless the chosen one matches too.
function filterOptions(search) {
  const select = document.getElementById(search.dataset.filterFor);
  if (!select) return;
  const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (option) => {
    const text = option.value.toLowerCase().replaceAll("_", " ");
    return words.every((w) => text.includes(w.replaceAll("_", " ")));
  };
  let first = null;
  for (const option of select.options) {
    const shown = matches(option);
    option.hidden = !shown && !option.selected;
    if (shown && !first) first = option;
  }
  if (first && !matches(select.selectedOptions[0] || first)) select.value = first.value;
}

// A field used only under a checkbox (data-needs: the checkbox's name) is disabled while
// the checkbox is off: the update day and time mean nothing with weekly updates off.
// A disabled input is not sent, so the stored value stays as it was.
function applyNeeds(form) {
  for (const part of form.querySelectorAll("[data-needs]")) {
    const box = form.elements[part.dataset.needs];
    const off = Boolean(box) && !box.checked;
    for (const el of part.querySelectorAll("input, select, textarea")) el.disabled = off;
    part.classList.toggle("sf-off", off);
  }
}

function showScheduleMode(select) {
  const form = select.form;
  for (const part of form.querySelectorAll("[data-show-mode]")) {
    part.hidden = part.dataset.showMode !== select.value;
  }
}

// The rotation order (Durations & Rotation): Up and Down move a plugin's row; the hidden
// rotation_order input holds the shown ids, then the stored ones not installed.
function moveRow(button) {
  const row = button.closest("[data-plugin]");
  const rows = row?.parentElement;
  const input = button.form?.elements.rotation_order;
  if (!rows || !input) return;
  const other = button.dataset.move === "up" ? row.previousElementSibling : row.nextElementSibling;
  if (!other?.matches("[data-plugin]")) return;
  if (button.dataset.move === "up") rows.insertBefore(row, other); else rows.insertBefore(other, row);
  edgeButtons(rows);
  (button.disabled ? row.querySelector("button[data-move]:not(:disabled)") : button)?.focus();
  const shown = [...rows.querySelectorAll(":scope > [data-plugin]")].map((r) => r.dataset.plugin);
  let absent = [];
  try { absent = JSON.parse(input.dataset.absent || "[]"); } catch { absent = []; }
  input.value = JSON.stringify([...shown, ...absent]);
  const note = button.form.querySelector("[data-order-note]");
  const name = row.querySelector("legend")?.textContent || row.dataset.plugin;
  const place = shown.indexOf(row.dataset.plugin) + 1;
  if (note) note.textContent = `${name} is now number ${place} of ${shown.length}; save to keep it.`;
}

// The first row cannot move up nor the last down: their buttons are disabled.
function edgeButtons(rows) {
  const all = [...rows.querySelectorAll(":scope > [data-plugin]")];
  all.forEach((row, i) => {
    for (const b of row.querySelectorAll("button[data-move]")) {
      b.disabled = b.dataset.move === "up" ? i === 0 : i === all.length - 1;
    }
  });
}

// ---- the raw config editor ---------------------------------------------------------------

// Where JSON.parse stopped, as line and column (1-based), from its message.
export function syntaxPosition(text, err) {
  const message = String(err?.message || "");
  const lc = /line (\d+) column (\d+)/i.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/i.exec(message);
  let offset = pos ? Number(pos[1]) : text.length;
  offset = Math.min(offset, text.length);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

export function checkJson(text) {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    // Only our words: the browser's own ("Expected double-quoted property name in JSON
    // at position 52") differ per browser and count characters, not lines.
    const { line, column } = syntaxPosition(text, err);
    return { line, column, message: `Not valid JSON at line ${line}, column ${column}.` };
  }
}

async function loadRaw(form) {
  const area = form.elements.content;
  clearErrors(form);
  try {
    const answer = await api.get("/config/raw/main");
    area.value = answer.data.content;
    area.defaultValue = area.value;
    delete area.dataset.loading;
    status(form, `Loaded ${answer.data.path || "config.json"}.`);
  } catch (err) {
    showError(form, describe(err));
  }
}

function selectLine(area, line, column) {
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i += 1) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  area.focus({ preventScroll: true });
  area.setSelectionRange(offset, offset);
  // Scroll the line to the middle of the box, and the box into the window.
  const style = getComputedStyle(area);
  const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.35 || 16;
  area.scrollTop = Math.max(0, (line - 1) * lineHeight - area.clientHeight / 2);
  area.scrollIntoView({ block: "nearest" });
}

function checkRaw(form) {
  clearErrors(form);
  const area = form.elements.content;
  const problem = checkJson(area.value);
  if (problem) {
    showError(form, new ApiError("INVALID_JSON", problem.message, { details: { field: "content" } }));
    selectLine(area, problem.line, problem.column);
    return false;
  }
  status(form, "Valid JSON.");
  return true;
}

async function saveRaw(form) {
  if (form.elements.content.dataset.loading !== undefined) return;
  if (!checkRaw(form)) return;
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  status(form, "Saving…", "busy");
  try {
    const answer = await api.post("/config/raw/main", form.elements.content.value);
    form.elements.content.defaultValue = form.elements.content.value;
    showSaved(form, answer);
  } catch (err) {
    const e = describe(err);
    showError(form, new ApiError(e.error_code, e.message, { details: { field: "content" } }));
  } finally {
    button.disabled = false;
  }
}

// ---- wiring ---------------------------------------------------------------------

function setUp(root) {
  for (const form of root.querySelectorAll("form[data-raw-editor]:not([data-ready])")) {
    form.dataset.ready = "";
    loadRaw(form);
  }
  for (const select of root.querySelectorAll("select[data-schedule-mode]:not([data-ready])")) {
    select.dataset.ready = "";
    showScheduleMode(select);
  }
  for (const form of root.querySelectorAll("form[data-settings-form]:not([data-ready])")) {
    form.dataset.ready = "";
    markLoaded(form);
    const mapping = form.elements["display.hardware.hardware_mapping"];
    if (mapping) mappingChanged(mapping);
    applyNeeds(form);
  }
  for (const rows of root.querySelectorAll("[data-rotation-rows]")) edgeButtons(rows);
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.matches("form[data-settings-form]")) { event.preventDefault(); saveForm(form); }
  else if (form.matches("form[data-raw-editor]")) { event.preventDefault(); saveRaw(form); }
  else if (form.matches("form[data-live-brightness]")) event.preventDefault();
});

document.addEventListener("input", (event) => {
  const el = event.target;
  if (el.matches?.("form[data-live-brightness] input[type=range]")) brightnessMoved(el);
  else if (el.matches?.("input[data-filter-for]")) filterOptions(el);
});

document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches?.('select[name="display.hardware.hardware_mapping"]')) mappingChanged(el);
  else if (el.matches?.("select[data-schedule-mode]")) showScheduleMode(el);
  else if (el.type === "checkbox" && el.form?.matches("form[data-settings-form]")) {
    applyNeeds(el.form);
  }
});

document.addEventListener("click", (event) => {
  const move = event.target.closest?.("form[data-settings-form] button[data-move]");
  if (move) { moveRow(move); return; }
  const button = event.target.closest?.("button[data-raw-action]");
  if (!button) return;
  if (button.dataset.rawAction === "check") checkRaw(button.form);
  else if (button.dataset.rawAction === "reload") loadRaw(button.form);
});

document.addEventListener("htmx:afterSwap", (event) => setUp(event.target));
setUp(document);
