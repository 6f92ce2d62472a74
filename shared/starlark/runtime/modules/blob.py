"""Blob: binary data (images) crossing Starlark, which only holds UTF-8 strings.

``file.readall()``, ``base64.decode`` and ``http`` bodies give a plain string when the
bytes are UTF-8 text, else an opaque Blob the app passes on (to ``render.Image``) but
cannot slice. ``as_bytes`` turns either back into bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import starlark


@dataclass(frozen=True)
class Blob:
    """Bytes an app holds without looking inside."""

    data: bytes


def to_starlark(data: bytes) -> Any:
    """``data`` as a Starlark string when it is UTF-8 text, else an opaque Blob."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return starlark.OpaquePythonObject(Blob(data))


def as_bytes(value: object) -> bytes | None:
    """The bytes behind a string or Blob; None for anything else."""
    if isinstance(value, Blob):
        return value.data
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes):
        return value
    return None
