// The Overview preview's scale: whole pixels when the box is wider than the panel.
import { test } from "node:test";
import assert from "node:assert/strict";

import { pixelScale } from "../../web_service/static/overview_preview.js";

test("a panel is scaled by whole pixels to fit its box", () => {
  assert.equal(pixelScale(128, 600), 4);
  assert.equal(pixelScale(64, 640), 10);
  assert.equal(pixelScale(128, 128), 1);
});

test("a box narrower than the panel shrinks it to fit", () => {
  assert.equal(pixelScale(128, 64), 0.5);
});

test("an unknown size draws at one pixel per pixel", () => {
  assert.equal(pixelScale(0, 600), 1);
  assert.equal(pixelScale(128, 0), 1);
});
