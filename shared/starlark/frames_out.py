"""write_frames: an app's frames as an animated WebP or GIF, or one PNG per frame.

``OUT`` ending in ``.webp`` or ``.gif`` is one animation (each frame shown for the
app's delay, looping); an existing folder, or a path ending with ``/``, gets
``frame-0000.png``, ``frame-0001.png``, ... and loses the numbered frames a longer
earlier render left there, so the folder holds exactly this render. Files are written
to a temporary name and renamed, so a failed write leaves the old file whole.
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

FRAME_NAME = "frame-{:04d}.png"
_FRAME_FILE = re.compile(r"^frame-\d{4,}\.png$")
ANIMATIONS = {".webp": "WEBP", ".gif": "GIF"}


class OutputError(Exception):
    """OUT is not a place frames can be written; the message says why in one line."""


def write_frames(images: Sequence[Image.Image], delay_ms: int, out: str) -> list[Path]:
    """Write ``images`` to ``out`` (see the module docstring); return the files written."""
    if not images:
        raise OutputError("the app drew no frames")
    path = Path(out)
    if out.endswith(("/", os.sep)) or path.is_dir():
        return _write_folder(images, path)
    kind = ANIMATIONS.get(path.suffix.lower())
    if kind is None:
        raise OutputError(f"{out}: the output must end in .webp or .gif, or be a folder")
    if not path.parent.is_dir():
        raise OutputError(f"{path.parent}: no such folder")
    _atomic_save(path, lambda target: _save_animation(images, delay_ms, target, kind))
    return [path]


def _write_folder(images: Sequence[Image.Image], folder: Path) -> list[Path]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"{folder}: cannot make the folder ({err.strerror})") from err
    written = []
    for index, image in enumerate(images):
        target = folder / FRAME_NAME.format(index)
        _atomic_save(target, functools.partial(_save_png, image))
        written.append(target)
    keep = {p.name for p in written}
    for stale in folder.iterdir():
        if _FRAME_FILE.match(stale.name) and stale.name not in keep and stale.is_file():
            stale.unlink()
    return written


def _save_png(image: Image.Image, target: str) -> None:
    image.save(target, format="PNG")


def _save_animation(images: Sequence[Image.Image], delay_ms: int, target: str,
                    kind: str) -> None:
    first, *rest = [image.convert("RGB") for image in images]
    options: dict[str, object] = {"save_all": True, "append_images": rest,
                                  "duration": max(1, delay_ms), "loop": 0}
    if kind == "WEBP":
        options["lossless"] = True
    first.save(target, format=kind, **options)


def _atomic_save(path: Path, save: Callable[[str], object]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        save(tmp)
        os.replace(tmp, path)
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from err
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
