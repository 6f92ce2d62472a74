"""A plugin's ``test/harness.json``: sizes, fill check, golden tolerance, variants.

Keys (all optional): ``sizes`` (``["64x32", ...]``, default ``DEFAULT_TEST_SIZES``),
``fill_check`` (``"warn"``, the default, or ``"strict"``: a scale-up finding fails),
``golden_tolerance`` (largest per-channel difference a golden pixel may have, 0),
``golden_max_pixels`` (how many pixels may differ beyond it, 0), ``render_budget_s``
(seconds one frame may take, 1.0) and ``variants`` (name -> config overlay; each is
rendered in every mode, labelled ``mode@name``, with its own golden directory).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.plugin_system.testing.sizes import DEFAULT_TEST_SIZES, Size, coerce_sizes

SPEC_FILE = Path("test") / "harness.json"
VARIANT_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DEFAULT_BUDGET_S = 1.0


class HarnessSpecError(ValueError):
    """test/harness.json cannot be used; the message names the problem."""


@dataclass
class HarnessSpec:
    """What a plugin's harness.json asks for (defaults when it has none)."""

    sizes: list[Size] = field(default_factory=lambda: list(DEFAULT_TEST_SIZES))
    strict_fill: bool = False
    golden_tolerance: int = 0
    golden_max_pixels: int = 0
    render_budget_s: float = DEFAULT_BUDGET_S
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)


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
    if "sizes" in data:
        spec.sizes = coerce_sizes(data["sizes"])
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
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        raise ValueError("variants must map a name to a config overlay")
    for name, overlay in variants.items():
        if not VARIANT_NAME.match(name) or not isinstance(overlay, dict):
            raise ValueError(f"variant {name!r} needs a name of letters, digits, _ or - "
                             f"and an object as its config overlay")
    spec.variants = dict(variants)
    return spec


def _count(data: dict[str, Any], key: str, largest: int) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= largest:
        raise ValueError(f"{key} must be a whole number from 0 to {largest}")
    return value
