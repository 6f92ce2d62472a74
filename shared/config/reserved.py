"""Which top-level config keys belong to the core, and which sections belong to plugins.

Every top-level key of ``config.json`` outside ``RESERVED_KEYS`` (control fields named
``__*`` aside) is a plugin section keyed by plugin id, and its value must be a JSON
object: saves refuse anything else (``require_object_sections``).
The secrets file shares the plugin-id namespace, apart from the reserved sections in
``SECRETS_RESERVED`` (legacy core credentials).
"""

from __future__ import annotations

from collections.abc import Mapping
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
        "brightness",
        "orientation",
        "timezone",
        "target_fps",
        "web",
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


def require_object_sections(config: Mapping[str, Any]) -> None:
    """Raise ValidationError naming the first plugin key whose value is not an object."""
    for key, value in config.items():
        if is_plugin_key(key) and not isinstance(value, dict):
            raise not_an_object(key)


def not_an_object(key: str) -> ValidationError:
    """Return the error for a plugin section that is not a JSON object."""
    message = "a plugin section must be a JSON object"
    return ValidationError(
        f"{key}: {message}",
        error_code="INVALID_PLUGIN_CONFIG",
        details={"field": key, "errors": {key: [{"field": "", "message": message}]}},
    )
