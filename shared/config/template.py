"""The core config template: the defaults every config.json is created or migrated from."""

from __future__ import annotations

import copy
import threading
from pathlib import Path
from typing import Any

from shared.errors import ConfigError
from shared.files.jsonfile import read_json_file
from shared.paths import TEMPLATE_FILE

_cache: dict[Path, tuple[int, dict[str, Any]]] = {}
_cache_lock = threading.Lock()


def load_template(path: Path | None = None) -> dict[str, Any]:
    """Return a fresh copy of the config template (read once per file change)."""
    path = Path(path or TEMPLATE_FILE)
    try:
        stamp = path.stat().st_mtime_ns
        with _cache_lock:
            cached = _cache.get(path)
            if cached is None or cached[0] != stamp:
                data = read_json_file(path, "config template")
                if not isinstance(data, dict):
                    raise ConfigError(f"config template {path} is not a JSON object")
                cached = _cache[path] = (stamp, data)
    except OSError as err:
        raise ConfigError(f"config template {path} cannot be read: {err.strerror or err}") from err
    return copy.deepcopy(cached[1])
