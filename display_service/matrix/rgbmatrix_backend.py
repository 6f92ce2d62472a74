"""The real panel: the rpi-rgb-led-matrix Python binding (module ``rgbmatrix``).

- The settings are checked against ``shared.hardware`` before the library is called,
  and those rules are the only guard: on options it refuses, the library returns no
  matrix, and with older bindings the Python object still comes back; the next call on
  it (even reading ``width``) crashes the process, so nothing here may probe the object
  to find out. Newer bindings raise instead, which is a ``library`` failure. The rules
  mirror every limit the library checks (a test holds them to a fake library that
  refuses what the real one does).
- ``build_options`` is the one place config values become ``RGBMatrixOptions``
  attributes, one to one, and the one place spec mapping names become the library's
  (``vendor-hat`` -> ``adafruit-hat``, ``-gen1`` -> ``-pi1``).
- ``drop_privileges`` is off. By default the binding drops root to user ``daemon``
  right after init (outside the service group, so the bus directory, the plugin cache
  and the config would be out of reach), keeps root's other groups and reports a failed
  drop only on stderr. The daemon drops root itself once the backend is open
  (``display_service.privileges``), to the service user, with that user's groups.
- Frames go out as one ``SetImage`` on an off-screen canvas and a ``SwapOnVSync``
  (per-pixel calls from Python are far too slow).
"""

from __future__ import annotations

import importlib
import logging
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

from display_service.matrix.errors import MatrixLibraryError, MatrixSettingsRefused
from display_service.matrix.protocol import clamp_brightness
from shared.hardware import (
    check_hardware_settings,
    errors,
    is_raspberry_pi,
    library_mapping_name,
)

logger = logging.getLogger(__name__)

LIBRARY_MISSING = "rgbmatrix module not available"
NOT_A_PI_HINT = ("the real panel is driven only on a Raspberry Pi; on another machine "
                 "start ledpanel-display with --emulator (or set display.emulator)")

# Config keys under display.hardware / display.runtime that are RGBMatrixOptions
# attributes of the same name.
HARDWARE_OPTIONS = (
    "rows", "cols", "chain_length", "parallel", "hardware_mapping", "pixel_mapper_config",
    "row_address_type", "multiplexing", "panel_type", "pwm_bits", "pwm_lsb_nanoseconds",
    "pwm_dither_bits", "brightness", "scan_mode", "disable_hardware_pulsing",
    "inverse_colors", "show_refresh_rate", "led_rgb_sequence", "limit_refresh_rate_hz",
)
RUNTIME_OPTIONS = ("gpio_slowdown",)
PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The installer's build of the binding (pip's own build: scikit-build-core, CMake, Cython).
BUILD_COMMAND = "-m pip install --disable-pip-version-check --no-input --prefer-binary ."


def rebuild_hint(python: str | None = None) -> str:
    """Return how to build and install the matrix library's Python binding.

    The commands are the installer's own (``scripts/installer/steps_matrix.py``; a test
    holds them equal): its ``matrix`` step, or the same build by hand.
    """
    python = python or sys.executable
    return (
        f"build the Python binding from the rpi-rgb-led-matrix source as the installer "
        f"does: sudo {PROJECT_ROOT}/scripts/install --from matrix; or by hand: "
        "sudo apt-get install python3-dev cython3 cmake ninja-build build-essential, then "
        f"in the library checkout 'sudo {python} {BUILD_COMMAND}'; "
        "then restart ledpanel-display"
    )


def load_binding() -> ModuleType:
    """Import the ``rgbmatrix`` binding; MatrixLibraryError with a rebuild hint if absent."""
    try:
        return importlib.import_module("rgbmatrix")
    except ImportError as err:
        raise MatrixLibraryError(f"{LIBRARY_MISSING}: {err}", rebuild_hint()) from err


def build_options(binding: Any, hardware: dict[str, Any], runtime: dict[str, Any]) -> Any:
    """Return ``binding.RGBMatrixOptions`` filled from validated settings.

    Settings missing from the config keep the library's defaults.
    """
    values = {name: hardware[name] for name in HARDWARE_OPTIONS if name in hardware}
    if "hardware_mapping" in values:
        values["hardware_mapping"] = library_mapping_name(values["hardware_mapping"])
    values.update({name: runtime[name] for name in RUNTIME_OPTIONS if name in runtime})
    values["drop_privileges"] = False
    options = binding.RGBMatrixOptions()
    for name, value in values.items():
        try:
            setattr(options, name, value)
        except AttributeError as err:
            raise MatrixLibraryError(
                f"the installed rgbmatrix binding has no option '{name}' (too old?)",
                rebuild_hint(),
            ) from err
        except (TypeError, ValueError, OverflowError) as err:  # its typed C setters
            raise MatrixLibraryError(
                f"the installed rgbmatrix binding does not take {name} {value!r}: {err}",
                rebuild_hint(),
            ) from err
    return options


class RGBMatrixBackend:
    """Push whole frames to a matrix object with the binding's surface."""

    name = "rgbmatrix"

    def __init__(self, matrix: Any) -> None:
        self._matrix = matrix
        self._canvas = matrix.CreateFrameCanvas()
        self._last: Image.Image | None = None

    @classmethod
    def open(
        cls,
        hardware: dict[str, Any],
        runtime: dict[str, Any],
        *,
        board: str | None,
        binding: Any = None,
    ) -> RGBMatrixBackend:
        """Check the rules, then start the library on a Pi; raise why when either refuses.

        ``binding`` is the ``rgbmatrix`` module (imported here when None).
        """
        refused = errors(check_hardware_settings(hardware, runtime, board=board))
        if refused:
            raise MatrixSettingsRefused(refused)
        binding = load_binding() if binding is None else binding
        if not is_raspberry_pi(board):  # a real RGBMatrix maps /dev/mem: only on a Pi
            raise MatrixLibraryError(
                f"rgbmatrix is importable but this is not a Raspberry Pi "
                f"(board: {board or 'unknown'})", NOT_A_PI_HINT)
        options = build_options(binding, hardware, runtime)
        # Nothing reads the new object to check it: on a matrix the library did not make,
        # that read is the crash. A binding that raises, or returns None, is handled.
        try:
            matrix = binding.RGBMatrix(options=options)
            if matrix is None:
                raise MatrixLibraryError("the matrix library returned no matrix for these "
                                         "options", init_hint())
            return cls(matrix)
        except MatrixLibraryError:
            raise
        except Exception as err:  # the library boundary: any failure means no panel
            raise MatrixLibraryError(f"the matrix library failed to start: {err}",
                                     init_hint()) from err

    @property
    def width(self) -> int:
        return int(self._matrix.width)

    @property
    def height(self) -> int:
        return int(self._matrix.height)

    @property
    def brightness(self) -> int:
        return int(self._matrix.brightness)

    @brightness.setter
    def brightness(self, value: int) -> None:
        self._matrix.brightness = clamp_brightness(value, self.brightness)
        # The library applies brightness as pixels are set: push the frame again.
        if self._last is not None:
            self.show(self._last)

    def show(self, image: Image.Image) -> None:
        """Draw ``image`` on the off-screen canvas and swap it in at the next refresh."""
        frame = image if image.mode == "RGB" else image.convert("RGB")
        self._canvas.SetImage(frame, 0, 0)
        self._canvas = self._matrix.SwapOnVSync(self._canvas)
        self._last = frame

    def clear(self) -> None:
        """Blank the panel."""
        self._matrix.Clear()
        self._last = None

    def close(self) -> None:
        """Blank the panel; the library stops refreshing when the process exits."""
        try:
            self.clear()
        except Exception:  # closing must not fail the shutdown
            logger.exception("matrix: clear on close failed")


def init_hint() -> str:
    """Return what to do when the library is present but does not start."""
    return ("the matrix library prints its reason to the journal "
            "(journalctl -u ledpanel-display); check the panel settings against it, and "
            "if the binding is older than the library, rebuild it: " + rebuild_hint())
