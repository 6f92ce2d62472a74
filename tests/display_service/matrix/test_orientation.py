"""``orientation``: plugins draw upright, each frame is turned clockwise on its way out."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from display_service.matrix.double_sided import DoubleSidedBackend
from display_service.matrix.headless import HeadlessMatrix
from display_service.matrix.orientation import OrientationBackend, orientation, wrap_backend
from display_service.matrix.select import open_backend
from display_service.plugins.display_manager import DisplayManager
from tests.display_service import fake_rgbmatrix

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
RED = (255, 0, 0)


def marked(width: int, height: int) -> Image.Image:
    """A frame with one red pixel at the top-left corner of what the plugin drew."""
    image = Image.new("RGB", (width, height))
    image.putpixel((0, 0), RED)
    return image


def red_pixels(image: Image.Image | None) -> list[tuple[int, int]]:
    assert image is not None
    return [(x, y) for y in range(image.height) for x in range(image.width)
            if image.getpixel((x, y)) == RED]


def test_zero_and_missing_orientation_change_nothing() -> None:
    panel = HeadlessMatrix(128, 32)
    assert wrap_backend(panel, {"orientation": 0}) is panel
    assert wrap_backend(panel, {}) is panel


@pytest.mark.parametrize(("degrees", "surface", "corner"), [
    (90, (32, 128), (127, 0)),    # clockwise, like Rotate:90: top-left goes top-right
    (180, (128, 32), (127, 31)),
    (270, (32, 128), (0, 31)),
])
def test_frames_are_turned_clockwise_and_the_surface_swaps_for_right_angles(
        degrees: int, surface: tuple[int, int], corner: tuple[int, int]) -> None:
    panel = HeadlessMatrix(128, 32)
    display = DisplayManager(wrap_backend(panel, {"orientation": degrees}))
    assert (display.width, display.height) == surface
    assert display.image.size == surface
    display.bind_render_thread()
    display.image.putpixel((0, 0), RED)
    display.update_display()
    assert panel.last_frame is not None and panel.last_frame.size == (128, 32)
    assert red_pixels(panel.last_frame) == [corner]


def test_the_orientation_turns_what_each_double_sided_half_shows() -> None:
    panel = HeadlessMatrix(128, 32)
    surface = wrap_backend(panel, {"orientation": 90, "display": {"double_sided": True}})
    assert isinstance(surface, OrientationBackend)
    assert isinstance(surface.inner, DoubleSidedBackend)
    assert (surface.width, surface.height) == (32, 64)  # a 64x32 half, turned
    surface.show(marked(32, 64))
    # each 64-wide half got the turned picture: the corner is at its top-right
    assert red_pixels(panel.last_frame) == [(63, 0), (127, 0)]


def test_brightness_clear_and_close_reach_the_panel() -> None:
    panel = HeadlessMatrix(64, 32)
    surface = wrap_backend(panel, {"orientation": 270})
    surface.brightness = 40
    assert panel.brightness == 40 == surface.brightness
    surface.close()
    assert panel.closed


@pytest.mark.parametrize("value", [45, "90", True, 90.0, -90, 360])
def test_an_invalid_orientation_counts_as_zero(value: Any) -> None:
    panel = HeadlessMatrix(128, 32)
    assert orientation({"orientation": value}) == 0
    assert wrap_backend(panel, {"orientation": value}) is panel


def test_status_gets_the_size_plugins_draw_on() -> None:
    config = {"orientation": 90, "display": {"hardware": {"rows": 32, "cols": 64,
                                                          "chain_length": 2}}}
    backend, status = open_backend(config, force_headless=True)
    surface = wrap_backend(backend, config, status)
    assert status["effective_size"] == {"width": 128, "height": 32}  # the panel
    assert status["drawing_size"] == {"width": 32, "height": 128} == {
        "width": surface.width, "height": surface.height}


def test_an_invalid_stored_orientation_does_not_refuse_a_real_panel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    binding = fake_rgbmatrix.install(monkeypatch)
    config = {"orientation": 45,
              "display": {"hardware": {"rows": 32, "cols": 64, "chain_length": 2,
                                       "hardware_mapping": "vendor-hat"}}}
    backend, status = open_backend(config, force_headless=False, board_reader=lambda: PI4)
    assert backend.name == "rgbmatrix" and status["ok"] is True and status["cause"] is None
    assert len(binding.made) == 1
    assert [(w["setting"], w["severity"]) for w in status["warnings"]] == [
        ("orientation", "warning")]
    assert "not rotated" in status["warnings"][0]["message"]
    assert wrap_backend(backend, config, status) is backend
    assert status["drawing_size"] == {"width": 128, "height": 32}
