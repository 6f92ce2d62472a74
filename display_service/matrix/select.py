"""Choose the matrix backend at start from config and flags, and say why in a status record.

Order, so the reported cause is the real one:

1. ``--headless``: the in-memory canvas, cause ``forced``, ``ok`` (asked for, so not a
   failure); it wins over emulator mode, and a warning says so.
2. Emulator mode (``--emulator`` or ``display.emulator``): the RGBMatrixEmulator; the
   hardware rules only warn.
3. Otherwise the hardware rules are checked first: a refused setting gives cause
   ``settings`` (even where the library is missing too). Then the ``rgbmatrix``
   binding must import and the board must be a Raspberry Pi (a real ``RGBMatrix`` is
   never made anywhere else: it maps ``/dev/mem``); a failure there, or the library
   not starting, gives cause ``library`` with a hint, the only cause that has one.

Every fallback runs the headless canvas at the effective size (after pixel mappers),
so plugins lay out for the panel that is configured. ``settings`` records the panel
settings this start used (``hardware_rule.panel_settings``): a later save asks for a
restart only when it changes them. A geometry value that breaks its
rule is replaced by its default for that size (a warning says so), so a refused
setting such as rows 100000 never sizes a canvas. The record is published on the bus
as ``hardware_status`` on every start.

``orientation`` is never read by the matrix library (the daemon rotates frames itself,
``display_service.matrix.orientation``), so an invalid stored value does not refuse the panel:
it is a warning and the picture is not rotated. The web still refuses to save one.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from display_service.matrix.errors import MatrixLibraryError, MatrixSettingsRefused
from display_service.matrix.headless import HeadlessMatrix
from display_service.matrix.protocol import MatrixBackend, clamp_brightness
from shared.config.hardware_rule import panel_settings
from shared.hardware import (
    ORIENTATION,
    BoardReader,
    Problem,
    check_config,
    effective_size,
    errors,
    geometry_replacements,
    read_board_model,
    requested_size,
)

__all__ = ["configured_brightness", "hardware_section", "open_backend"]

def hardware_section(config: dict[str, Any]) -> dict[str, Any]:
    """Return ``display.hardware`` from the config, or an empty dict."""
    return _section(config, "hardware")


def configured_brightness(config: dict[str, Any]) -> int:
    """Return the brightness to apply: top-level ``brightness``, else the hardware one."""
    value = config.get("brightness")
    if value is None:
        value = hardware_section(config).get("brightness")
    return clamp_brightness(value)


def open_backend(
    config: dict[str, Any],
    *,
    force_headless: bool,
    emulator: bool = False,
    board_reader: BoardReader = read_board_model,
    workdir: Path | None = None,
) -> tuple[MatrixBackend, dict[str, Any]]:
    """Open the backend for ``config``; return it with the hardware status record.

    ``workdir`` is the emulator's working directory (a new temporary one when None).
    """
    hardware = hardware_section(config)
    effective = _size(effective_size(hardware))
    resized = [p.as_dict() for p in geometry_replacements(hardware)]
    status = _new_status(config, hardware, effective, resized)
    brightness = configured_brightness(config)
    emulated = emulator or _section(config, "").get("emulator") is True
    if force_headless:
        _note_forced(status, emulated=emulated, by_flag=emulator)
        return HeadlessMatrix(effective["width"], effective["height"], brightness), status
    board = board_reader()
    status["board"] = board
    problems = [_orientation_warning(p) if p.setting == ORIENTATION else p
                for p in check_config(config, board=board)]
    try:
        if emulated:
            status["warnings"] = [p.as_warning().as_dict() for p in problems] + resized
            backend = _open_emulator(config, effective, brightness, workdir)
        else:
            status["warnings"] = [p.as_dict() for p in problems if p.severity == "warning"]
            backend = _open_real(config, problems, board)
    except MatrixSettingsRefused as err:
        status.update(cause="settings", error=err.message, problems=err.details["problems"])
        status["warnings"] += resized
    except MatrixLibraryError as err:
        status.update(cause="library", error=err.message, hint=err.hint)
        status["warnings"] += resized
    else:
        _note_opened(status, backend, effective)
        backend.brightness = brightness
        return backend, status
    return HeadlessMatrix(effective["width"], effective["height"], brightness), status


def _new_status(config: dict[str, Any], hardware: dict[str, Any], effective: dict[str, int],
                resized: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the status record of a start that has not opened a backend yet."""
    return {
        "ok": False, "backend": HeadlessMatrix.name, "cause": None, "error": None,
        "hint": None, "requested_size": _size(requested_size(hardware)),
        "effective_size": effective, "warnings": list(resized), "board": None,
        "at": time.time(), "settings": panel_settings(config),
    }


def _note_forced(status: dict[str, Any], *, emulated: bool, by_flag: bool) -> None:
    """Record a ``--headless`` start: asked for (development, tests), not a failure."""
    status.update(ok=True, cause="forced")
    if emulated:
        source = "--emulator" if by_flag else "display.emulator"
        status["warnings"].append(Problem(
            "display.emulator", f"{source} is set but --headless wins: rendering into "
            "memory, not into the emulator", "warning").as_dict())


def _note_opened(status: dict[str, Any], backend: MatrixBackend,
                 effective: dict[str, int]) -> None:
    """Record an opened backend, warning when its size is not the one the rules expect."""
    size = {"width": backend.width, "height": backend.height}
    if size != effective:
        status["warnings"].append(Problem(
            "display.hardware.pixel_mapper_config",
            f"the matrix library reports {size['width']}x{size['height']}, the rules "
            f"expected {effective['width']}x{effective['height']}", "warning").as_dict())
    status.update(ok=True, backend=backend.name, effective_size=size)


def _open_emulator(config: dict[str, Any], effective: dict[str, int], brightness: int,
                   workdir: Path | None) -> MatrixBackend:
    # The backends are imported when chosen: most starts need neither.
    from display_service.matrix.emulator_backend import DEFAULT_ADAPTER, open_emulator

    adapter = _section(config, "").get("emulator_adapter") or DEFAULT_ADAPTER
    return open_emulator(
        effective["width"], effective["height"], brightness=brightness,
        adapter=str(adapter),
        workdir=workdir or Path(tempfile.mkdtemp(prefix="ledpanel-emulator-")))


def _orientation_warning(problem: Problem) -> Problem:
    """Return an orientation problem as a warning: the library never reads the setting."""
    return Problem(problem.setting, f"{problem.message}; the picture is not rotated",
                   "warning", problem.involves)


def _open_real(config: dict[str, Any], problems: list[Problem],
               board: str | None) -> MatrixBackend:
    from display_service.matrix.rgbmatrix_backend import RGBMatrixBackend

    refused = errors(problems)
    if refused:
        raise MatrixSettingsRefused(refused)
    return RGBMatrixBackend.open(hardware_section(config), _section(config, "runtime"),
                                 board=board)


def _section(config: dict[str, Any], name: str) -> dict[str, Any]:
    display = config.get("display")
    if not isinstance(display, dict):
        return {}
    if not name:
        return display
    section = display.get(name)
    return section if isinstance(section, dict) else {}


def _size(size: tuple[int, int]) -> dict[str, int]:
    return {"width": size[0], "height": size[1]}
