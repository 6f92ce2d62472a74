"""A stand-in for the ``rgbmatrix`` binding: its surface, its checks, its failure habit.

- ``RGBMatrixOptions`` has fixed attributes: a misspelled or unknown attribute raises
  AttributeError, and a numeric option given something that is not a whole number
  raises TypeError, as the compiled class's typed setters do.
- ``RGBMatrix(options=...)`` does not raise on options the library refuses (older
  bindings): it returns an object with no matrix behind it, and ANY use of that object,
  reading ``width`` included, raises ``LibraryCrash``, which stands in for the crash of
  the process. It is a BaseException, so no ``except Exception`` in our code can hide it.
- A canvas too large to allocate (a huge ``Remap`` size) crashes at construction.
- What it refuses (``library_refusal``) mirrors the library's own checks as listed in
  the handbook (FACTS.md, "Option limits enforced by the library"), not our rules.
- It knows only the library's own mapping names (``adafruit-hat``, ``regular-pi1``...).
  An unknown ``panel_type`` is not refused: the library prints a warning and goes on.

``install(monkeypatch)`` puts a fresh copy in ``sys.modules["rgbmatrix"]``; the module's
``made`` lists every matrix object handed out, ``refused`` every refusal as
``(options, reason)``.
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
NUMERIC_OPTIONS = (
    "rows", "cols", "chain_length", "parallel", "row_address_type", "multiplexing",
    "pwm_bits", "pwm_lsb_nanoseconds", "pwm_dither_bits", "brightness", "scan_mode",
    "limit_refresh_rate_hz", "gpio_slowdown",
)
LIBRARY_MAPPINGS = {"regular": 3, "adafruit-hat": 1, "adafruit-hat-pwm": 1, "regular-pi1": 1,
                    "classic": 3, "classic-pi1": 1, "compute-module": 6}
# The library's limits (FACTS.md); None: no upper bound.
LIMITS: dict[str, tuple[int, int | None]] = {
    "cols": (16, None), "chain_length": (1, None), "brightness": (1, 100),
    "pwm_bits": (1, 11), "scan_mode": (0, 1), "pwm_lsb_nanoseconds": (50, 3000),
    "pwm_dither_bits": (0, 2), "row_address_type": (0, 5), "multiplexing": (0, None),
    "gpio_slowdown": (-1, 10),
}
# More pixels than a Pi can allocate for the canvas and its pixel map.
ALLOCATION_LIMIT = 1 << 26


class LibraryCrash(BaseException):  # noqa: N818 - named for what it stands for
    """The process crash: a call on a matrix the library never made, or no memory."""


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

    def __setattr__(self, name: str, value: Any) -> None:
        if name in NUMERIC_OPTIONS and not isinstance(value, int):
            raise TypeError(f"an integer is required for {name}, got {type(value).__name__}")
        if name in ("hardware_mapping", "pixel_mapper_config", "panel_type",
                    "led_rgb_sequence") and not isinstance(value, str | bytes | None):
            raise TypeError(f"{name} must be [str, bytes, bytearray, None]")
        object.__setattr__(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in OPTION_NAMES}


def library_refusal(o: RGBMatrixOptions) -> str | None:
    """Return why the library would refuse these options (no matrix), or None."""
    if o.hardware_mapping not in LIBRARY_MAPPINGS:
        return f"no such hardware mapping {o.hardware_mapping}"
    if not 1 <= o.parallel <= LIBRARY_MAPPINGS[o.hardware_mapping]:
        return "parallel out of range for this mapping"
    if not (8 <= o.rows <= 64 and o.rows % 2 == 0):
        return "rows must be even and 8-64"
    for name, (low, high) in LIMITS.items():
        value = getattr(o, name)
        if value < low or (high is not None and value > high):
            return f"{name} {value} out of range"
    sequence = (o.led_rgb_sequence or "").upper()
    if len(sequence) != 3 or set(sequence) != {"R", "G", "B"}:
        return f"led_rgb_sequence {o.led_rgb_sequence!r} is not a permutation of RGB"
    return None


def library_failure(o: RGBMatrixOptions) -> str | None:
    """Return why these options would not give a working panel: a refusal or a crash."""
    refused = library_refusal(o)
    if refused:
        return refused
    width, height = visible_size(o)
    if width * height > ALLOCATION_LIMIT:
        return f"cannot allocate a {width}x{height} canvas"
    return None


def visible_size(o: RGBMatrixOptions) -> tuple[int, int]:
    """Return the canvas size after the mappers this fake knows (Rotate, Remap)."""
    width, height = o.cols * o.chain_length, o.rows * o.parallel
    for step in (o.pixel_mapper_config or "").split(";"):
        name, _, param = step.strip().partition(":")
        if name.lower() == "rotate" and param.strip() in ("90", "270", "-90", "-270"):
            width, height = height, width
        elif name.lower() == "remap":
            size = param.split("|")[0].split(",")
            try:
                width, height = int(size[0]), int(size[1])
            except (ValueError, IndexError):
                continue  # the library skips a mapper it cannot parse
    return width, height


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


class RGBMatrix:
    module_state: dict[str, Any] = {"made": [], "refused": []}

    def __init__(self, options: RGBMatrixOptions | None = None) -> None:
        options = options or RGBMatrixOptions()
        state = type(self).module_state
        reason = library_refusal(options)
        object.__setattr__(self, "_no_matrix", reason)
        state["made"].append(self)
        if reason:
            state["refused"].append((options.as_dict(), reason))
            return
        width, height = visible_size(options)
        if width * height > ALLOCATION_LIMIT:
            raise LibraryCrash(f"cannot allocate a {width}x{height} canvas")
        self.options = options
        self.width, self.height = width, height
        self._brightness = options.brightness
        self.active = FrameCanvas(width, height)
        self.swaps = 0
        self.cleared = 0

    def __getattribute__(self, name: str) -> Any:
        reason = refusal_of(self)
        if reason:
            raise LibraryCrash(f"process crashed: '{name}' used on no matrix ({reason})")
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if refusal_of(self):
            raise LibraryCrash(f"process crashed: '{name}' set on no matrix")
        object.__setattr__(self, name, value)

    def CreateFrameCanvas(self) -> FrameCanvas:
        return FrameCanvas(self.width, self.height)

    def SwapOnVSync(self, canvas: FrameCanvas, framerate_fraction: int = 1) -> FrameCanvas:
        previous, self.active = self.active, canvas
        self.swaps += 1
        return previous

    def Clear(self) -> None:
        self.active.Clear()
        self.cleared += 1

    @property
    def brightness(self) -> int:
        return self._brightness

    @brightness.setter
    def brightness(self, value: int) -> None:
        self._brightness = value


def refusal_of(matrix: Any) -> str | None:
    """Return why the fake made no matrix behind ``matrix`` (None: a real one), safely."""
    try:
        return object.__getattribute__(matrix, "_no_matrix")
    except AttributeError:  # not constructed yet
        return None


def install(monkeypatch: Any, **overrides: Any) -> types.ModuleType:
    """Put a fresh fake ``rgbmatrix`` module (``overrides`` replace its classes) in place."""
    module = types.ModuleType("rgbmatrix")
    state: dict[str, Any] = {"made": [], "refused": []}
    matrix_class = type("RGBMatrix", (overrides.pop("RGBMatrix", RGBMatrix),),
                        {"module_state": state})
    module.RGBMatrix = matrix_class  # type: ignore[attr-defined]
    module.RGBMatrixOptions = overrides.pop("RGBMatrixOptions", RGBMatrixOptions)  # type: ignore[attr-defined]
    module.made = state["made"]  # type: ignore[attr-defined]
    module.refused = state["refused"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rgbmatrix", module)
    return module
