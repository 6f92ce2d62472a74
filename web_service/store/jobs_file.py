"""The store's jobs file, ``<cache_dir>/store/jobs.json``: read it back type-checked, write
it atomically.

The file is ours but sits in a shared folder, so it is read like any untrusted file: a
file that is not a regular file, too large, not JSON or not ``{"version": 1, "jobs":
[...]}`` is set aside (renamed ``jobs.json.bad``, replacing an older one) with a warning
and the store starts empty; a job with a missing or wrong-typed field is dropped alone.
Nothing here raises for what the file holds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_strict
from shared.files.regular_file import read_regular
from shared.ids import is_plain_segment

logger = logging.getLogger(__name__)

JOBS_FILE = "jobs.json"
FORMAT_VERSION = 1
READ_LIMIT = 2 * 1024 * 1024  # 100 jobs with their results stay far below this
KINDS = ("install", "update", "uninstall", "update_all")
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
STATES = (QUEUED, RUNNING, DONE, FAILED)
JOB_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
MAX_TEXT = 500
MAX_NUMBER = 2**53  # bytes and file counts: exact in a float, far beyond any plugin
MAX_TIME = 2**33  # seconds: beyond the year 2200


def is_job_id(value: object) -> bool:
    """Return True when ``value`` has the shape of a job id (url-safe, 8 to 32 chars)."""
    return isinstance(value, str) and JOB_ID.fullmatch(value) is not None


def read_jobs(path: Path) -> list[dict[str, Any]]:
    """Return the well-formed jobs of the file at ``path``, oldest first ([] when absent);
    a file that cannot be used at all is set aside."""
    try:
        raw = read_regular(path, READ_LIMIT, follow_symlinks=False)
    except FileNotFoundError:
        return []
    except OSError as err:
        _set_aside(path, f"cannot be read ({err.strerror or err})")
        return []
    try:
        data = parse_strict(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError is a ValueError
        _set_aside(path, f"is not JSON ({err})")
        return []
    if (not isinstance(data, dict) or data.get("version") != FORMAT_VERSION
            or not isinstance(data.get("jobs"), list)):
        _set_aside(path, f'is not {{"version": {FORMAT_VERSION}, "jobs": [...]}}')
        return []
    jobs, seen = [], set()
    for item in data["jobs"]:
        job = valid_job(item)
        if job is None or job["id"] in seen:
            logger.warning("store jobs: skipping a malformed job in %s", path)
            continue
        seen.add(job["id"])
        jobs.append(job)
    return jobs


def write_jobs(path: Path, jobs: list[dict[str, Any]]) -> bool:
    """Replace the file with ``jobs`` atomically; return False (logged) when it failed."""
    try:
        atomic_write_json(path, {"version": FORMAT_VERSION, "jobs": jobs}, 0o644,
                          compact=True)
    except AtomicWriteError as err:
        logger.warning("store jobs: %s; job states are kept in memory only", err.message)
        return False
    return True


def _set_aside(path: Path, why: str) -> None:
    aside = path.with_name(path.name + ".bad")
    try:
        os.replace(path, aside)
    except OSError as err:
        logger.warning("store jobs: %s %s and cannot be set aside (%s); starting with no "
                       "jobs", path, why, err.strerror or err)
        return
    logger.warning("store jobs: %s %s; set aside as %s, starting with no jobs", path, why,
                   aside.name)


def valid_job(data: Any) -> dict[str, Any] | None:
    """Return a job with every field of the right type, or None when ``data`` is no job."""
    if not isinstance(data, dict) or not is_job_id(data.get("id")):
        return None
    kind, state, plugin_id = data.get("kind"), data.get("state"), data.get("plugin_id")
    if kind not in KINDS or state not in STATES:
        return None
    if plugin_id is not None and not (is_plain_segment(plugin_id) and len(plugin_id) <= 100):
        return None
    created = data.get("created_at")
    if not _is_time(created):
        return None
    started, finished = data.get("started_at"), data.get("finished_at")
    result, error_code = data.get("result"), data.get("error_code")
    return {
        "id": data["id"], "kind": kind, "plugin_id": plugin_id, "state": state,
        "description": _text(data.get("description")) or describe(kind, plugin_id),
        "step": _text(data.get("step")),
        "progress": valid_progress(data.get("progress")),
        "message": _text(data.get("message")),
        "result": result if isinstance(result, dict) else None,
        "error_code": error_code if isinstance(error_code, str) and error_code.isupper()
        and len(error_code) <= 64 else None,
        "created_at": created,
        "started_at": started if _is_time(started) else None,
        "finished_at": finished if _is_time(finished) else None,
    }


def describe(kind: str, plugin_id: str | None, source: str | None = None) -> str:
    """Say what a job does: "install of clock-simple", "install from <url>", "update of
    every plugin" (a job written before jobs had descriptions gets this too)."""
    if kind == "update_all":
        return "update of every plugin"
    where = f" from {source}" if source else ""
    if plugin_id:
        return f"{kind} of {plugin_id}{where}"
    return f"{kind}{where or ' from a repository URL'}"


def valid_progress(data: Any) -> dict[str, Any]:
    """Return ``{"bytes", "files_done", "files_total"}`` from ``data``, each checked."""
    data = data if isinstance(data, dict) else {}
    total = data.get("files_total")
    return {"bytes": _count(data.get("bytes")), "files_done": _count(data.get("files_done")),
            "files_total": total if _is_count(total) else None}


def _text(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    return value if len(value) <= MAX_TEXT else value[: MAX_TEXT - 3] + "..."


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_NUMBER


def _count(value: Any) -> int:
    return value if _is_count(value) else 0


def _is_time(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and 0 <= value <= MAX_TIME and math.isfinite(value))


def jsonable(value: Any) -> dict[str, Any] | None:
    """Return ``value`` when it is a dict that can be written as JSON, else None."""
    if not isinstance(value, dict):
        return None
    with contextlib.suppress(TypeError, ValueError):
        json.dumps(value, allow_nan=False)
        return value
    return None
