"""How long a plugin is shown: its fixed duration and the dynamic-duration hooks.

Fixed duration: ``display_durations[<plugin id>]`` in the main config outranks everything;
otherwise ``get_display_duration()`` gives a ``display_duration`` the plugin assigned
(community plugins do, in ``__init__``), the plugin's config ``display_duration``, the
manifest's ``default_duration``, the class attribute ``default_duration``, else 15 s.
Each counts when it is a positive number or numeric text (``"12.5"``); booleans, zero,
negatives and anything else fall through to the next. ``validate_config()`` refuses a
config whose ``display_duration`` is present but not such a value
(``display_duration_problem``), so a config it accepts is never silently defaulted.

Dynamic duration: a plugin whose content has a natural end (a ticker that has scrolled
through once, a list of games shown one by one) can keep its rotation slot until it is
done. The core calls, on the render thread:

- ``supports_dynamic_duration()`` when the rotation is built (at start and after every
  config change). Default: config ``dynamic_duration.enabled`` is true.
- ``reset_cycle_state()`` each time one of the plugin's modes starts its slot.
- ``is_cycle_complete()`` after each frame the plugin drew in that slot; True ends the
  slot and the rotation moves on. Default: True when dynamic duration is off for the
  plugin (there is no cycle to wait for, as in the existing system); otherwise False
  until the plugin calls ``mark_cycle_complete()`` (so a plugin may either override
  this or call that).
- ``get_dynamic_duration_cap()`` when the rotation is built: the longest the slot may
  last whatever the cycle says. Default: config ``dynamic_duration.max_duration_seconds``
  when it is a positive number, else None, and the core then uses 300 s.

Warning: these hooks run on the render thread between frames; they must return at once
(read a flag, compare two numbers), never fetch anything.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

FALLBACK_DISPLAY_DURATION = 15.0


class DurationMixin:
    """Fixed and dynamic display duration (see the module docstring)."""

    #: Seconds to show the plugin when neither its config nor its manifest says.
    default_duration: float | None = None

    config: dict[str, Any]
    plugin_id: str
    plugin_manager: Any

    def get_display_duration(self) -> float:
        """Return seconds to show: a value the plugin assigned to ``display_duration``
        (community plugins do, in ``__init__``; numeric text counts), the config's
        ``display_duration``, the manifest default, else 15."""
        for candidate in (
            instance_seconds(getattr(self, "_assigned_duration", None)),
            instance_seconds(_class_duration(type(self))),
            instance_seconds(self.config.get("display_duration")),
            self._manifest_value("default_duration"),
            self.default_duration,
        ):
            if (seconds := positive_seconds(candidate)) is not None:
                return seconds
        return FALLBACK_DISPLAY_DURATION

    @property
    def display_duration(self) -> float:
        """The seconds to show this plugin (see get_display_duration)."""
        return self.get_display_duration()

    @display_duration.setter
    def display_duration(self, value: Any) -> None:
        # Kept as given: garbage, zero or a negative falls through to the config.
        self._assigned_duration = value

    def supports_dynamic_duration(self) -> bool:
        """Return True to keep the slot until the cycle completes (config ``dynamic_duration``)."""
        return self._dynamic_settings().get("enabled") is True

    def is_cycle_complete(self) -> bool:
        """Return True once the content has been shown through; ends the slot. Always
        True while dynamic duration is off: there is no cycle to wait for."""
        if not self.supports_dynamic_duration():
            return True
        return bool(getattr(self, "_cycle_complete", False))

    def mark_cycle_complete(self) -> None:
        """Say the content has been shown through (what the default is_cycle_complete reads)."""
        self._cycle_complete = True

    def reset_cycle_state(self) -> None:
        """Start a new cycle; called when one of the plugin's modes starts its slot."""
        self._cycle_complete = False

    def get_dynamic_duration_cap(self) -> float | None:
        """Return the most seconds a dynamic slot may last, or None for the core's default."""
        return positive_seconds(self._dynamic_settings().get("max_duration_seconds"))

    def _dynamic_settings(self) -> dict[str, Any]:
        value = self.config.get("dynamic_duration")
        if isinstance(value, bool):  # legacy boolean form: true means enabled
            return {"enabled": value}
        return value if isinstance(value, dict) else {}

    def _manifest_value(self, key: str) -> Any:
        getter = getattr(self.plugin_manager, "get_manifest", None)
        manifest = getter(self.plugin_id) if callable(getter) else None
        return manifest.get(key) if isinstance(manifest, dict) else None


def _class_duration(cls: type) -> Any:
    """Return a ``display_duration`` a plugin class sets as a plain class attribute."""
    value = inspect.getattr_static(cls, "display_duration", None)
    return None if isinstance(value, property) else value


def display_duration_problem(config: dict[str, Any]) -> str | None:
    """Return what is wrong with the config's ``display_duration``, or None when it is
    absent or a positive number of seconds (numeric text counts)."""
    if "display_duration" not in config:
        return None
    value = config["display_duration"]
    if instance_seconds(value) is not None:
        return None
    return (f"display_duration must be a positive number of seconds, not {value!r}; "
            "set it in the plugin's settings or remove it to use the default")


def instance_seconds(value: Any) -> float | None:
    """Return an assigned duration as seconds: a positive number or numeric text."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    return positive_seconds(value)


def positive_seconds(value: Any) -> float | None:
    """Return ``value`` as seconds when it is a finite number above zero, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None
