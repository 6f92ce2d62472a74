"""Why the panel shows what it shows, in one sentence (``reason`` in ``display_state``).

``reason(scene)`` looks the shown layer up in ``REASONS`` (layer -> function returning
the sentence), then adds what changes the whole panel: an on-demand request shown
while the power schedule says off, turned on by hand while it says off, and the dim
schedule. A part that adds a layer to the
compositor adds its sentence here with ``REASONS[layer] = function``; the function
gets the ``Scene`` (``scene.loop`` reaches whatever else it needs) and returns the
sentence, e.g. "notification from mqtt" or "follower of panel hall".

Times are wall-clock, shown as HH:MM in the config's time zone, with the weekday when
the moment is not today.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

from display_service.loop.schedules import BY_HAND, BY_SCHEDULE


@dataclass(frozen=True)
class Scene:
    """What the reason is told from: the layer shown and the state around it.

    ``slot``/``slots`` are the 1-based position in the shown list (rotation or live);
    ``until`` is when the shown layer ends by itself (wall clock; None: until stopped);
    ``power_cause`` says who keeps the panel off (``hand``/``schedule``) or, with the
    panel on, ``hand`` when it was turned on by hand against the schedule;
    ``power_until`` and ``dim_until`` are the power and dim schedules' next boundaries;
    ``blank``: the panel is blank because the shown entry (and every other one tried)
    drew nothing.
    """

    layer: str
    plugin_id: str | None = None
    mode: str | None = None
    slot: int | None = None
    slots: int | None = None
    until: float | None = None
    power_cause: str | None = None
    power_until: float | None = None
    dimmed: bool = False
    dim_until: float | None = None
    blank: bool = False
    wall: float = 0.0
    zone: tzinfo = UTC
    loop: Any = field(default=None, compare=False, repr=False)


def clock_text(moment: float, scene: Scene) -> str:
    """Return ``moment`` as "HH:MM" in the scene's zone ("Tue 07:00" when not today)."""
    local = datetime.fromtimestamp(moment, scene.zone)
    today = datetime.fromtimestamp(scene.wall, scene.zone).date()
    text = f"{local.hour:02d}:{local.minute:02d}"
    return text if local.date() == today else f"{local.strftime('%a')} {text}"


def _until(moment: float | None, scene: Scene, otherwise: str = "") -> str:
    return f" until {clock_text(moment, scene)}" if moment is not None else otherwise


def _rotation(scene: Scene) -> str:
    if not scene.slots:
        return "rotation: nothing to show (no plugin is enabled and loaded)"
    return f"rotation: slot {scene.slot} of {scene.slots}"


def _live(scene: Scene) -> str:
    return f"live priority of plugin {scene.plugin_id}"


def _on_demand(scene: Scene) -> str:
    return "on demand" + _until(scene.until, scene, " until stopped")


def _full_screen(scene: Scene) -> str:
    mode = scene.mode if scene.mode and scene.mode != "full_screen" else None
    return "full-screen ticker" + (f" ({mode})" if mode else "")


def _off(scene: Scene) -> str:
    if scene.power_cause == BY_HAND:
        return "panel off: turned off by hand"
    return "panel off: power schedule" + _until(scene.power_until, scene)


REASONS: dict[str, Callable[[Scene], str]] = {
    "rotation": _rotation,
    "live": _live,
    "on_demand": _on_demand,
    "full_screen": _full_screen,
    "off": _off,
}


def reason(scene: Scene) -> str:
    """Return the sentence for ``scene``: its layer's, then power by hand and dimming."""
    describe = REASONS.get(scene.layer)
    sentence = describe(scene) if describe is not None else f"showing {scene.layer}"
    if scene.blank and scene.layer != "off":
        sentence += "; the panel is blank: nothing had anything to draw, trying again"
    if scene.layer == "on_demand" and scene.power_cause == BY_SCHEDULE:
        sentence += "; shown although the power schedule says off" + _until(
            scene.power_until, scene)
    if scene.layer != "off" and scene.power_cause == BY_HAND:
        sentence += "; turned on by hand" + _until(scene.power_until, scene)
    if scene.dimmed:
        sentence += "; dimmed by the dim schedule" + _until(scene.dim_until, scene)
    return sentence
