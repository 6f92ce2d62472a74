// The Overview's Performance card: frame rate, the slowest plugin and the temperature,
// with a small line of the frame rate over the last readings. It reads /api/v3/metrics
// every POLL_MS while the Overview tab of a visible page shows; hidden, it reads nothing
// (each read keeps the display writing its figures for a minute).
import api from "./api.js";

const POLL_MS = 5000;
export const KEEP = 36;  // readings in the line: three minutes
const SVG = "http://www.w3.org/2000/svg";

// The few figures a user cares about, from the metrics' data (null where unknown).
export function summarize(data) {
  const frames = data?.display?.frames;
  const fps = typeof frames?.fps === "number" ? frames.fps : null;
  let slowest = null;
  for (const [id, p] of Object.entries(data?.plugins || {})) {
    if (!(p.display_calls > 0)) continue;
    const ms = (1000 * p.display_seconds) / p.display_calls;
    if (!slowest || ms > slowest.ms) slowest = { id, ms };
  }
  const temperature = data?.pi?.cpu_temperature_c;
  return { fps, slowest, temperature: typeof temperature === "number" ? temperature : null };
}

export function rows(summary) {
  const { fps, slowest, temperature } = summary;
  return [
    ["Frame rate", fps === null ? "unknown" : `${fps.toFixed(1)} frames/s`],
    ["Slowest plugin", slowest ? `${slowest.id} (${slowest.ms.toFixed(1)} ms a frame)` : "none yet"],
    ["Temperature", temperature === null ? "not measured here" : `${temperature.toFixed(1)} °C`],
  ];
}

// The polyline's points for values drawn in a width x height box, the largest value
// (at least 1) four fifths of the way up, so a steady rate is not lost in the top edge;
// null values leave no point.
export function sparkPoints(values, width, height) {
  const top = 1.25 * Math.max(1, ...values.filter((v) => v !== null));
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = [];
  values.forEach((v, i) => {
    if (v === null) return;
    const y = height - (v / top) * (height - 2) - 1;
    points.push(`${(i * step).toFixed(1)},${y.toFixed(1)}`);
  });
  return points.join(" ");
}

function draw(summary, history) {
  const list = document.getElementById("metrics");
  if (!list) return;
  list.replaceChildren(...rows(summary).map(([label, text]) => {
    const row = document.createElement("div");
    row.className = "row";
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = label;
    dd.textContent = text;
    row.append(dt, dd);
    return row;
  }));
  const chart = document.getElementById("fps-chart");
  if (!chart) return;
  let line = chart.querySelector("polyline");
  if (!line) {
    line = document.createElementNS(SVG, "polyline");
    chart.append(line);
  }
  const box = chart.viewBox.baseVal;
  line.setAttribute("points", sparkPoints(history, box.width, box.height));
  chart.dataset.readings = String(history.length);
}

export function startMetrics() {
  const history = [];
  let timer = null;
  let busy = false;

  function wanted() {
    const overview = document.getElementById("tab-overview");
    return document.visibilityState === "visible" && overview && !overview.hidden
      && document.getElementById("metrics");
  }

  async function tick() {
    if (busy) return;
    busy = true;
    clearTimeout(timer);
    try {
      if (wanted()) {
        const summary = summarize((await api.get("/metrics")).data);
        history.push(summary.fps);
        if (history.length > KEEP) history.shift();
        draw(summary, history);
      }
    } catch {
      // the status line says why (web service gone, sign-in needed)
    } finally {
      busy = false;
      timer = setTimeout(tick, POLL_MS);
    }
  }
  // The card comes with the Overview's partial, usually after the first tick: read it
  // then, rather than leave the card empty until the next one.
  document.addEventListener("htmx:afterSettle", () => {
    const chart = document.getElementById("fps-chart");
    if (chart && !chart.dataset.readings) tick();
  });
  tick();
}
