"""The ``starlark-apps`` config section: its settings, each app's entry, and saving them.

The section (the shared design; the display's plugin reads it)::

    {"enabled": true, "render_interval": 300, "render_seconds": 3, "scale": "magnify",
     "repository": "<url>" (optional),
     "apps": {"<app_id>": {"enabled": true, "duration": 15, "revision": <int>,
                           "config": {"<field id>": "<text>"}}}}

Every change goes through ``WebServices.save_config`` with ``section_plan``: the new
config is the stored one with this section changed, checked by the raw save's rules
(``shared.config.raw_save``: what changed must keep every rule, the plugin's schema
among them when it is installed), so an entry can be removed as well as merged.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Collection
from typing import Any

from shared.config.raw_save import plan_raw_save, split_raw_secrets
from shared.config.save_rules import changed_sections
from shared.errors import ValidationError
from shared.starlark.installed.folder import PLUGIN_ID

JsonObject = dict[str, Any]
SchemaFor = Callable[[str], "JsonObject | None"]

DEFAULT_INTERVAL, MIN_INTERVAL, MAX_INTERVAL = 300, 30, 86400
DEFAULT_RENDER_SECONDS, MIN_RENDER_SECONDS, MAX_RENDER_SECONDS = 3.0, 0.5, 30.0
SCALES = ("magnify", "2x", "none")
DEFAULT_DURATION, MIN_DURATION, MAX_DURATION = 15, 5, 3600
MAX_CONFIG_FIELDS = 100
MAX_CONFIG_KEY = 100
MAX_CONFIG_VALUE = 10_000


def section_of(main: JsonObject) -> JsonObject:
    """The stored section (an empty one when it is absent or not an object)."""
    section = main.get(PLUGIN_ID)
    return section if isinstance(section, dict) else {}


def settings_of(section: JsonObject) -> JsonObject:
    """The render settings in force: a stored value out of range counts as the default."""
    interval = section.get("render_interval")
    seconds = section.get("render_seconds")
    scale = section.get("scale")
    return {
        "render_interval": interval if _number_in(interval, MIN_INTERVAL, MAX_INTERVAL)
        else DEFAULT_INTERVAL,
        "render_seconds": seconds if _number_in(seconds, MIN_RENDER_SECONDS,
                                                MAX_RENDER_SECONDS)
        else DEFAULT_RENDER_SECONDS,
        "scale": scale if scale in SCALES else "magnify",
    }


def entry_of(section: JsonObject, app_id: str) -> JsonObject:
    """One app's entry with the defaults filled in (stored garbage counts as absent)."""
    apps = section.get("apps")
    stored = apps.get(app_id) if isinstance(apps, dict) else None
    stored = stored if isinstance(stored, dict) else {}
    config = stored.get("config")
    revision = stored.get("revision")
    return {
        "enabled": stored.get("enabled") is not False,
        "duration": int(stored["duration"]) if _number_in(stored.get("duration"), MIN_DURATION,
                                                          MAX_DURATION) else DEFAULT_DURATION,
        "revision": revision if isinstance(revision, int) and not isinstance(
            revision, bool) else 0,
        "config": {k: v for k, v in config.items() if isinstance(k, str)
                   and isinstance(v, str)} if isinstance(config, dict) else {},
    }


def new_revision(previous: int) -> int:
    """A revision number after ``previous``: the time in milliseconds, or one more."""
    return max(int(time.time() * 1000), previous + 1)


def checked_patch(body: JsonObject) -> JsonObject:
    """The entry fields a PATCH body sets (``enabled``, ``duration``, ``config``), checked.

    ``config`` values are texts; a boolean is sent as ``"true"``/``"false"`` and a
    number as its text, as pixlet passes them to ``main(config)``. A key set to null is
    removed (the app then uses its default).
    """
    unknown = sorted(set(body) - {"enabled", "duration", "config"})
    if unknown:
        raise _invalid(unknown[0], "is not an app setting (enabled, duration, config)")
    patch: JsonObject = {}
    if "enabled" in body:
        if not isinstance(body["enabled"], bool):
            raise _invalid("enabled", "must be true or false")
        patch["enabled"] = body["enabled"]
    if "duration" in body:
        duration = body["duration"]
        if isinstance(duration, bool) or not _number_in(duration, MIN_DURATION, MAX_DURATION) \
                or not float(duration).is_integer():
            raise _invalid("duration", f"must be a whole number of seconds from "
                                       f"{MIN_DURATION} to {MAX_DURATION}")
        patch["duration"] = int(duration)
    if "config" in body:
        patch["config"] = _checked_config(body["config"])
    return patch


def _checked_config(value: Any) -> dict[str, str | None]:
    if not isinstance(value, dict):
        raise _invalid("config", "must be an object of the app's settings (texts)")
    if len(value) > MAX_CONFIG_FIELDS:
        raise _invalid("config", f"has more than {MAX_CONFIG_FIELDS} settings")
    checked: dict[str, str | None] = {}
    for key, item in value.items():
        if not key or len(key) > MAX_CONFIG_KEY:
            raise _invalid("config", f"setting names are 1 to {MAX_CONFIG_KEY} characters")
        if isinstance(item, bool):
            item = "true" if item else "false"
        elif isinstance(item, int | float) and math.isfinite(item):
            item = str(item)
        if item is not None and not isinstance(item, str):
            raise _invalid(f"config.{key}", "must be text")
        if item is not None and len(item) > MAX_CONFIG_VALUE:
            raise _invalid(f"config.{key}", f"is longer than {MAX_CONFIG_VALUE} characters")
        checked[key] = item
    return checked


def patched_entry(entry: JsonObject, patch: JsonObject) -> JsonObject:
    """``entry`` with ``patch`` applied (config keys merged; None removes one)."""
    new = copy.deepcopy(entry)
    for key in ("enabled", "duration"):
        if key in patch:
            new[key] = patch[key]
    if "config" in patch:
        config = dict(new.get("config") or {})
        for key, item in patch["config"].items():
            if item is None:
                config.pop(key, None)
            else:
                config[key] = item
        new["config"] = config
    return new


EntryChange = Callable[[JsonObject], "JsonObject | None"]


def with_entry(app_id: str, change: EntryChange,
               made: list[JsonObject] | None = None) -> Callable[[JsonObject], JsonObject]:
    """A section change giving one app's entry ``change(entry as stored, defaults filled)``
    (None removes it); the new entry is appended to ``made``. It runs inside the save's
    lock, so it works on the entry as it is stored then, not as it was read before."""

    def apply(section: JsonObject) -> JsonObject:
        new = copy.deepcopy(section)
        stored = new.get("apps")
        apps: JsonObject = stored if isinstance(stored, dict) else {}
        entry = change(entry_of(section, app_id))
        if entry is None:
            apps.pop(app_id, None)
        else:
            apps[app_id] = entry
            if made is not None:
                made.append(entry)
        new["apps"] = apps
        return new

    return apply


def section_plan(change: Callable[[JsonObject], JsonObject], schema_for: SchemaFor,
                 plugin_ids: Collection[str]
                 ) -> Callable[[JsonObject, JsonObject], tuple[JsonObject, JsonObject,
                                                                list[str]]]:
    """A save plan replacing the section by ``change(section)``, checked as a raw save."""

    def plan(main: JsonObject, secrets: JsonObject) -> tuple[JsonObject, JsonObject,
                                                             list[str]]:
        replacement = dict(main)
        replacement[PLUGIN_ID] = change(section_of(main))
        new_main, _ = plan_raw_save(main, replacement, schema_for=schema_for,
                                    plugin_ids=plugin_ids, stored_secrets=secrets)
        new_main, new_secrets = split_raw_secrets(new_main, secrets, schema_for, plugin_ids)
        return new_main, new_secrets, changed_sections(main, new_main, secrets, new_secrets)

    return plan


def _number_in(value: Any, low: float, high: float) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and low <= value <= high)


def _invalid(field: str, problem: str) -> ValidationError:
    return ValidationError(f"{field} {problem}", error_code="INVALID_FIELD",
                           details={"field": field})
