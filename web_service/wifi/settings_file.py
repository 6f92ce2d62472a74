"""``wifi_config.json``: ``auto_enable_ap_mode`` (the monitor opens the setup access point
when no known network is reachable). ``ap_password`` may be in the file and is kept, but
never read: the setup access point is an open network."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from shared.errors import ConfigError, ValidationError
from shared.files.jsonfile import atomic_write_json, read_json_file

logger = logging.getLogger(__name__)

AUTO_KEY = "auto_enable_ap_mode"
DEFAULT_AUTO = True  # a fresh panel with no known network opens the setup access point


def read(path: Path) -> dict[str, Any]:
    """The file's object; a missing file is empty, a broken one raises ConfigError."""
    if not path.exists():
        return {}
    data = read_json_file(path, "Wi-Fi settings file")
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name} must hold a JSON object; fix or delete it ({path})",
                          error_code="CONFIG_INVALID_JSON", status=409)
    return data


def auto_enable(path: Path) -> bool:
    """``auto_enable_ap_mode`` as stored (the default when absent or not a boolean)."""
    value = read(path).get(AUTO_KEY)
    return value if isinstance(value, bool) else DEFAULT_AUTO


def set_auto_enable(path: Path, value: Any) -> bool:
    """Store ``auto_enable_ap_mode``, keeping every other key; return the value."""
    if not isinstance(value, bool):
        raise ValidationError(f"{AUTO_KEY} must be true or false", error_code="INVALID_FIELD",
                              details={"field": AUTO_KEY})
    data = read(path)
    data[AUTO_KEY] = value
    atomic_write_json(path, data, 0o640)  # ap_password may be in it
    return value
