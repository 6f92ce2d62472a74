// A colour as a colour input holds it, "#rrggbb", read back as a plugin stores it,
// [r, g, b] (each an integer 0-255). The server draws [r, g, b] as "#rrggbb"
// (web_service/ui/plugin_form.py, rgb_to_hex); the plugin settings form reads its colour
// pickers back with hexToRgb. Pure: tests/js/rgb_color.test.mjs.

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

// Return [r, g, b] for "#rrggbb"; throw a message the form shows for anything else.
export function hexToRgb(hex) {
  const match = HEX.exec(typeof hex === "string" ? hex.trim() : "");
  if (!match) throw new Error("must be a colour like #ff8800");
  return match.slice(1).map((part) => parseInt(part, 16));
}
