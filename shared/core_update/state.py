"""The core update's state file and its request file, under ``<cache_dir>/core_update/``.

``state.json`` is written (atomically, readable by the web's group) by the updater at
every step and read by the web and the ``ledpanel`` command; ``request.json`` is written
by whoever starts an update (who asked, whether local changes may be stashed) and read
once by the updater. Both are read as untrusted: a torn or hand-edited file reads as
absent, unknown fields are dropped.

``result`` is None while the update runs, ``verifying`` while the health check runs,
then one verdict of ``VERDICTS``.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from shared.core_update.limits import LOST_TIMEOUT
from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_bounded
from shared.files.regular_file import read_regular

FOLDER = "core_update"
STATE_FILE, REQUEST_FILE, LOCK_FILE = "state.json", "request.json", "lock"
MAX_BYTES = 64 * 1024
VERIFYING, BLOCKED, ROLLBACK_FAILED = "verifying", "blocked", "rollback_failed"
UPDATED, UP_TO_DATE, ROLLED_BACK, FAILED = "updated", "up_to_date", "rolled_back", "failed"
VERDICTS = (UPDATED, UP_TO_DATE, ROLLED_BACK, ROLLBACK_FAILED, BLOCKED, FAILED)
TRIGGERS = ("button", "auto", "cli", "manual")
PHASES = ("starting", "preflight", "pulling", "installing", "restarting", "verifying",
          "rolling_back", "done")
_TEXT_FIELDS = ("id", "message", "from", "to", "stashed", "restart", "phase", "trigger")
_TIME_FIELDS = ("started_at", "updated_at", "finished_at")
LOST_ADVICE = ("no verdict came from the update: it was stopped or the device restarted "
               "during it. Open Overview > Logs (or run `journalctl -u ledpanel-update`) to "
               "see how far it got, then check the version and run Update Code again")


def folder(cache_dir: Path) -> Path:
    """Return the folder of the core update's files in the bus folder ``cache_dir``."""
    return cache_dir / FOLDER


def usable_folder(cache_dir: Path) -> bool:
    """False when the folder's place holds a link or a file: root writes and removes files
    in it, and a link planted by another user must not lead it elsewhere."""
    place = folder(cache_dir)
    return not place.is_symlink() and (place.is_dir() or not place.exists())


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = parse_bounded(read_regular(path, MAX_BYTES, follow_symlinks=False)
                             .decode("utf-8"))
    except (OSError, ValueError):  # absent, a FIFO, too big, torn, not UTF-8
        return None
    return data if isinstance(data, dict) else None


def _time(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def read_state(cache_dir: Path) -> dict[str, Any] | None:
    """Return the last update's state with only well-typed known fields, or None."""
    data = _read(folder(cache_dir) / STATE_FILE)
    if data is None:
        return None
    state: dict[str, Any] = {name: str(data[name])[:2000] for name in _TEXT_FIELDS
                             if isinstance(data.get(name), str)}
    state.update({name: _time(data.get(name)) for name in _TIME_FIELDS})
    result = data.get("result")
    state["result"] = result if result in (VERIFYING, *VERDICTS) else None
    state["stash"] = data.get("stash") is True
    state["plugins_after"] = data.get("plugins_after") is True
    state["plugins_handled"] = data.get("plugins_handled") is True
    state["dependencies_changed"] = data.get("dependencies_changed") is True
    return state


def write_state(cache_dir: Path, state: dict[str, Any]) -> None:
    """Replace the state file (group-readable: the web reads what root wrote)."""
    state["updated_at"] = time.time()
    atomic_write_json(folder(cache_dir) / STATE_FILE, state, 0o664)


def read_request(cache_dir: Path) -> dict[str, Any]:
    """Return the pending request (trigger, stash, plugins_after, id) and remove it."""
    path = folder(cache_dir) / REQUEST_FILE
    data: dict[str, Any] = {}
    if usable_folder(cache_dir):
        data = _read(path) or {}
        try:
            path.unlink()
        except OSError:
            pass
    trigger = data.get("trigger")
    request_id = data.get("id")
    return {"trigger": trigger if trigger in TRIGGERS else "manual",
            "stash": data.get("stash") is True,
            "plugins_after": data.get("plugins_after") is True,
            "id": request_id[:64] if isinstance(request_id, str) else None}


def write_request(cache_dir: Path, request: dict[str, Any]) -> None:
    """Write the request the next updater run reads; raise AtomicWriteError."""
    atomic_write_json(folder(cache_dir) / REQUEST_FILE, request, 0o664)


def is_final(state: dict[str, Any] | None) -> bool:
    """True when ``state`` carries a verdict (or there is no update at all)."""
    return state is None or state.get("result") in VERDICTS


def is_lost(state: dict[str, Any] | None, now: float | None = None) -> bool:
    """True when an update started more than ``LOST_TIMEOUT`` ago and has no verdict."""
    if is_final(state):
        return False
    assert state is not None
    started = state.get("started_at") or state.get("updated_at")
    now = time.time() if now is None else now
    return started is None or now - started > LOST_TIMEOUT


def report(state: dict[str, Any] | None, now: float | None = None) -> dict[str, Any]:
    """Return the state as the API and the ``ledpanel`` command show it."""
    if state is None:
        return {"running": False, "lost": False, "result": None, "phase": None,
                "message": "no core update has run yet"}
    lost = is_lost(state, now)
    shown = dict(state)
    shown["running"] = not is_final(state) and not lost
    shown["lost"] = lost
    if lost:
        shown["message"] = LOST_ADVICE
    return shown


__all__ = ["AtomicWriteError", "report", "read_state", "write_state", "read_request",
           "write_request", "is_final", "is_lost", "folder"]
