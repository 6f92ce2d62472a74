// A colour input's "#rrggbb" read back as the [r, g, b] a plugin stores.
import { test } from "node:test";
import assert from "node:assert/strict";

import { hexToRgb } from "../../web_service/static/rgb_color.js";

test("a colour input's value reads back as [r, g, b]", () => {
  assert.deepEqual(hexToRgb("#ff8040"), [255, 128, 64]);
  assert.deepEqual(hexToRgb("#000000"), [0, 0, 0]);
  assert.deepEqual(hexToRgb("#FFFFFF"), [255, 255, 255]);
  assert.deepEqual(hexToRgb(" #0a0B0c "), [10, 11, 12]);
});

test("anything but #rrggbb is refused with a message saying what is wanted", () => {
  for (const bad of ["", "#fff", "ff8040", "#ff80400", "#gg0000", "red", null, undefined, 7,
                     [255, 0, 0]]) {
    assert.throws(() => hexToRgb(bad), { message: "must be a colour like #ff8800" }, String(bad));
  }
});
