// The preview page: render the chosen plugin at one size or all, redraw on changes.
const $ = (id) => document.getElementById(id);
const SCALE = 4;
let version = null;
let rendering = false;
let latest = 0; // the newest render asked for: an older answer arriving later is dropped

function overlay() {
  try { return JSON.parse($("config-json").value || "{}"); } catch { return null; }
}

function fieldFor(name, prop, value) {
  const label = document.createElement("label");
  label.textContent = name + " ";
  let input;
  if (Array.isArray(prop.enum)) {
    input = document.createElement("select");
    for (const choice of prop.enum) input.add(new Option(String(choice), JSON.stringify(choice)));
    input.value = JSON.stringify(value ?? prop.default ?? prop.enum[0]);
  } else {
    input = document.createElement("input");
    input.type = prop.type === "boolean" ? "checkbox" : ["number", "integer"].includes(prop.type) ? "number" : "text";
    if (input.type === "checkbox") input.checked = Boolean(value ?? prop.default);
    else input.value = value ?? prop.default ?? "";
  }
  input.name = name;
  input.title = prop.description || "";
  input.addEventListener("change", () => {
    const config = overlay() || {};
    if (input.type === "checkbox") config[name] = input.checked;
    else if (input.type === "number") config[name] = Number(input.value);
    else if (input.tagName === "SELECT") config[name] = JSON.parse(input.value);
    else config[name] = input.value;
    $("config-json").value = JSON.stringify(config, null, 1);
    render();
  });
  label.append(input);
  return label;
}

async function loadPlugin() {
  const id = $("plugin").value;
  if (!id) return;
  const info = await (await fetch(`/api/plugins/${id}`)).json();
  $("mode").replaceChildren(...(info.display_modes || []).map((m) => new Option(m, m)));
  const props = (info.schema && info.schema.properties) || {};
  const fields = Object.entries(props).filter(([, p]) => ["string", "number", "integer", "boolean"].includes(p.type) || p.enum);
  $("config-fields").replaceChildren(...fields.map(([n, p]) => fieldFor(n, p, undefined)));
  $("config-json").value = "{}";
  version = null;
  await render();
}

function figure(result) {
  const [w, h] = result.size;
  const fig = document.createElement("figure");
  fig.dataset.size = `${w}x${h}`;
  const img = document.createElement("img");
  img.width = w * SCALE;
  img.height = h * SCALE;
  let frame = 0;
  const frames = result.frames || [];
  const show = () => { if (frames.length) img.src = `data:image/png;base64,${frames[frame]}`; };
  show();
  fig.append(img);
  for (const p of result.problems || []) {
    if (p.x === undefined) continue;
    const box = document.createElement("div");
    box.className = "problem";
    box.title = p.message || p.kind || "off the panel";
    Object.assign(box.style, { left: `${p.x * SCALE}px`, top: `${p.y * SCALE}px`,
      width: `${Math.max(1, p.width || 1) * SCALE}px`, height: `${Math.max(1, p.height || 1) * SCALE}px` });
    fig.append(box);
  }
  const caption = document.createElement("figcaption");
  caption.textContent = `${w}x${h}` + (frames.length > 1 ? ` frame 1/${frames.length}` : "");
  if (frames.length > 1) {
    const next = document.createElement("button");
    next.textContent = "next frame";
    next.className = "next-frame";
    next.addEventListener("click", () => {
      frame = (frame + 1) % frames.length;
      caption.firstChild.textContent = `${w}x${h} frame ${frame + 1}/${frames.length}`;
      show();
    });
    caption.append(" ", next);
  }
  if ((result.problems || []).length) {
    const list = document.createElement("ul");
    list.className = "problems";
    for (const p of result.problems) {
      const item = document.createElement("li");
      item.textContent = `${p.severity || "warning"}: ${p.message}`;
      list.append(item);
    }
    caption.append(list);
  }
  if (result.error_class) {
    const err = document.createElement("div");
    err.className = "error";
    err.textContent = `failed: ${result.error_class}`;
    caption.append(err);
  }
  fig.append(caption);
  return fig;
}

async function render() {
  const config = overlay();
  if (config === null) { $("status").textContent = "config: not valid JSON"; return; }
  const size = $("size").value;
  const all = [...$("size").options].filter((o) => o.value !== "all").map((o) => o.value);
  const body = { plugin_id: $("plugin").value, config, mode: $("mode").value || null,
                 frames: Number($("frames").value) || 1 };
  const url = size === "all" ? "/api/render-matrix" : "/api/render";
  if (size === "all") body.sizes = all; else body.size = size;
  const mine = ++latest;
  rendering = true;
  $("status").textContent = "rendering";
  try {
    const answer = await (await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).json();
    if (mine !== latest) return;
    if (answer.error) { $("status").textContent = `error: ${answer.error}`; return; }
    $("gallery").replaceChildren(...answer.results.map(figure));
    syncModes(answer.results[0]);
    $("status").textContent = `rendered ${answer.results.length} at ${new Date().toISOString()}`;
  } finally {
    if (mine === latest) rendering = false;
  }
}

// The plugin's own modes (its instance's, which outrank the manifest's) once it ran.
function syncModes(result) {
  const modes = (result && result.modes) || [];
  const shown = [...$("mode").options].map((o) => o.value);
  if (!modes.length || JSON.stringify(modes) === JSON.stringify(shown)) return;
  const chosen = $("mode").value;
  $("mode").replaceChildren(...modes.map((m) => new Option(m, m)));
  if (modes.includes(chosen)) $("mode").value = chosen;
}

async function poll() {
  const id = $("plugin").value;
  if (id && !rendering) {
    try {
      const now = (await (await fetch(`/api/plugins/${id}/version`)).json()).version;
      if (version !== null && now !== version) await render();
      version = now;
    } catch { /* the server restarting: try again */ }
  }
  setTimeout(poll, 250);
}

for (const id of ["plugin"]) $(id).addEventListener("change", loadPlugin);
for (const id of ["size", "mode", "frames", "config-json"]) $(id).addEventListener("change", render);
$("render").addEventListener("click", render);
loadPlugin().then(poll);
