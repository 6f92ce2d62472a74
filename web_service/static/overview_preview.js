// The Overview's live picture. While the Overview tab of a visible page shows a running
// display, frames come from the server-sent-event stream /stream/preview and are drawn
// at the panel's own aspect ratio, scaled by whole pixels. When the stream is refused
// (every stream slot taken: 503) or fails, the page polls /api/v3/display/preview for a
// while instead, then tries the stream again. Hidden page or tab: no stream, no polls.
import api from "./api.js";

const TICK_MS = 250;            // how often the wish for a picture is looked at; the poll rate
const STREAM_RETRY_MS = 30000;  // polling this long after the stream failed

// The largest whole-pixel scale that fits the box; below one pixel, the fraction that fits.
export function pixelScale(width, boxWidth) {
  if (!(width > 0) || !(boxWidth > 0)) return 1;
  return boxWidth >= width ? Math.floor(boxWidth / width) : boxWidth / width;
}

function image() { return document.getElementById("preview"); }

function size(width, height) {
  const img = image();
  if (!img || !(width > 0) || !(height > 0)) return;
  const scale = pixelScale(width, img.parentElement?.clientWidth || width);
  img.style.width = `${width * scale}px`;
  img.style.height = `${height * scale}px`;
}

export function startPreview(store) {
  let source = null;
  let pollUntil = 0;
  let last = null;  // width and height of the last frame, to redraw on resize

  function wanted() {
    const overview = document.getElementById("tab-overview");
    return document.visibilityState === "visible" && overview && !overview.hidden
      && store.status && !store.previewBlocked();
  }

  function show(frame, how) {
    if (!frame?.png_base64 || store.previewBlocked()) return;
    store.preview = frame.png_base64.startsWith("data:") ? frame.png_base64
      : `data:image/png;base64,${frame.png_base64}`;
    last = [frame.width, frame.height];
    size(frame.width, frame.height);
    const img = image();
    if (img) img.dataset.source = how;
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  function open() {
    source = new EventSource("/stream/preview");
    source.addEventListener("frame", (event) => show(JSON.parse(event.data), "stream"));
    source.addEventListener("state", (event) => {
      const state = JSON.parse(event.data);
      if (!state.live) store.preview = null;
      store.refresh();  // the header and the rows follow at once, not at the next poll
    });
    source.addEventListener("error", () => {
      // CLOSED: refused (503) or failed for good; otherwise the browser reconnects.
      if (source && source.readyState === EventSource.CLOSED) {
        close();
        pollUntil = Date.now() + STREAM_RETRY_MS;
      }
    });
  }

  async function poll() {
    try {
      show((await api.get("/display/preview")).data, "polling");
    } catch {
      // the next status poll says why (display stopped, web service gone)
    }
  }

  async function tick() {
    if (!wanted()) close();
    else if (Date.now() < pollUntil) await poll();
    else if (!source) open();
    setTimeout(tick, TICK_MS);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") close();
  });
  window.addEventListener("pagehide", close);
  window.addEventListener("resize", () => { if (last) size(...last); });
  tick();
}
