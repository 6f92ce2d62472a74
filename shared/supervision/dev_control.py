"""The development supervisor's control folder: how the web asks scripts/dev to act.

The web writes one request file, ``<cache dir>/dev-supervisor/requests/<id>.json``
(``{"action": ...}``, atomically); scripts/supervise.py looks at that folder every
0.2 s, removes each request, acts on it, and writes
``<cache dir>/dev-supervisor/answers/<id>.json`` (``{"ok": bool, "message": str}``),
which the web waits for. Both sides treat the other's files as untrusted: small,
regular, JSON objects, known actions only; anything else is removed and ignored.
Only the standard library and ``shared``: the supervisor imports it too.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shared.files.jsonfile import atomic_write_json
from shared.files.regular_file import read_regular

FOLDER = "dev-supervisor"
MAX_FILE = 4096  # bytes; a request or answer is a few dozen
_ID = re.compile(r"^[0-9a-f]{32}$")
# What the supervisor does; the rest of the actions answer "not on a development run".
DEV_ACTIONS = ("start_display", "stop_display", "restart_display_service",
               "restart_web_service")


def requests_dir(cache_dir: Path) -> Path:
    return Path(cache_dir) / FOLDER / "requests"


def answers_dir(cache_dir: Path) -> Path:
    return Path(cache_dir) / FOLDER / "answers"


def send(cache_dir: Path, action: str) -> str:
    """Write one request for ``action``; return its id."""
    if action not in DEV_ACTIONS:
        raise ValueError(f"not an action of the development supervisor: {action}")
    request_id = uuid.uuid4().hex
    atomic_write_json(requests_dir(cache_dir) / f"{request_id}.json", {"action": action},
                      tmp_dir=Path(cache_dir) / FOLDER)
    return request_id


def wait_answer(cache_dir: Path, request_id: str, timeout: float,
                poll: float = 0.05) -> dict[str, Any] | None:
    """Return the supervisor's answer to ``request_id``, None if none came in time."""
    path = answers_dir(cache_dir) / f"{request_id}.json"
    deadline = time.monotonic() + timeout
    while True:
        answer = _read_object(path)
        if answer is not None:
            with contextlib.suppress(OSError):
                path.unlink()
            return {"ok": answer.get("ok") is True, "message": str(answer.get("message", ""))}
        if time.monotonic() >= deadline:
            with contextlib.suppress(OSError):  # nobody will act on it later by surprise
                (requests_dir(cache_dir) / f"{request_id}.json").unlink()
            return None
        time.sleep(poll)


def take_requests(cache_dir: Path) -> Iterator[tuple[str, str]]:
    """Yield ``(id, action)`` for each waiting request, oldest first, removing each."""
    folder = requests_dir(cache_dir)
    try:
        entries = sorted(folder.glob("*.json"), key=_mtime)
    except OSError:
        return
    for path in entries:
        request = _read_object(path)
        with contextlib.suppress(OSError):
            path.unlink()
        action = request.get("action") if request else None
        if _ID.match(path.stem) and action in DEV_ACTIONS:
            yield path.stem, str(action)


def answer(cache_dir: Path, request_id: str, ok: bool, message: str) -> None:
    """Write the answer to ``request_id`` (the web removes it once read)."""
    atomic_write_json(answers_dir(cache_dir) / f"{request_id}.json",
                      {"ok": ok, "message": message}, tmp_dir=Path(cache_dir) / FOLDER)


def clear(cache_dir: Path) -> None:
    """Remove what a previous run left (requests nobody will answer, answers unread)."""
    for folder in (requests_dir(cache_dir), answers_dir(cache_dir)):
        for path in _listing(folder):
            with contextlib.suppress(OSError):
                path.unlink()


def _listing(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.suffix == ".json"]
    except OSError:
        return []


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _read_object(path: Path) -> dict | None:
    try:
        value = json.loads(read_regular(path, MAX_FILE, follow_symlinks=False))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None
