"""Reading an app's ``manifest.yaml`` (the apps repository's format) without a YAML library.

The repository's manifests are flat: ``key: value`` lines, a value quoted or not, and
lists as indented ``- item`` lines under a key with no value, or written ``[a, b]`` on
one line. That subset is read here; anything else (nested maps, anchors) is skipped,
never guessed.
A manifest is untrusted: at most ``MAX_BYTES``, ``MAX_KEYS`` keys, ``MAX_ITEMS`` list
items, each text at most ``MAX_TEXT`` characters.
"""

from __future__ import annotations

import re
from typing import Any

MAX_BYTES = 64 * 1024
MAX_KEYS = 64
MAX_ITEMS = 64
MAX_TEXT = 2000

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s+(.*))?$")
_ITEM = re.compile(r"\s+-\s+(.*)$|-\s+(.*)$")


def parse_manifest(data: bytes | str) -> dict[str, Any]:
    """Return the manifest's top-level keys: texts, whole numbers, booleans, lists of texts."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    found: dict[str, Any] = {}
    current: list[str] | None = None
    for raw in text[:MAX_BYTES].splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#") or line.strip() == "---":
            continue
        item = _ITEM.match(line)
        if item and current is not None:
            if len(current) < MAX_ITEMS:
                current.append(_text(_scalar(item.group(1) or item.group(2) or "")))
            continue
        current = None
        key = _KEY.match(line)
        if key is None or line[0].isspace() or len(found) >= MAX_KEYS:
            continue
        name, value = key.group(1), (key.group(2) or "").strip()
        if value == "":
            current = found.setdefault(name, []) if name not in found else None
            continue
        found[name] = _flow_list(value) if value.startswith("[") else _scalar(value)
    return found


def _flow_list(value: str) -> list[str] | str:
    """``[a, 'b']`` as a list of texts; anything nested stays text."""
    value = _without_comment(value)
    if not value.endswith("]") or any(c in value[1:-1] for c in "[]{}"):
        return _scalar(value)
    items = [_text(_scalar(item)) for item in value[1:-1].split(",") if item.strip()]
    return items[:MAX_ITEMS]


def _scalar(value: str) -> Any:
    value = _without_comment(value.strip())
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        inner = inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
        return inner[:MAX_TEXT]
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if re.fullmatch(r"-?\d{1,9}", value):
        return int(value)
    return value[:MAX_TEXT]


def _without_comment(value: str) -> str:
    if value[:1] in "'\"":
        return value
    return re.sub(r"\s+#.*$", "", value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value).lower() if isinstance(
        value, bool) else str(value)
