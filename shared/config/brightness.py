"""The two brightness keys are one setting.

Top-level ``brightness`` is what the panel uses; ``display.hardware.brightness`` is
the key the existing system and its users' tools write. A save of either changes the
panel: ``settle_brightness`` sets both to the value that changed, so every reader sees
one value. Both changed to different values at once is refused: nobody can tell which
was meant. Keys that already disagreed (an old file) are left alone until either is
saved; until then the panel shows the top-level value.
"""

from __future__ import annotations

from typing import Any

from shared.errors import ValidationError

TOP = "brightness"
HARDWARE = ("display", "hardware", "brightness")
HARDWARE_NAME = ".".join(HARDWARE)
_MISSING = object()


def brightness_keys(config: dict[str, Any]) -> tuple[Any, Any]:
    """Return the top-level and the hardware brightness (``_MISSING`` when absent)."""
    node: Any = config
    for part in HARDWARE:
        node = node.get(part, _MISSING) if isinstance(node, dict) else _MISSING
    return config.get(TOP, _MISSING), node


def settle_brightness(stored: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Return ``new`` with both keys set to the brightness that changed since ``stored``.

    ``new`` is changed in place (and returned); the ``display`` and ``hardware`` objects
    it sets the key in are replaced by changed copies, never changed, since ``new`` may
    share them with ``stored``. Raises ValidationError when both keys changed to
    different values.
    """
    top, hardware = brightness_keys(new)
    old_top, old_hardware = brightness_keys(stored)
    top_changed, hardware_changed = not _same(top, old_top), not _same(hardware, old_hardware)
    if top_changed and hardware_changed and not _same(top, hardware):
        raise ValidationError(
            f"{TOP} and {HARDWARE_NAME} are one setting; set one of them (got {top!r} and "
            f"{hardware!r})", error_code="INVALID_FIELD", details={"field": TOP})
    if not (top_changed or hardware_changed):
        return new
    value = top if top_changed else hardware
    if value is _MISSING:
        return new
    new[TOP] = value
    display = new.get("display")
    hardware_section = display.get("hardware") if isinstance(display, dict) else None
    if isinstance(display, dict) and isinstance(hardware_section, dict):
        new["display"] = {**display, "hardware": {**hardware_section, "brightness": value}}
    return new


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
