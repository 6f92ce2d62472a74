"""The display hardware rules: every setting the matrix library would refuse, and why.

The library aborts, or returns no matrix, on some settings; these rules catch them
before it is called (the display daemon) and before they are saved (save rule 4).
Each finding is a ``Problem`` naming the dotted config path of the setting; rules
about a combination list every setting they read in ``involves``, so a save reports
them only when it changes one of those settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from shared.hardware.board import is_fifth_generation
from shared.hardware.mappings import (
    DEFAULT_MAPPING,
    FIFTH_GENERATION_MAPPINGS,
    MAPPINGS,
    MAX_OUTPUTS,
    unknown_mapping_message,
)
from shared.hardware.pixel_mappers import PixelMapperError, mapped_size, unknown_mappers

HARDWARE = "display.hardware"
RUNTIME = "display.runtime"
ORIENTATION = "orientation"

Severity = Literal["error", "warning"]

# Panel geometry (the spec's rules table). Parallel's upper bound is the mapping's outputs.
PANEL_RANGES: dict[str, tuple[int, int]] = {
    "rows": (8, 64),
    "cols": (16, 128),
    "chain_length": (1, 255),
}
# The library's own option limits; None means no upper bound.
LIBRARY_RANGES: dict[str, tuple[int, int | None]] = {
    "brightness": (1, 100),
    "pwm_bits": (1, 11),
    "scan_mode": (0, 1),
    "pwm_lsb_nanoseconds": (50, 3000),
    "pwm_dither_bits": (0, 2),
    "row_address_type": (0, 5),
    "multiplexing": (0, None),
    "limit_refresh_rate_hz": (0, None),
}
RUNTIME_RANGES: dict[str, tuple[int, int]] = {"gpio_slowdown": (-1, 10)}
FIFTH_GENERATION_SLOWDOWN = (1, 3)
ORIENTATIONS = (0, 90, 180, 270)
BOOLEAN_OPTIONS = ("disable_hardware_pulsing", "inverse_colors", "show_refresh_rate")
TEXT_OPTIONS = ("pixel_mapper_config", "panel_type", "led_rgb_sequence")

# Geometry used for sizes when a setting is missing or breaks its range: the config
# template's values (a test keeps them equal).
DEFAULT_GEOMETRY = {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 1}
# The ranges a geometry value must be in to size a canvas. Parallel is bounded by the
# mapping with the most outputs: the combination with the mapping is reported on its own
# and does not make the size absurd.
GEOMETRY_RANGES: dict[str, tuple[int, int]] = {**PANEL_RANGES, "parallel": (1, MAX_OUTPUTS)}


@dataclass(frozen=True)
class Problem:
    """One broken rule: the setting (dotted config path), what is wrong, how bad."""

    setting: str
    message: str
    severity: Severity = "error"
    involves: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.involves:
            object.__setattr__(self, "involves", (self.setting,))

    def as_warning(self) -> Problem:
        """Return this problem downgraded to a warning (emulator mode)."""
        return Problem(self.setting, self.message, "warning", self.involves)

    def as_dict(self) -> dict[str, str]:
        """Return the problem as JSON: setting, message, severity."""
        return {"setting": self.setting, "message": self.message, "severity": self.severity}


def check_hardware_settings(
    hardware: Any,
    runtime: Any,
    *,
    board: str | None = None,
    orientation: Any = None,
) -> list[Problem]:
    """Return every rule ``display.hardware`` and ``display.runtime`` break.

    ``board`` is the device tree model string (None: unknown, no board rules);
    ``orientation`` is the top-level setting, checked when given.
    """
    problems: list[Problem] = []
    if not isinstance(hardware, dict):
        problems.append(Problem(HARDWARE, f"{HARDWARE} must be an object"))
        hardware = {}
    if not isinstance(runtime, dict):
        problems.append(Problem(RUNTIME, f"{RUNTIME} must be an object"))
        runtime = {}
    for name, (low, high) in PANEL_RANGES.items():
        problems += _check_int(hardware, HARDWARE, name, low, high)
    rows = hardware.get("rows")
    if _is_int(rows) and rows % 2 and not problems_for(problems, f"{HARDWARE}.rows"):
        problems.append(Problem(f"{HARDWARE}.rows", f"rows must be even, got {rows}"))
    for name, (floor, ceiling) in LIBRARY_RANGES.items():
        problems += _check_int(hardware, HARDWARE, name, floor, ceiling)
    for name, (low, high) in RUNTIME_RANGES.items():
        problems += _check_int(runtime, RUNTIME, name, low, high)
    problems += _check_types(hardware)
    problems += _check_mapping(hardware, board)
    problems += _check_parallel(hardware)
    problems += _check_rgb_sequence(hardware)
    problems += _check_pixel_mappers(hardware)
    problems += _check_slowdown(runtime, board, problems)
    if orientation is not None:
        problems += _check_orientation(orientation)
    return problems


def check_config(config: dict[str, Any], *, board: str | None = None) -> list[Problem]:
    """Return the rules a whole config breaks (hardware, runtime and orientation)."""
    display = config.get("display")
    display = display if isinstance(display, dict) else {}
    return check_hardware_settings(
        display.get("hardware", {}), display.get("runtime", {}), board=board,
        orientation=config.get(ORIENTATION, 0),
    )


def problems_for(problems: list[Problem], setting: str) -> list[Problem]:
    """Return the problems reported on ``setting``."""
    return [p for p in problems if p.setting == setting]


def errors(problems: list[Problem]) -> list[Problem]:
    """Return the problems that refuse the settings (severity ``error``)."""
    return [p for p in problems if p.severity == "error"]


def panel_geometry(hardware: Any) -> dict[str, int]:
    """Return rows, cols, chain_length, parallel for sizing a canvas.

    A value that is missing, not a whole number or outside its range (rows also odd) is
    replaced by ``DEFAULT_GEOMETRY``'s, so a refused setting never sizes a canvas:
    rows 100000 would otherwise make the fallback canvas 100000 px high.
    """
    hardware = hardware if isinstance(hardware, dict) else {}
    geometry = {}
    for name, default in DEFAULT_GEOMETRY.items():
        value = hardware.get(name)
        geometry[name] = value if _usable_geometry(name, value) else default
    return geometry


def geometry_replacements(hardware: Any) -> list[Problem]:
    """Return a warning for each geometry value ``panel_geometry`` replaced by its default.

    A missing value is not reported: the default is what the config means then.
    """
    hardware = hardware if isinstance(hardware, dict) else {}
    return [
        Problem(f"{HARDWARE}.{name}",
                f"{name} {hardware[name]!r} breaks its rule; the canvas is sized with the "
                f"default {name} {default}", "warning")
        for name, default in DEFAULT_GEOMETRY.items()
        if name in hardware and not _usable_geometry(name, hardware[name])
    ]


def requested_size(hardware: Any) -> tuple[int, int]:
    """Return the size before pixel mappers: cols * chain_length by rows * parallel."""
    g = panel_geometry(hardware)
    return g["cols"] * g["chain_length"], g["rows"] * g["parallel"]


def effective_size(hardware: Any) -> tuple[int, int]:
    """Return the size after the pixel mappers; the requested size when they are malformed.

    Always at most ``MAX_CANVAS_PIXELS``: the geometry is bounded by ``panel_geometry``
    and a mapper making a larger canvas is malformed.
    """
    g = panel_geometry(hardware)
    mappers = hardware.get("pixel_mapper_config") if isinstance(hardware, dict) else None
    try:
        return mapped_size(g["cols"], g["rows"], g["chain_length"], g["parallel"],
                           mappers if isinstance(mappers, str) else "")
    except PixelMapperError:
        return requested_size(hardware)


def _usable_geometry(name: str, value: Any) -> bool:
    low, high = GEOMETRY_RANGES[name]
    if not _is_int(value) or not low <= value <= high:
        return False
    return name != "rows" or value % 2 == 0


def _check_int(
    section: dict[str, Any], prefix: str, name: str, low: int, high: int | None
) -> list[Problem]:
    if name not in section:
        return []
    value, setting = section[name], f"{prefix}.{name}"
    if not _is_int(value):
        return [Problem(setting, f"{name} must be a whole number, got {value!r}")]
    if value < low or (high is not None and value > high):
        allowed = f"{low}-{high}" if high is not None else f"at least {low}"
        return [Problem(setting, f"{name} must be {allowed}, got {value}")]
    return []


def _check_types(hardware: dict[str, Any]) -> list[Problem]:
    problems = []
    for name in BOOLEAN_OPTIONS:
        if name in hardware and not isinstance(hardware[name], bool):
            problems.append(Problem(f"{HARDWARE}.{name}",
                                    f"{name} must be true or false, got {hardware[name]!r}"))
    for name in TEXT_OPTIONS:
        if name in hardware and not isinstance(hardware[name], str):
            problems.append(Problem(f"{HARDWARE}.{name}",
                                    f"{name} must be text, got {hardware[name]!r}"))
    return problems


def _check_mapping(hardware: dict[str, Any], board: str | None) -> list[Problem]:
    setting = f"{HARDWARE}.hardware_mapping"
    name = hardware.get("hardware_mapping", DEFAULT_MAPPING)
    if not isinstance(name, str) or name not in MAPPINGS:
        return [Problem(setting, unknown_mapping_message(name))]
    if is_fifth_generation(board) and name not in FIFTH_GENERATION_MAPPINGS:
        supported = ", ".join(FIFTH_GENERATION_MAPPINGS)
        return [Problem(setting, f"hardware_mapping '{name}' is not supported on the "
                        f"fifth-generation board; use one of {supported}")]
    return []


def _check_parallel(hardware: dict[str, Any]) -> list[Problem]:
    setting = f"{HARDWARE}.parallel"
    if "parallel" not in hardware:
        return []
    parallel = hardware["parallel"]
    if not _is_int(parallel):
        return [Problem(setting, f"parallel must be a whole number, got {parallel!r}")]
    if parallel < 1:
        return [Problem(setting, f"parallel must be at least 1, got {parallel}")]
    mapping = MAPPINGS.get(str(hardware.get("hardware_mapping", DEFAULT_MAPPING)))
    if mapping is None:  # the mapping is reported itself; no mapping has more outputs
        return [] if parallel <= MAX_OUTPUTS else [
            Problem(setting, f"parallel must be 1-{MAX_OUTPUTS}, got {parallel}")]
    if parallel <= mapping.outputs:
        return []
    outputs, allowed = (("1 output", "1") if mapping.outputs == 1
                        else (f"{mapping.outputs} outputs", f"1-{mapping.outputs}"))
    return [Problem(
        setting,
        f"parallel {parallel} needs {parallel} outputs, but hardware_mapping "
        f"'{mapping.name}' has {outputs} (allowed: {allowed})",
        involves=(setting, f"{HARDWARE}.hardware_mapping"),
    )]


def _check_rgb_sequence(hardware: dict[str, Any]) -> list[Problem]:
    value = hardware.get("led_rgb_sequence")
    if not isinstance(value, str) or sorted(value.upper()) == ["B", "G", "R"]:
        return []
    return [Problem(f"{HARDWARE}.led_rgb_sequence",
                    f"led_rgb_sequence must be a permutation of R, G and B, got {value!r}")]


def _check_pixel_mappers(hardware: dict[str, Any]) -> list[Problem]:
    config = hardware.get("pixel_mapper_config")
    if not isinstance(config, str) or not config.strip():
        return []
    g = panel_geometry(hardware)  # unusable geometry values are reported on their own
    setting = f"{HARDWARE}.pixel_mapper_config"
    try:
        mapped_size(g["cols"], g["rows"], g["chain_length"], g["parallel"], config)
    except PixelMapperError as err:
        return [Problem(setting, f"pixel_mapper_config: {err.message}", involves=err.involves)]
    return [Problem(setting, f"pixel_mapper_config: unknown mapper '{name}' is ignored by "
                    "the matrix library", "warning") for name in unknown_mappers(config)]


def _check_slowdown(runtime: dict[str, Any], board: str | None,
                    found: list[Problem]) -> list[Problem]:
    setting = f"{RUNTIME}.gpio_slowdown"
    value = runtime.get("gpio_slowdown")
    if not is_fifth_generation(board) or not _is_int(value) or problems_for(found, setting):
        return []
    low, high = FIFTH_GENERATION_SLOWDOWN
    if low <= value <= high:
        return []
    return [Problem(setting, f"gpio_slowdown {value} on the fifth-generation board: "
                    f"{low}-{high} is recommended in PIO mode; start at {low}", "warning")]


def _check_orientation(value: Any) -> list[Problem]:
    if _is_int(value) and value in ORIENTATIONS:
        return []
    allowed = ", ".join(str(o) for o in ORIENTATIONS)
    return [Problem(ORIENTATION, f"orientation must be one of {allowed}, got {value!r}")]


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
