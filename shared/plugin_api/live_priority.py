"""Live priority: a plugin with something happening now takes over the rotation.

A plugin whose config has ``live_priority: true`` and whose ``has_live_priority()``
returns True is asked ``has_live_content()`` by the core: right after each of its
``update()`` calls returns, and every few seconds in between (``LIVE_POLL_INTERVAL`` in
``display_service/plugins/live.py``). While it answers True, the rotation is paused and the
plugin's ``get_live_modes()`` are shown in turn (each for its usual duration); when it
answers False again, the rotation resumes with the entry it left, for the time that
entry had left. An on-demand request still outranks live content.

Warning: ``has_live_content()`` runs on the render thread and must return at once:
decide in ``update()``, and only read the result here.
"""

from __future__ import annotations

from typing import Any


class LivePriorityMixin:
    """The live-priority hooks (see the module docstring)."""

    config: dict[str, Any]

    def has_live_priority(self) -> bool:
        """Return True when live content may interrupt the rotation (config ``live_priority``)."""
        return self.config.get("live_priority") is True

    def has_live_content(self) -> bool:
        """Return True while there is live content to show now (a game in progress)."""
        return False

    def get_live_modes(self) -> list[str]:
        """Return the modes to show while live; empty means all of the plugin's modes."""
        return []
