"""Which top-level config keys belong to the core, and which sections belong to plugins.

Every top-level key of ``config.json`` outside ``RESERVED_KEYS`` (control fields named
``__*`` aside) is a plugin section keyed by plugin id, and its value must be a JSON
object: saves refuse anything else (``section_error``). A non-object under a name that
is no installed plugin is reported as an unknown key, with the close core key or plugin
id when there is one (``brigthness``: did you mean ``brightness``?).
The secrets file shares the plugin-id namespace, apart from the reserved sections in
``SECRETS_RESERVED`` (legacy core credentials).
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import Any

from shared.errors import ValidationError

# Every top-level key of config/config.template.json, plus the legacy ``target_fps``.
RESERVED_KEYS: frozenset[str] = frozenset(
    {
        "display",
        "schedule",
        "auto_update",
        "sync",
        "location",
        "dim_schedule",
        "plugin_system",
        "vegas_scroll",
        "display_durations",
        "rotation_order",
        "brightness",
        "orientation",
        "timezone",
        "target_fps",
        "web",
        "notifications",
    }
)

SECRETS_RESERVED: frozenset[str] = frozenset({"github", "youtube"})

# Keys nothing reads any more: tolerated in stored configs, never in the template, never
# shown on the General tab, never unchecked by a form save.
LEGACY_PLUGIN_SYSTEM_TOGGLES: frozenset[str] = frozenset(
    {"auto_discover", "auto_load_enabled", "development_mode"}
)
LEGACY_TOGGLE_PATHS: frozenset[str] = frozenset(
    f"plugin_system.{key}" for key in LEGACY_PLUGIN_SYSTEM_TOGGLES
)
LEGACY_KEYS: frozenset[str] = LEGACY_TOGGLE_PATHS | {"target_fps"}


def is_plugin_key(key: str) -> bool:
    """Return whether a top-level key names a plugin section rather than a core setting."""
    return key not in RESERVED_KEYS and not key.startswith("__")


def plugin_sections(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Return the plugin sections of a config that are objects, as they must be.

    A non-object value under a plugin key is invalid; saves refuse it with
    ``require_object_sections``, readers (this function) skip it.
    """
    return {
        key: value
        for key, value in config.items()
        if is_plugin_key(key) and isinstance(value, dict)
    }


def require_object_sections(config: Mapping[str, Any],
                            plugin_ids: Collection[str] | None = None) -> None:
    """Raise ValidationError for the first top-level key whose value is not allowed there."""
    for key, value in config.items():
        error = section_error(key, value, plugin_ids)
        if error is not None:
            raise error


def unknown_key_error(key: str, value: Any, plugin_ids: Collection[str] | None) -> ValidationError:
    """Return the error for a top-level key that is no core setting and no installed plugin.

    The message says which it is not and, when one is close, which key was meant.
    """
    close = suggestion(key, plugin_ids)
    hint = f"; did you mean {close!r}?" if close else ""
    if isinstance(value, dict) and plugin_ids is not None:
        message, code = f"{key}: no plugin of that name is installed{hint}", "UNKNOWN_PLUGIN"
    else:
        message, code = f"{key}: not a core setting or an installed plugin{hint}", "UNKNOWN_KEY"
    return ValidationError(message, error_code=code, details={"field": key, "suggestion": close})


def suggestion(key: str, plugin_ids: Collection[str] | None) -> str | None:
    """Return the core key or installed plugin id closest to a misspelt ``key``, if any."""
    candidates = sorted(RESERVED_KEYS | set(plugin_ids or ()))
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.75)
    return close[0] if close else None


def section_error(key: str, value: Any,
                  plugin_ids: Collection[str] | None) -> ValidationError | None:
    """Return what is wrong with one top-level key's value, None when nothing is.

    A plugin section must be an object. A non-object under a name that is no installed
    plugin (``plugin_ids``) is most likely a misspelt core setting (``brigthness``) and
    is reported as such. Without ``plugin_ids`` that is said only when a core key is
    close. An object under a name that is not installed is accepted here (a backup
    restored after an uninstall); saves that know the plugins refuse it.
    """
    if not is_plugin_key(key) or isinstance(value, dict):
        return None
    installed = plugin_ids is not None and key in plugin_ids
    if installed or (plugin_ids is None and suggestion(key, None) is None):
        message = "a plugin section must be a JSON object"
        return ValidationError(
            f"{key}: {message}", error_code="INVALID_PLUGIN_CONFIG",
            details={"field": key, "errors": {key: [{"field": "", "message": message}]}})
    return unknown_key_error(key, value, plugin_ids)
