"""What the plugin knows of each shown app: what to render, its last frames, its failures.

``AppPlan`` is an installed, enabled app as the folder and the config describe it;
``AppState`` is its last render. A plan whose ``key`` differs from the state's (a new
revision, a reinstall, other settings, another panel size or scale) is rendered at once.

Failures: each one counts (``errors``: failures in a row) and keeps its one-line error.
The next try comes after ``render_interval``; from the ``BACKOFF_AFTER``-th failure in
a row on, the wait doubles each time, up to ``MAX_BACKOFF`` (or the interval itself
when that is longer). A success, or a changed plan, starts the count over.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

BACKOFF_AFTER = 3
MAX_BACKOFF = 3600.0


@dataclass(frozen=True)
class AppPlan:
    """One app to render and show."""

    app_id: str
    main_path: Path
    config: dict[str, str]
    revision: int
    duration: float
    size: tuple[int, int]  # render size
    scale: str  # the setting: magnify, 2x or none
    installed_at: float = 0.0

    def key(self, panel: tuple[int, int], seconds: float) -> tuple[Any, ...]:
        """What a render depends on: a change renders the app again at once."""
        return (self.revision, self.installed_at, tuple(sorted(self.config.items())),
                self.size, self.scale, panel, seconds)


@dataclass(frozen=True)
class Shown:
    """An app's frames as the panel shows them, each kept zlib-packed: an animation of a
    thousand panel-size frames would otherwise hold tens of MB. Identical frames share
    one packed copy."""

    packed: tuple[bytes, ...]
    size: tuple[int, int]
    delay_ms: int
    full_animation: bool = False  # Root's show_full_animation

    @property
    def length(self) -> float:
        """Seconds the animation takes to play through once."""
        return len(self.packed) * max(1, self.delay_ms) / 1000

    @classmethod
    def of(cls, images: Sequence[Image.Image], delay_ms: int,
           full_animation: bool = False) -> Shown:
        done: dict[bytes, bytes] = {}
        packed = []
        for image in images:
            raw = image.convert("RGB").tobytes()
            if raw not in done:
                done[raw] = zlib.compress(raw, 1)
            packed.append(done[raw])
        return cls(tuple(packed), images[0].size, delay_ms, full_animation)

    def __len__(self) -> int:
        return len(self.packed)

    def image(self, index: int) -> Image.Image:
        """Frame ``index``, unpacked."""
        return Image.frombytes("RGB", self.size, zlib.decompress(self.packed[index]))


@dataclass
class AppState:
    """An app's last render (module docstring)."""

    key: tuple[Any, ...]
    shown: Shown | None = None
    frames: int = 0
    delay_ms: int = 0
    rendered_at: float | None = None
    render_ms: int | None = None
    size: tuple[int, int] = (64, 32)
    scale: str = ""
    error: str | None = None
    errors: int = 0
    next_render_at: float = 0.0
    backoff_s: float | None = None
    skipped: bool = False  # the last render's main returned []: nothing to show now

    def record(self) -> dict[str, Any]:
        """The app's entry in the ``starlark_apps`` bus record."""
        return {"rendered_at": self.rendered_at, "render_ms": self.render_ms,
                "frames": self.frames, "delay_ms": self.delay_ms,
                "width": self.size[0], "height": self.size[1], "scale": self.scale,
                "error": self.error, "errors": self.errors,
                "next_render_at": round(self.next_render_at, 3),
                "held": self.backoff_s is not None,
                "backoff_s": self.backoff_s, "skipped": self.skipped}


def retry_after(errors: int, interval: float) -> tuple[float, float | None]:
    """Seconds until the next try after ``errors`` failures in a row, and the backoff
    (None while there is none)."""
    if errors < BACKOFF_AFTER:
        return interval, None
    wait = min(interval * 2 ** (errors - BACKOFF_AFTER + 1), max(MAX_BACKOFF, interval))
    return wait, wait
