"""The rotation's building blocks: entries, how they are built, and a position in them.

Rotation order: the plugins the config's ``rotation_order`` lists, in its order, then
the others sorted by id (``shared.config.rotation_order.effective_order``; listed ids
that are not loaded are skipped, a malformed setting counts as empty); each plugin's
modes in the order it declares them. A saved order applies when the display takes the
saved config, as durations do; the entry on screen stays until its time is up.

Duration of an entry: ``display_durations[plugin_id]`` from the config when it is a
positive number, else the plugin's ``get_display_duration()``; never shorter than
``MIN_DISPLAY_SECONDS``.

Dynamic duration: an entry of a plugin whose ``supports_dynamic_duration()`` is true
carries a ``cap``; it lasts until the plugin says its cycle is complete, and at most
``cap`` seconds (the plugin's ``get_dynamic_duration_cap()``, else
``DEFAULT_DYNAMIC_CAP``). Its ``duration`` stays the fixed one, used where a length must
be known in advance (an on-demand request without a duration).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.config.limits import MIN_DISPLAY_SECONDS
from shared.config.rotation_order import effective_order

DEFAULT_DURATION = 15.0
DEFAULT_DYNAMIC_CAP = 300.0


@dataclass(frozen=True)
class Entry:
    """One rotation slot: a plugin's display mode shown for ``duration`` seconds.

    ``cap`` is set for dynamic-duration entries: the slot then ends when the plugin's
    cycle completes, at the latest after ``cap`` seconds.
    """

    plugin_id: str
    mode: str
    duration: float
    cap: float | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.plugin_id, self.mode)

    @property
    def dynamic(self) -> bool:
        return self.cap is not None

    @property
    def limit(self) -> float:
        """The longest this slot lasts."""
        return self.cap if self.cap is not None else self.duration


def positive(value: Any) -> float | None:
    """Return ``value`` as a float when it is a finite number above zero, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def build_entries(
    plugin_ids: Iterable[str],
    modes: Callable[[str], list[str]],
    own_duration: Callable[[str], Any],
    display_durations: Mapping[str, Any] | None = None,
    dynamic_cap: Callable[[str], Any] | None = None,
    order: Any = None,
) -> list[Entry]:
    """Return the rotation: plugins in rotation order, each one's modes in declared order.

    ``order`` is the config's ``rotation_order`` as read (listed plugins first, the rest
    sorted; anything malformed in it is ignored).

    ``dynamic_cap(plugin_id)`` returns None for a fixed duration, else the cap of the
    plugin's dynamic duration in seconds (not a positive number: ``DEFAULT_DYNAMIC_CAP``).
    """
    durations = display_durations if isinstance(display_durations, Mapping) else {}
    entries: list[Entry] = []
    for plugin_id in effective_order(plugin_ids, order):
        duration = positive(durations.get(plugin_id)) or positive(own_duration(plugin_id))
        dynamic = dynamic_cap(plugin_id) if dynamic_cap is not None else None
        cap = None if dynamic is None else positive(dynamic) or DEFAULT_DYNAMIC_CAP
        # Saves refuse shorter ones; an older config must not spin the display either.
        duration = max(duration or DEFAULT_DURATION, MIN_DISPLAY_SECONDS)
        cap = None if cap is None else max(cap, MIN_DISPLAY_SECONDS)
        for mode in modes(plugin_id) or [plugin_id]:
            entries.append(Entry(plugin_id, mode, duration, cap))
    return entries


def live_entries(entries: list[Entry], live_modes: Mapping[str, list[str]]) -> list[Entry]:
    """Return the rotation entries to show while ``live_modes`` plugins are live.

    A plugin's listed modes that it has are chosen; none listed, or none it has, means
    all of its modes. The rotation's order is kept.
    """
    chosen = []
    for entry in entries:
        wanted = live_modes.get(entry.plugin_id)
        if wanted is None:
            continue
        own = [e.mode for e in entries if e.plugin_id == entry.plugin_id]
        valid = [m for m in wanted if m in own]
        if not valid or entry.mode in valid:
            chosen.append(entry)
    return chosen


class Cursor:
    """A position in a list of entries, with when the current one started and ends."""

    def __init__(self, entries: list[Entry], now: float) -> None:
        self.entries = list(entries)
        self.index = 0
        self.started = now
        self.ends = now + (self.entries[0].limit if self.entries else 0.0)
        self.empty_streak = 0
        self.fresh = bool(self.entries)  # the current entry started but was not shown yet

    def current(self) -> Entry | None:
        """Return the entry at the position, if any."""
        return self.entries[self.index] if self.entries else None

    def limit(self) -> float:
        """Return the longest the current entry lasts."""
        entry = self.current()
        return entry.limit if entry else 0.0

    def goto(self, index: int, now: float) -> None:
        """Start the entry at ``index`` (wrapping) now."""
        if not self.entries:
            return
        self.index = index % len(self.entries)
        self.started = now
        self.ends = now + self.limit()

    def keys(self) -> list[tuple[str, str]]:
        """Return the keys of the entries, in order."""
        return [e.key for e in self.entries]
