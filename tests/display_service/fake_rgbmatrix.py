"""A stand-in for the ``rgbmatrix`` binding: its surface, its checks, its failure habit.

- ``RGBMatrixOptions`` has fixed attributes (``__slots__``): a misspelled or unknown
  attribute raises AttributeError, as on the compiled class.
- ``RGBMatrix(options=...)`` does not raise on options the library refuses: it
  returns a matrix with no panel behind it (width and height 0) whose every other call
  fails, standing in for the crash on the next call.
- It knows only the library's own mapping names (``adafruit-hat``, ``regular-pi1``...).

``install(monkeypatch)`` puts a fresh copy in ``sys.modules["rgbmatrix"]``.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from PIL import Image

OPTION_NAMES = (
    "rows", "cols", "chain_length", "parallel", "hardware_mapping", "pixel_mapper_config",
    "row_address_type", "multiplexing", "panel_type", "pwm_bits", "pwm_lsb_nanoseconds",
    "pwm_dither_bits", "brightness", "scan_mode", "disable_hardware_pulsing",
    "inverse_colors", "show_refresh_rate", "led_rgb_sequence", "limit_refresh_rate_hz",
    "gpio_slowdown", "drop_privileges",
)
LIBRARY_MAPPINGS = {"regular": 3, "adafruit-hat": 1, "adafruit-hat-pwm": 1, "regular-pi1": 1,
                    "classic": 3, "classic-pi1": 1, "compute-module": 6}
PANEL_TYPES = ("", "FM6126A", "FM6127")


class RGBMatrixOptions:
    __slots__ = OPTION_NAMES

    def __init__(self) -> None:
        defaults: dict[str, Any] = {
            "rows": 32, "cols": 32, "chain_length": 1, "parallel": 1,
            "hardware_mapping": "regular", "pixel_mapper_config": "", "row_address_type": 0,
            "multiplexing": 0, "panel_type": "", "pwm_bits": 11, "pwm_lsb_nanoseconds": 130,
            "pwm_dither_bits": 0, "brightness": 100, "scan_mode": 0,
            "disable_hardware_pulsing": False, "inverse_colors": False,
            "show_refresh_rate": False, "led_rgb_sequence": "RGB", "limit_refresh_rate_hz": 0,
            "gpio_slowdown": 1, "drop_privileges": True,
        }
        for name, value in defaults.items():
            setattr(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in OPTION_NAMES}


class FrameCanvas:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels = Image.new("RGB", (width, height))

    def SetImage(self, image: Image.Image, offset_x: int = 0, offset_y: int = 0,
                 unsafe: bool = True) -> None:
        if image.mode != "RGB":
            raise ValueError("Currently, only RGB mode is supported for SetImage()")
        self.pixels.paste(image, (offset_x, offset_y))

    def Clear(self) -> None:
        self.pixels = Image.new("RGB", (self.width, self.height))


class NoMatrixError(RuntimeError):
    """What a call on a matrix the library never made would do (a crash)."""


class RGBMatrix:
    def __init__(self, options: RGBMatrixOptions | None = None) -> None:
        self.options = options or RGBMatrixOptions()
        self.module_state["made"].append(self)
        self.refused = self._refusal(self.options)
        if self.refused:
            self.width = self.height = 0
            return
        width = self.options.cols * self.options.chain_length
        height = self.options.rows * self.options.parallel
        if any(step.strip().lower() in ("rotate:90", "rotate:270")
               for step in self.options.pixel_mapper_config.split(";")):
            width, height = height, width
        self.width, self.height = width, height
        self._brightness = self.options.brightness
        self.active = FrameCanvas(width, height)
        self.swaps = 0
        self.cleared = 0

    module_state: dict[str, Any] = {"made": []}

    @staticmethod
    def _refusal(o: RGBMatrixOptions) -> str | None:
        if o.hardware_mapping not in LIBRARY_MAPPINGS:
            return f"no such hardware mapping {o.hardware_mapping}"
        if not 1 <= o.parallel <= LIBRARY_MAPPINGS[o.hardware_mapping]:
            return "parallel out of range for this mapping"
        if not (8 <= o.rows <= 64 and o.rows % 2 == 0) or o.cols < 16 or o.chain_length < 1:
            return "bad panel geometry"
        if o.panel_type not in PANEL_TYPES:
            return f"unknown panel type {o.panel_type}"
        return None

    def _alive(self) -> None:
        if self.refused:
            raise NoMatrixError(f"no matrix ({self.refused})")

    def CreateFrameCanvas(self) -> FrameCanvas:
        self._alive()
        return FrameCanvas(self.width, self.height)

    def SwapOnVSync(self, canvas: FrameCanvas, framerate_fraction: int = 1) -> FrameCanvas:
        self._alive()
        previous, self.active = self.active, canvas
        self.swaps += 1
        return previous

    def Clear(self) -> None:
        self._alive()
        self.active.Clear()
        self.cleared += 1

    @property
    def brightness(self) -> int:
        self._alive()
        return self._brightness

    @brightness.setter
    def brightness(self, value: int) -> None:
        self._alive()
        self._brightness = value


def install(monkeypatch: Any, **overrides: Any) -> types.ModuleType:
    """Put a fresh fake ``rgbmatrix`` module (``overrides`` replace its classes) in place."""
    module = types.ModuleType("rgbmatrix")
    state: dict[str, Any] = {"made": []}
    matrix_class = type("RGBMatrix", (overrides.pop("RGBMatrix", RGBMatrix),),
                        {"module_state": state})
    module.RGBMatrix = matrix_class  # type: ignore[attr-defined]
    module.RGBMatrixOptions = overrides.pop("RGBMatrixOptions", RGBMatrixOptions)  # type: ignore[attr-defined]
    module.made = state["made"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rgbmatrix", module)
    return module
