"""A plugin's ``test/harness.json``, in the existing system's format.

Keys (all optional): ``sizes`` (``["64x32", ...]`` or ``[[64, 32], ...]``; the
``LEDMATRIX_TEST_SIZES`` variable outranks it, ``DEFAULT_TEST_SIZES`` is the default),
``config`` (a config overlay for every render), ``skip_update`` (true: update() is not
called), ``fill_check`` (``"warn"``, the default, or ``"strict"``: a scale-up finding
fails), ``golden_tolerance`` (largest per-channel difference a golden pixel may have,
0), ``golden_max_pixels`` (how many pixels may differ beyond it, 0),
``render_budget_s`` (seconds one frame may take, 1.0) and ``variants``: a list of
``{"name", "config", "golden_dir"}``, each rendered in every mode with its config over
the base one, labelled ``mode@name``, its goldens in ``golden_dir`` (default
``test/golden-<name>``). Golden folders are relative to the plugin and stay inside it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from shared.plugin_system.testing.sizes import Size, resolve_test_sizes

SPEC_FILE = Path("test") / "harness.json"
GOLDEN_DIR = "test/golden"
VARIANT_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DEFAULT_BUDGET_S = 1.0


class HarnessSpecError(ValueError):
    """test/harness.json cannot be used; the message names the problem."""


@dataclass
class Variant:
    """One extra run: its name, its config overlay and its golden folder (relative)."""

    name: str
    config: dict[str, Any]
    golden_dir: str


@dataclass
class HarnessSpec:
    """What a plugin's harness.json asks for (defaults when it has none)."""

    sizes: list[Size] = field(default_factory=lambda: resolve_test_sizes())
    config: dict[str, Any] = field(default_factory=dict)
    skip_update: bool = False
    strict_fill: bool = False
    golden_tolerance: int = 0
    golden_max_pixels: int = 0
    render_budget_s: float = DEFAULT_BUDGET_S
    variants: list[Variant] = field(default_factory=list)


def load_spec(plugin_dir: Path) -> HarnessSpec:
    """Read ``<plugin_dir>/test/harness.json``; defaults when absent; HarnessSpecError when bad."""
    path = Path(plugin_dir) / SPEC_FILE
    if not path.is_file():
        return HarnessSpec()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise HarnessSpecError(f"{SPEC_FILE}: cannot be read: {err}") from err
    if not isinstance(data, dict):
        raise HarnessSpecError(f"{SPEC_FILE}: must hold a JSON object")
    try:
        return _spec_from(data)
    except ValueError as err:
        raise HarnessSpecError(f"{SPEC_FILE}: {err}") from err


def _spec_from(data: dict[str, Any]) -> HarnessSpec:
    spec = HarnessSpec()
    spec.sizes = resolve_test_sizes(data.get("sizes"))
    spec.config = _object(data.get("config", {}), "config")
    spec.skip_update = data.get("skip_update", False) is True
    fill = data.get("fill_check", "warn")
    if fill not in ("warn", "strict"):
        raise ValueError(f"fill_check must be 'warn' or 'strict', not {fill!r}")
    spec.strict_fill = fill == "strict"
    spec.golden_tolerance = _count(data, "golden_tolerance", 255)
    spec.golden_max_pixels = _count(data, "golden_max_pixels", 1 << 30)
    budget = data.get("render_budget_s", DEFAULT_BUDGET_S)
    if isinstance(budget, bool) or not isinstance(budget, int | float) or budget <= 0:
        raise ValueError("render_budget_s must be a positive number of seconds")
    spec.render_budget_s = float(budget)
    variants = data.get("variants", [])
    if not isinstance(variants, list):
        raise ValueError("variants must be a list of {name, config, golden_dir}")
    spec.variants = [_variant(item) for item in variants]
    return spec


def _variant(item: Any) -> Variant:
    entry = _object(item, "a variant")
    name = entry.get("name", "variant")
    if not isinstance(name, str) or not VARIANT_NAME.match(name):
        raise ValueError(f"variant name {name!r}: 1-64 letters, digits, _ or -")
    golden_dir = entry.get("golden_dir", f"test/golden-{name}")
    if not isinstance(golden_dir, str) or not inside(golden_dir):
        raise ValueError(f"variant {name}: golden_dir must be a folder inside the plugin")
    return Variant(name, _object(entry.get("config", {}), f"variant {name}: config"),
                   golden_dir)


def inside(relative: str) -> bool:
    """Return True for a relative path that stays inside its folder."""
    path = PurePosixPath(relative)
    return bool(relative) and not path.is_absolute() and ".." not in path.parts


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object")
    return value


def _count(data: dict[str, Any], key: str, largest: int) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= largest:
        raise ValueError(f"{key} must be a whole number from 0 to {largest}")
    return value
