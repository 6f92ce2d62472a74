"""Which board we run on, from the device tree; the only I/O of ``shared.hardware``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")

# A callable returning the board model text, or None when it cannot be told.
BoardReader = Callable[[], "str | None"]


def read_board_model(path: Path | None = None) -> str | None:
    """Return the device tree's model string ("Raspberry Pi 4 Model B Rev 1.4"), or None."""
    try:
        raw = (path or DEVICE_TREE_MODEL).read_bytes()
    except OSError:
        return None
    text = raw.replace(b"\x00", b"").decode("utf-8", "replace").strip()
    return text or None


def is_raspberry_pi(model: str | None) -> bool:
    """Return whether the model string names a Raspberry Pi."""
    return bool(model) and "Raspberry Pi" in str(model)


def is_fifth_generation(model: str | None) -> bool:
    """Return whether the board is a fifth-generation one (RP1 I/O, PIO mode).

    The Pi 5 ("Raspberry Pi 5 Model B"), the Pi 500 and the Compute Module 5 share it.
    """
    text = str(model or "")
    return "Raspberry Pi 5" in text or "Compute Module 5" in text
