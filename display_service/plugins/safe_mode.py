"""Safe mode: plugins kept out of the display because they took the daemon down.

A plugin lands here when the display process ended inside one of its calls (the call
trail says so at the next start) or when its ``display()`` hung and the daemon
restarted itself to get the panel back. A plugin in safe mode is not loaded; its record
(reason, which call, since when) is published as the ``plugin_safe_mode`` bus key for
the web and ``ledpanel status``.

It leaves safe mode when the user releases it (the ``plugin_safe_mode_release``
request) or when its files change (an update: the record keeps a fingerprint of the
plugin's manifest and Python files, compared at start and at every config reload).

When the trail names no culprit, every plugin that was in a call is put in safe mode,
and the reason says it may not be the cause: loading a plugin that crashes the process
again costs a restart loop, releasing an innocent one costs a click.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from display_service.plugins.call_trail import Leftover
from shared.bus.core import PLUGIN_SAFE_MODE, PLUGIN_SAFE_MODE_RELEASE, Bus
from shared.errors import AtomicWriteError
from shared.history import PluginEvent
from shared.ids import is_plain_segment

logger = logging.getLogger(__name__)

MAX_FILES = 200  # fingerprinted per plugin folder; more is not a plugin we expect

DirectoryOf = Callable[[str], "Path | None"]


def fingerprint(directory: Path | None) -> str:
    """Return a digest of a plugin folder's manifest and top-level Python files."""
    if directory is None:
        return ""
    digest = hashlib.sha256()
    try:
        digest.update((directory / "manifest.json").read_bytes()[:1 << 20])
        names = sorted(p.name for p in directory.iterdir() if p.suffix == ".py")[:MAX_FILES]
        for name in names:
            st = (directory / name).stat()
            digest.update(f"{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    except OSError:
        return ""
    return digest.hexdigest()[:16]


class SafeMode:
    """The display's safe-mode records, kept in the bus."""

    def __init__(self, bus: Bus, directory_of: DirectoryOf,
                 on_event: PluginEvent | None = None) -> None:
        self.bus = bus
        self.directory_of = directory_of
        self.on_event = on_event  # the operation history: entered and released
        self.records: dict[str, dict[str, Any]] = _valid(bus.read(PLUGIN_SAFE_MODE))

    def blocked(self) -> dict[str, str]:
        """Return ``{plugin_id: reason}`` for the plugins in safe mode."""
        return {plugin_id: record["reason"] for plugin_id, record in self.records.items()}

    def after_death(self, leftover: Leftover | None) -> list[str]:
        """Put the plugins the previous process died in into safe mode; return their ids."""
        if leftover is None:
            return []
        if leftover.verdict is not None:
            verdict = leftover.verdict
            self.add(verdict["plugin_id"], verdict["where"], verdict["reason"])
            return [verdict["plugin_id"]]
        suspects = sorted(set(leftover.calls))
        for plugin_id, where in suspects:
            others = len(suspects) - 1
            reason = (f"the display daemon died (killed, crashed or exited) during its "
                      f"{where}() call")
            if others:
                reason += (f"; {others} other call{'s were' if others > 1 else ' was'} "
                           "running too, so it may not be the cause")
            self.add(plugin_id, where, reason)
        return sorted({p for p, _ in suspects})

    def add(self, plugin_id: str, where: str, reason: str) -> None:
        """Put one plugin in safe mode and publish the records."""
        self.records[plugin_id] = {
            "reason": reason, "where": where, "since": time.time(),
            "fingerprint": fingerprint(self.directory_of(plugin_id)),
        }
        logger.error("%s: in safe mode (not loaded): %s. Release it from the web page or "
                     "with POST /api/v3/plugins/safe-mode/release once fixed.", plugin_id, reason)
        self.publish()
        if self.on_event is not None:
            self.on_event(plugin_id, "safe_mode_entered", reason)

    def release(self, plugin_id: str, why: str) -> bool:
        """Take one plugin out of safe mode; return False when it was not in it."""
        if self.records.pop(plugin_id, None) is None:
            return False
        logger.info("%s: out of safe mode (%s)", plugin_id, why)
        self.publish()
        if self.on_event is not None:
            self.on_event(plugin_id, "safe_mode_released", why)
        return True

    def release_updated(self) -> list[str]:
        """Release the plugins whose files changed since they were put in safe mode."""
        changed = [p for p, record in self.records.items()
                   if fingerprint(self.directory_of(p)) not in ("", record["fingerprint"])]
        for plugin_id in changed:
            self.release(plugin_id, "its files changed: an update")
        return changed

    def take_releases(self) -> list[str]:
        """Act on the queued release requests; return the ids released."""
        released = []
        for request in self.bus.take_all(PLUGIN_SAFE_MODE_RELEASE):
            plugin_id = request.get("plugin_id")
            if isinstance(plugin_id, str) and self.release(plugin_id, "released by the user"):
                released.append(plugin_id)
        return released

    def publish(self) -> None:
        """Write the records to the bus (an empty object when none)."""
        try:
            self.bus.publish(PLUGIN_SAFE_MODE, {"plugins": self.records})
        except (OSError, AtomicWriteError) as err:
            logger.error("safe mode: cannot write the records: %s", err)


def _valid(data: Any) -> dict[str, dict[str, Any]]:
    """Return the well-formed records of a stored bus value; drop the rest."""
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return {}
    kept: dict[str, dict[str, Any]] = {}
    for plugin_id, record in plugins.items():
        if (is_plain_segment(plugin_id) and isinstance(record, dict)
                and isinstance(record.get("reason"), str)
                and isinstance(record.get("where"), str)
                and isinstance(record.get("since"), (int, float))
                and isinstance(record.get("fingerprint"), str)):
            kept[plugin_id] = {k: record[k] for k in ("reason", "where", "since", "fingerprint")}
    return kept
