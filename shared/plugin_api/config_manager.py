"""The config manager plugins receive, under the name the existing plugin API uses.

Community plugins type-hint ``src.config_manager.ConfigManager``; the object they get
as ``plugin_manager.config_manager`` is a ``ConfigView`` (``load_config()``,
``get_timezone()``).
"""

from __future__ import annotations

import copy
from typing import Any, Protocol


class _Owner(Protocol):
    """What the view reads: the manager's current config."""

    config: dict[str, Any]


class ConfigView:
    """The small config-manager surface plugins use, over the manager's current config."""

    def __init__(self, manager: _Owner) -> None:
        self._manager = manager

    def load_config(self) -> dict[str, Any]:
        """Return a copy of the current (secrets-merged) config."""
        return copy.deepcopy(self._manager.config)

    def get_timezone(self) -> str:
        """Return the configured time zone name, else ``UTC``."""
        config = self._manager.config
        location = config.get("location")
        candidates = [config.get("timezone")]
        if isinstance(location, dict):
            candidates.append(location.get("timezone"))
        return next((v for v in candidates if isinstance(v, str) and v), "UTC")


ConfigManager = ConfigView

__all__ = ["ConfigManager"]
