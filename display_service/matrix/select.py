"""Choose the matrix backend at start from config and flags.

In this version the only backend is the built-in headless canvas, so the display
daemon always runs in fallback mode; the hardware status says why (``cause``):
``forced`` when ``--headless`` was given, ``library`` when the ``rgbmatrix`` binding
cannot be imported (with a rebuild hint) or is present but not driven yet.
"""

from __future__ import annotations

import importlib
import sys
import time
from typing import Any

from display_service.matrix.headless import HeadlessMatrix
from display_service.matrix.protocol import MatrixBackend, clamp_brightness

DEFAULT_ROWS = 32
DEFAULT_COLS = 64

LIBRARY_MISSING = "rgbmatrix module not available"


def rebuild_hint(python: str | None = None) -> str:
    """Return how to build and install the matrix library's Python binding."""
    python = python or sys.executable
    return (
        "build the Python binding from the rpi-rgb-led-matrix source: "
        "sudo apt-get install python3-dev cython3; in the library checkout run "
        f"'make build-python PYTHON={python}' then "
        f"'sudo make install-python PYTHON={python}', and restart ledpanel-display"
    )


def hardware_section(config: dict[str, Any]) -> dict[str, Any]:
    """Return ``display.hardware`` from the config, or an empty dict."""
    display = config.get("display")
    hardware = display.get("hardware") if isinstance(display, dict) else None
    return hardware if isinstance(hardware, dict) else {}


def requested_size(config: dict[str, Any]) -> dict[str, int]:
    """Return the panel size before pixel mappers: cols*chain_length x rows*parallel."""
    hardware = hardware_section(config)

    def number(key: str, default: int) -> int:
        value = hardware.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return default
        return value

    return {
        "width": number("cols", DEFAULT_COLS) * number("chain_length", 1),
        "height": number("rows", DEFAULT_ROWS) * number("parallel", 1),
    }


def configured_brightness(config: dict[str, Any]) -> int:
    """Return the brightness to apply: top-level ``brightness``, else the hardware one."""
    value = config.get("brightness")
    if value is None:
        value = hardware_section(config).get("brightness")
    return clamp_brightness(value)


def open_backend(
    config: dict[str, Any], *, force_headless: bool
) -> tuple[MatrixBackend, dict[str, Any]]:
    """Open the backend for ``config``; return it with the hardware status record."""
    size = requested_size(config)
    status: dict[str, Any] = {
        "ok": False,
        "backend": HeadlessMatrix.name,
        "cause": None,
        "error": None,
        "hint": None,
        "requested_size": dict(size),
        # Without the binding no pixel mapper runs, so the canvas keeps the input size.
        # The display-engine work computes the mapped size from shared hardware rules.
        "effective_size": dict(size),
        "at": time.time(),
    }
    if force_headless:
        status["cause"] = "forced"
    else:
        try:
            importlib.import_module("rgbmatrix")
        except ImportError as err:
            status.update(cause="library", error=f"{LIBRARY_MISSING}: {err}", hint=rebuild_hint())
        else:
            # Seam: the real backend goes here. Check the settings against the
            # shared hardware rules first (raise MatrixSettingsRefused -> cause
            # "settings"), then open the rgbmatrix binding, or the RGBMatrixEmulator
            # in emulator mode, translating mapping names at that boundary only.
            status.update(cause="library", error="rgbmatrix backend not built into this version")
    backend = HeadlessMatrix(size["width"], size["height"], configured_brightness(config))
    return backend, status
