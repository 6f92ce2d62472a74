"""Emulator mode: the RGBMatrixEmulator package, which mirrors the binding's classes.

- The package reads (and, if missing, writes) ``emulator_config.json`` in the current
  directory when it is imported and whenever options are made, so it is imported and
  started from a directory we own, with the full config file written first.
- Adapters: ``raw`` (default; frames kept in memory, no window, no port) or
  ``browser`` (a web page on ``port``, all interfaces). Adapter instances are
  per-process singletons: one emulator per process.
- The emulator is given the effective size (after pixel mappers, worked out by
  ``shared.hardware``) as one flat panel: it implements only some mappers and only the
  first of a chain, so letting it map would give a canvas of another size.
- In emulator mode the hardware rules only warn; the caller collects the warnings.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from display_service.matrix.errors import MatrixLibraryError
from display_service.matrix.protocol import clamp_brightness
from display_service.matrix.rgbmatrix_backend import RGBMatrixBackend
from shared.config.values import EMULATOR_ADAPTERS

ADAPTERS = EMULATOR_ADAPTERS  # the config allows only these (shared.config.values)
DEFAULT_ADAPTER = "raw"
DEFAULT_PORT = 8888
INSTALL_HINT = "install the emulator: pip install 'ledpanel[emulator]' (RGBMatrixEmulator)"


def emulator_config(adapter: str, port: int = DEFAULT_PORT) -> dict[str, Any]:
    """Return the complete emulator_config.json for ``adapter`` (every key, no warnings)."""
    return {
        "pixel_outline": 0,
        "pixel_size": 16 if adapter == "browser" else 1,
        "pixel_style": "square",
        "pixel_glow": 6,
        "display_adapter": adapter,
        "allow_adapter_fallback": False,
        "icon_path": None,
        "emulator_title": "ledpanel",
        "browser": {
            "_comment": "For use with the browser adapter only.",
            "port": port,
            "target_fps": 60,
            "fps_display": False,
            "quality": 70,
            "image_border": True,
            "debug_text": False,
            "image_format": "JPEG",
            "open_immediately": False,
        },
        "log_level": "warning",
    }


@contextlib.contextmanager
def inside(directory: Path) -> Iterator[None]:
    """Run the block with ``directory`` as the current directory (start-up only)."""
    previous = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(previous)


class EmulatorBackend(RGBMatrixBackend):
    """The RGBMatrixEmulator matrix behind the same frame-pushing code as the real one."""

    name = "emulator"

    def __init__(self, matrix: Any, adapter: str) -> None:
        super().__init__(matrix)
        self.adapter = adapter

    def last_pixels(self) -> Any:
        """Return the last frame the raw adapter received (rows x cols x RGB), or None."""
        display = getattr(self._canvas, "display_adapter", None)
        frames = getattr(display, "frames", None)
        if not frames:
            return None
        return frames[max(frames)]


def open_emulator(
    width: int,
    height: int,
    *,
    workdir: Path,
    brightness: int = 100,
    adapter: str = DEFAULT_ADAPTER,
    port: int = DEFAULT_PORT,
) -> EmulatorBackend:
    """Start an emulated panel of ``width`` x ``height`` from ``workdir``."""
    if adapter not in ADAPTERS:
        raise MatrixLibraryError(f"unknown emulator adapter '{adapter}' "
                                 f"(use {' or '.join(ADAPTERS)})", INSTALL_HINT)
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "emulator_config.json").write_text(
        json.dumps(emulator_config(adapter, port), indent=2), encoding="utf-8")
    with inside(workdir):
        try:
            emulator = importlib.import_module("RGBMatrixEmulator")
        except ImportError as err:
            raise MatrixLibraryError(f"RGBMatrixEmulator not available: {err}",
                                     INSTALL_HINT) from err
        try:
            options = emulator.RGBMatrixOptions()
            options.rows, options.cols = height, width
            options.chain_length = options.parallel = 1
            options.brightness = clamp_brightness(brightness)
            matrix = emulator.RGBMatrix(options=options)
            backend = EmulatorBackend(matrix, adapter)
        except (Exception, SystemExit) as err:  # the emulator exits on adapter failures
            raise MatrixLibraryError(f"the emulator failed to start ({adapter} adapter): "
                                     f"{err or type(err).__name__}", INSTALL_HINT) from err
    return backend
