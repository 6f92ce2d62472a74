"""The custom apps the display holds, kept on disk so they survive a restart.

One JSON file, ``<assets>/plugins/custom-apps/apps.json``: ``{"apps": {name: {"app":
<checked app>, "source", "set_at", "expires_at", "request_id"}}}``, written atomically
(``shared.files.jsonfile``). Anyone could have written it, so it is read bounded and
every app is checked again with ``parse_custom_app``: a file that is not such an object
reads as no apps, an app that does not pass is left out, each with a log line.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_bounded
from shared.files.regular_file import read_regular
from shared.notify.custom_fields import parse_custom_app
from shared.notify.custom_requests import PLUGIN_ID, SOURCES
from shared.paths import Paths

logger = logging.getLogger(__name__)

STORE_FILE = "apps.json"
MAX_STORE_BYTES = 8 * 1024 * 1024
MAX_APPS = 20


@dataclass(frozen=True)
class HeldApp:
    """One custom app: its checked fields and where and when it came from."""

    name: str
    app: dict[str, Any]
    source: str
    set_at: float
    expires_at: float | None
    request_id: str = ""

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def as_stored(self) -> dict[str, Any]:
        return {"app": self.app, "source": self.source, "set_at": self.set_at,
                "expires_at": self.expires_at, "request_id": self.request_id}


def store_path(paths: Paths) -> Path:
    """Where the custom apps are kept."""
    return paths.assets_dir / "plugins" / PLUGIN_ID / STORE_FILE


class AppStore:
    """Read and write the custom apps file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, HeldApp]:
        """The apps on disk; none when the file is absent or garbage (logged)."""
        try:
            data = parse_bounded(read_regular(self.path, MAX_STORE_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as err:
            logger.warning("custom apps: %s cannot be read (%s); starting with none",
                           self.path, err)
            return {}
        apps = data.get("apps") if isinstance(data, dict) else None
        if not isinstance(apps, dict):
            logger.warning("custom apps: %s holds no apps object; starting with none",
                           self.path)
            return {}
        held = {}
        for name, stored in list(apps.items())[:MAX_APPS]:
            app, problem = held_app(name, stored)
            if app is None:
                logger.warning("custom apps: %s: app %r left out: %s", self.path,
                               str(name)[:40], problem)
                continue
            held[app.name] = app
        return held

    def save(self, apps: dict[str, HeldApp]) -> bool:
        """Write ``apps``; False (logged) when the file cannot be written."""
        try:
            atomic_write_json(self.path, {"apps": {n: a.as_stored() for n, a in apps.items()}},
                              compact=True)
        except AtomicWriteError as err:
            logger.error("custom apps: %s", err)
            return False
        return True


def held_app(name: Any, stored: Any) -> tuple[HeldApp | None, str | None]:
    """One stored app checked again, or why it cannot be used."""
    if not isinstance(stored, dict):
        return None, "not an object"
    app, problem = parse_custom_app(name, stored.get("app"))
    if app is None:
        return None, problem
    set_at, expires_at = _time(stored.get("set_at")), _time(stored.get("expires_at"))
    if set_at is None or (expires_at is None and stored.get("expires_at") is not None):
        return None, "set_at or expires_at is not a time"
    source = stored.get("source")
    request_id = stored.get("request_id")
    return HeldApp(str(name), app, source if source in SOURCES else "http", set_at,
                   expires_at, request_id[:64] if isinstance(request_id, str) else ""), None


def _time(value: Any) -> float | None:
    if (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and 0 <= value < 1e11):
        return float(value)
    return None

