"""Allowed ranges of numeric core settings: one table for every save path.

JSON and form saves of POST /config/main check each value they set
(``coerce.coerce_value`` calls ``check_limit``); the raw editor checks every value its
replacement changes (``value_errors``, through ``check.config_problems``). Ranges come
from the interface specification (brightness 1-100 in the UI, web port) and from the
matrix library's own limits (``shared.hardware.rules``); the board-specific guidance and
the panel geometry rules (rows, cols, chain, parallel, mapping) are the hardware rules behind
``hardware_rule.check_hardware_save``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from shared.config.lookup import path_lookup
from shared.config.rate_limits import MAX_PER_MINUTE
from shared.config.values import RULES, check_value
from shared.errors import ValidationError
from shared.hardware.rules import HARDWARE, LIBRARY_RANGES, RUNTIME, RUNTIME_RANGES

# The shortest a plugin is shown: shorter slots only spin the display (a core busy
# switching plugins). Config saves refuse less; the rotation clamps older configs.
MIN_DISPLAY_SECONDS = 1.0
# The longest timed on-demand (a week); longer is what ``pinned`` (until stopped) is for.
MAX_ON_DEMAND_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Limit:
    """An inclusive range; ``low_open`` excludes ``low`` itself (``> low``)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False

    def allows(self, value: float) -> bool:
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            return f"between {self.low:g} and {self.high:g}"
        if self.low is not None:
            return f"greater than {self.low:g}" if self.low_open else f"at least {self.low:g}"
        return f"at most {self.high:g}"


DISPLAY_SECONDS = Limit(MIN_DISPLAY_SECONDS)  # a display duration (see there)

# Dotted path (``*`` matches one key) -> allowed range.
LIMITS: dict[str, Limit] = {
    "brightness": Limit(1, 100),
    "display.hardware.brightness": Limit(1, 100),
    "dim_schedule.dim_brightness": Limit(1, 100),
    "web.port": Limit(1, 65535),
    "web.sign_in.session_days": Limit(1, 365),
    "web.rate_limits.per_minute.*": Limit(1, MAX_PER_MINUTE),
    "notifications.max_wait_seconds": Limit(10, 86400),
    "display_durations.*": DISPLAY_SECONDS,
    # Every plugin section's own durations (``*`` is the plugin id; no core key has these).
    "*.display_duration": DISPLAY_SECONDS,
    "*.dynamic_duration.max_duration_seconds": DISPLAY_SECONDS,
    # Vegas ticker: speeds and durations the display would otherwise replace silently.
    "vegas_scroll.scroll_speed": Limit(0, 1000, low_open=True),
    "vegas_scroll.scroll_delay": Limit(0.001, 1),
    "vegas_scroll.vegas_min_cycle_duration": Limit(1, 86400),
    "vegas_scroll.vegas_max_cycle_duration": Limit(1, 86400),
    "vegas_scroll.separator_padding": Limit(0, 256),
    "vegas_scroll.default_panel_count": Limit(1, 16),
    "vegas_scroll.static_hold_duration": Limit(0, 3600),
    "vegas_scroll.buffer_ahead": Limit(0, 16),
    "vegas_scroll.content_refresh_interval": Limit(1, 86400),
    "vegas_scroll.live_poll_interval": Limit(1, 3600),
    "vegas_scroll.live_hold_duration": Limit(0, 86400),
    # The matrix library's option limits: one table in shared.hardware.
    **{f"{RUNTIME}.{name}": Limit(low, high) for name, (low, high) in RUNTIME_RANGES.items()},
    **{f"{HARDWARE}.{name}": Limit(low, high) for name, (low, high) in LIBRARY_RANGES.items()},
}


def limit_for(name: str) -> Limit | None:
    """Return the range of a dotted path, or None when it has none."""
    return path_lookup(LIMITS, name)


def check_limit(name: str, value: Any, limit: Limit | None = None) -> None:
    """Raise ValidationError naming the setting and its range when a number is outside it.

    ``limit`` defaults to the table's entry for ``name``. Values that are not numbers
    are left to the type checks.
    """
    if not _is_number(value):
        return
    limit = limit_for(name) if limit is None else limit
    if limit is not None and not limit.allows(value):
        raise ValidationError(
            f"{name} must be {limit.describe()} (got {value!r})",
            error_code="OUT_OF_RANGE",
            details={"field": name, "minimum": limit.low, "maximum": limit.high,
                     "exclusive_minimum": limit.low_open},
        )


def value_errors(config: dict[str, Any],
                 stored: dict[str, Any] | None = None) -> Iterator[ValidationError]:
    """Yield an error for every value of a whole config outside its range or not allowed.

    Ranges come from ``LIMITS``, allowed words and times of day from ``values.RULES``.
    With ``stored``, a value equal to the stored one is not checked again, so a value
    the replacement does not change never blocks a save.
    """
    for pattern, limit in LIMITS.items():
        for name, value in matches(config, pattern, stored):
            try:
                check_limit(name, value, limit)
            except ValidationError as err:
                yield err
    for pattern in RULES:
        for name, value in matches(config, pattern, stored):
            try:
                check_value(name, value)
            except ValidationError as err:
                yield err


def check_config_limits(config: dict[str, Any], stored: dict[str, Any] | None = None) -> None:
    """Raise the first of ``value_errors``."""
    for err in value_errors(config, stored):
        raise err


def matches(config: dict[str, Any], pattern: str,
            stored: dict[str, Any] | None = None) -> list[tuple[str, Any]]:
    """Return ``(dotted name, value)`` for each value at ``pattern`` (``*``: any one key).

    With ``stored``, values equal to the stored ones (same type too) are left out.
    """
    return [(".".join(parts), value) for parts, value in _expand(config, pattern.split("."), [])
            if stored is None or not _stored_equal(stored, parts, value)]


def check_finite(value: Any, name: str) -> None:
    """Refuse NaN and infinite numbers anywhere in ``value`` (they are not JSON)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(
            f"{name} must be a finite number (got {value!r})",
            error_code="INVALID_FIELD",
            details={"field": name},
        )
    if isinstance(value, dict):
        for key, item in value.items():
            check_finite(item, f"{name}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_finite(item, f"{name}[{index}]")


def _expand(node: Any, pattern: list[str], path: list[str]) -> list[tuple[list[str], Any]]:
    if not pattern:
        return [(path, node)]
    if not isinstance(node, dict):
        return []
    head, rest = pattern[0], pattern[1:]
    keys = list(node) if head == "*" else [head] if head in node else []
    found: list[tuple[list[str], Any]] = []
    for key in keys:
        found.extend(_expand(node[key], rest, [*path, str(key)]))
    return found


def _stored_equal(stored: dict[str, Any], parts: list[str], value: Any) -> bool:
    node: Any = stored
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return type(node) is type(value) and node == value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
