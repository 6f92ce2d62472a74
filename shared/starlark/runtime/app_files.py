"""App: a scripted app's main source and its folder; every file read is bounded and kept inside.

An app is a folder holding one main ``.star`` file (named after the folder when there
are several), or a single ``.star`` file. Helper ``.star`` files and assets are read
from the app's folder only: a path that climbs out of it, or a symlink pointing out of
it, is refused, and so is a source over ``max_source_bytes`` or an asset over
``max_asset_bytes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from shared.starlark.runtime.errors import AppError
from shared.starlark.runtime.limits import Limits


@dataclass(frozen=True)
class App:
    """One loaded app: its name, its main file's name and text, and its folder."""

    name: str
    main_file: str
    source: str
    folder: Path
    limits: Limits = Limits()


def load_app(path: str | Path, limits: Limits | None = None) -> App:
    """Read the app at ``path`` (a folder or a ``.star`` file); raise AppError if unusable."""
    limits = limits or Limits()
    target = Path(path)
    if target.is_dir():
        folder = target.resolve()
        main = _main_file(folder)
    elif target.is_file() and target.suffix == ".star":
        folder = target.resolve().parent
        main = target.name
    else:
        raise AppError(f"{target}: not a folder or .star file")
    source = read_source(folder, main, limits)
    return App(name=Path(main).stem, main_file=main, source=source, folder=folder,
               limits=limits)


def _main_file(folder: Path) -> str:
    stars = sorted(p.name for p in folder.iterdir() if p.suffix == ".star" and p.is_file())
    if not stars:
        raise AppError(f"{folder.name}: no .star file in the app folder")
    if len(stars) == 1:
        return stars[0]
    named = f"{folder.name}.star"
    if named in stars:
        return named
    mains = [name for name in stars if "def main(" in _peek(folder / name)]
    if len(mains) == 1:
        return mains[0]
    raise AppError(f"{folder.name}: several .star files and none named {named}")


def _peek(path: Path) -> str:
    with path.open("rb") as handle:
        return handle.read(1024 * 1024).decode("utf-8", "replace")


def inside(folder: Path, name: str) -> Path:
    """The file ``name`` (a relative path with /) within ``folder``; AppError if outside."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise AppError(f'"{name}" is outside the app folder')
    candidate = folder.joinpath(*relative.parts)
    resolved = candidate.resolve()
    if not resolved.is_relative_to(folder.resolve()):
        raise AppError(f'"{name}" points outside the app folder')
    if not resolved.is_file():
        raise AppError(f'app loads "{name}", which is not available')
    return resolved


def read_bytes(folder: Path, name: str, limit: int, kind: str) -> bytes:
    """At most ``limit`` bytes of ``name`` in ``folder``; AppError naming it if larger."""
    path = inside(folder, name)
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise AppError(f'{kind} "{name}" is larger than {limit // 1024} KB')
    return data


def read_source(folder: Path, name: str, limits: Limits) -> str:
    """The UTF-8 text of the source file ``name``; AppError if too large or not text."""
    data = read_bytes(folder, name, limits.max_source_bytes, "source")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise AppError(f'source "{name}" is not UTF-8 text') from err
