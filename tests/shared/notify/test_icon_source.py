"""Checked icons as pictures: built-in, stored in the assets folder (real files), pixels."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from shared.notify.icon_source import icon_image, icons_dir, stored_names


def store(assets: Path, name: str, size: tuple[int, int] = (4, 4), fmt: str = "PNG") -> Path:
    folder = icons_dir(assets)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.{fmt.lower()}"
    Image.new("RGBA", size, (10, 20, 30, 255)).save(path, fmt)
    return path


def test_builtin_and_pixels() -> None:
    bell = icon_image({"kind": "builtin", "name": "bell"}, None)
    assert bell is not None and bell.size == (8, 8)
    dot = icon_image({"kind": "pixels", "width": 2, "height": 1, "pixels": [[1, 2, 3], None]},
                     None)
    assert dot is not None and dot.getpixel((0, 0)) == (1, 2, 3, 255)
    assert dot.getpixel((1, 0))[3] == 0


def test_stored_icons_are_read_and_listed(tmp_path: Path) -> None:
    store(tmp_path, "doorbell")
    store(tmp_path, "garage", fmt="GIF")
    (icons_dir(tmp_path) / "notes.txt").write_text("not an icon")
    (icons_dir(tmp_path) / "bad name!.png").write_bytes(b"")
    assert stored_names(tmp_path) == ["doorbell", "garage"]
    picture = icon_image({"kind": "asset", "name": "doorbell"}, tmp_path)
    assert picture is not None and picture.size == (4, 4) and picture.mode == "RGBA"
    assert icon_image({"kind": "asset", "name": "garage"}, tmp_path) is not None
    assert stored_names(tmp_path / "nowhere") == []


def test_what_cannot_be_shown_draws_no_icon(tmp_path: Path) -> None:
    store(tmp_path, "huge", size=(200, 200))
    (icons_dir(tmp_path) / "broken.png").write_bytes(b"\x89PNG not really")
    os.mkfifo(icons_dir(tmp_path) / "pipe.png")
    for spec in ({"kind": "asset", "name": "missing"}, {"kind": "asset", "name": "huge"},
                 {"kind": "asset", "name": "broken"}, {"kind": "asset", "name": "pipe"},
                 {"kind": "asset", "name": "../../etc/passwd"}, {"kind": "builtin", "name": "x"},
                 {"kind": "pixels", "width": 2, "height": 2, "pixels": [None]},
                 {"kind": "pixels", "width": 99, "height": 1, "pixels": [None] * 99},
                 "bell", None, {"kind": "other"}):
        assert icon_image(spec, tmp_path) is None, spec
