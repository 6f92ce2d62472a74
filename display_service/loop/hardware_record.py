"""The ``hardware_status`` record (the settings the display started with) with the
brightness now in force: the one setting of it applied live."""

from __future__ import annotations

from typing import Any


def with_brightness(hardware: dict[str, Any] | None, brightness: int) -> dict[str, Any] | None:
    """``hardware`` with ``brightness`` in ``settings.display.hardware``; None when there is
    no record, it has not that shape, or it says so already."""
    if hardware is None:
        return None
    settings = hardware.get("settings")
    display = settings.get("display") if isinstance(settings, dict) else None
    panel = display.get("hardware") if isinstance(display, dict) else None
    if (not isinstance(settings, dict) or not isinstance(display, dict)
            or not isinstance(panel, dict) or panel.get("brightness") == brightness):
        return None
    panel = {**panel, "brightness": brightness}
    return {**hardware, "settings": {**settings, "display": {**display, "hardware": panel}}}
