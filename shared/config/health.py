"""Whether the stored config can be used, in the shape the status reports it.

``config_report`` is the ``config`` block of ``GET /api/v3/system/status`` and of
``ledpanel status``: the web's own reading of the files (a file that does not parse is
named with line and column) plus what the running display reported about the config it
runs on (a hand edit it refused, a backup it fell back to).
"""

from __future__ import annotations

from typing import Any

from shared.config.store import ConfigStore
from shared.errors import ConfigError


def file_problem(store: ConfigStore) -> dict[str, Any] | None:
    """Return why config.json or the secrets file cannot be read, None when both can."""
    try:
        store.main_snapshot()
        store.check_secrets()
    except ConfigError as err:
        details = err.details if isinstance(err.details, dict) else {}
        return {"source": "file", "error_code": err.error_code, "message": err.message,
                **{k: details[k] for k in ("file", "line", "column") if k in details}}
    return None


def config_report(store: ConfigStore, display: dict[str, Any]) -> dict[str, Any]:
    """Return ``ok``, the config file's path and every problem known now."""
    problems: list[dict[str, Any]] = []
    found = file_problem(store)
    if found is not None:
        problems.append(found)
    running = display.get("config_problem")
    if found is not None and isinstance(running, str) and running.startswith(found["message"]):
        found["message"] = running  # the display says the same, and what it runs on instead
    elif isinstance(running, str) and running:
        problems.append({"source": "display", "error_code": "CONFIG_NOT_APPLIED",
                         "message": running})
    return {"ok": not problems, "file": str(store.paths.config_file), "problems": problems}
