"""The ``starlark-apps`` config section read as the plugin uses it, garbage falling back.

Saves are checked against ``config_schema.json``, but a hand edit or an older file can
hold anything: every value here is read tolerantly, out-of-range numbers are clamped
and anything else gives the default, so a bad value never stops the plugin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from shared.starlark.installed.app_ids import valid_app_id

RENDER_INTERVAL = (30.0, 86400.0, 300.0)  # min, max, default (seconds)
RENDER_SECONDS = (0.5, 30.0, 3.0)
APP_DURATION = (5.0, 3600.0, 15.0)
SCALES = ("magnify", "2x", "none")
MAX_CONFIG_KEYS = 100
MAX_CONFIG_TEXT = 10000


@dataclass(frozen=True)
class AppSettings:
    """One app's entry under ``apps``."""

    enabled: bool = True
    duration: float = APP_DURATION[2]
    revision: int = 0
    config: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    """The whole section."""

    render_interval: float = RENDER_INTERVAL[2]
    render_seconds: float = RENDER_SECONDS[2]
    scale: str = SCALES[0]
    apps: dict[str, AppSettings] = field(default_factory=dict)

    def app(self, app_id: str) -> AppSettings:
        """An app's settings; an installed app without an entry gets the defaults."""
        return self.apps.get(app_id) or AppSettings()


def read_settings(section: Any) -> Settings:
    """The section as settings (see the module docstring)."""
    section = section if isinstance(section, dict) else {}
    apps = section.get("apps")
    entries = {app_id: read_app(entry) for app_id, entry in apps.items()
               if valid_app_id(app_id)} if isinstance(apps, dict) else {}
    scale = section.get("scale")
    return Settings(
        render_interval=clamped(section.get("render_interval"), RENDER_INTERVAL),
        render_seconds=clamped(section.get("render_seconds"), RENDER_SECONDS),
        scale=scale if scale in SCALES else SCALES[0],
        apps=entries)


def read_app(entry: Any) -> AppSettings:
    """One app's entry; garbage gives the defaults."""
    entry = entry if isinstance(entry, dict) else {}
    revision = entry.get("revision")
    config = entry.get("config")
    texts = {str(k): v[:MAX_CONFIG_TEXT] for k, v in list(config.items())[:MAX_CONFIG_KEYS]
             if isinstance(v, str)} if isinstance(config, dict) else {}
    return AppSettings(
        enabled=entry.get("enabled") is not False,
        duration=clamped(entry.get("duration"), APP_DURATION),
        revision=revision if isinstance(revision, int) and not isinstance(revision, bool)
        else 0,
        config=texts)


def clamped(value: Any, bounds: tuple[float, float, float]) -> float:
    """``value`` held within ``bounds`` (min, max, default); not a number: the default."""
    low, high, default = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return default
    return float(min(high, max(low, value)))
