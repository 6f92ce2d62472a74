// The Fonts tab: preview any font, upload one (errors beside their field), delete an
// uploaded one. The catalog is drawn by the server; after a change the tab is redrawn.
import api from "./api.js";
import { describe, onDrawn, redraw, say } from "./tool_common.js";

const FIELDS = ["font_file", "font_family"];

function previewUrl(form) {
  const query = new URLSearchParams({
    font: form.elements.font.value, size: form.elements.size.value || "16",
    text: form.elements.text.value });
  return `/api/v3/fonts/preview?${query}`;
}

async function showPreview(root, form) {
  const image = root.querySelector("[data-fonts-preview-image]");
  const problem = root.querySelector("[data-fonts-preview-error]");
  problem.hidden = true;
  const url = previewUrl(form);
  // Fetch it first: a refused preview answers the JSON envelope, whose message we show.
  try {
    const answer = await fetch(url);
    if (!answer.ok) {
      const body = await answer.json().catch(() => null);
      throw new Error(body?.message || `HTTP ${answer.status}`);
    }
    const blob = await answer.blob();
    if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
    image.src = URL.createObjectURL(blob);
    image.alt = `${form.elements.font.value} preview`;
    image.hidden = false;
  } catch (err) {
    image.hidden = true;
    problem.textContent = describe(err);
    problem.hidden = false;
  }
}

function clearErrors(form) {
  for (const field of FIELDS) {
    const line = form.querySelector(`[data-error-for="${field}"]`);
    line.textContent = "";
    line.hidden = true;
  }
}

function fieldError(form, field, text) {
  const line = form.querySelector(`[data-error-for="${field}"]`) ||
               form.querySelector('[data-error-for="font_file"]');
  line.textContent = text;
  line.hidden = false;
}

async function upload(root, form) {
  clearErrors(form);
  const status = form.querySelector("[data-upload-status]");
  const file = form.elements.font_file.files[0];
  const family = form.elements.font_family.value.trim();
  if (!file) return fieldError(form, "font_file", "Choose a font file.");
  if (!family) return fieldError(form, "font_family", "Give the font a family name.");
  const body = new FormData();
  body.append("font_file", file);
  body.append("font_family", family);
  const controls = [...form.elements];
  controls.forEach((c) => { c.disabled = true; });
  form.setAttribute("aria-busy", "true");
  say(status, `Uploading ${file.name}…`);
  try {
    const answer = await api.post("/fonts/upload", body);
    await redraw("fonts");
    say(document.querySelector('#tab-fonts [data-fonts-status]'), answer.message || "uploaded");
  } catch (err) {
    const field = err?.details?.field;
    const named = FIELDS.includes(field) ? field
      : err?.error_code === "INVALID_FONT_FAMILY" || err?.error_code === "FONT_FAMILY_TAKEN"
        ? "font_family" : "font_file";
    fieldError(form, named, describe(err));
    say(status, "");
  } finally {
    controls.forEach((c) => { c.disabled = false; });
    form.removeAttribute("aria-busy");
  }
}

async function remove(root, button) {
  const family = button.dataset.fontDelete;
  if (!window.confirm(`Delete the font ${family}? Plugins using it fall back to another font.`)) return;
  button.disabled = true;
  const status = root.querySelector("[data-fonts-status]");
  try {
    const answer = await api.del(`/fonts/${encodeURIComponent(family)}`);
    await redraw("fonts");
    say(document.querySelector("#tab-fonts [data-fonts-status]"), answer.message || "deleted");
  } catch (err) {
    button.disabled = false;
    say(status, describe(err), true);
  }
}

onDrawn("fonts", (root) => {
  const preview = root.querySelector("[data-fonts-preview]");
  preview.addEventListener("submit", (event) => { event.preventDefault(); showPreview(root, preview); });
  preview.elements.font.addEventListener("change", () => showPreview(root, preview));
  const form = root.querySelector("[data-fonts-upload]");
  form.addEventListener("submit", (event) => { event.preventDefault(); upload(root, form); });
  // Until now a click would have sent the form the browser's way (a page reload that
  // loses the file): the buttons come disabled and are enabled once their handlers are on.
  for (const button of root.querySelectorAll("[data-enabled-when-wired]")) button.disabled = false;
  root.querySelector("[data-fonts-table]").addEventListener("click", (event) => {
    const button = event.target.closest("[data-font-delete]");
    if (button) remove(root, button);
  });
  if (preview.elements.font.value) showPreview(root, preview);
});
