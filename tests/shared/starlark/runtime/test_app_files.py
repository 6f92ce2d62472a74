"""load_app: the main file found, helper files and assets read only from inside the folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shared.starlark.runtime import AppError, load_app
from tests.shared.starlark.runtime.app_builder import main_value, write_app


def test_a_folder_with_one_star_file_is_an_app(tmp_path: Path) -> None:
    app = load_app(write_app(tmp_path, "def main(config):\n    return 1\n", name="clock"))
    assert (app.name, app.main_file) == ("clock", "clock.star")
    assert app.source.startswith("def main")


def test_the_file_named_after_the_folder_is_main_among_several(tmp_path: Path) -> None:
    folder = write_app(tmp_path, "def main(config):\n    return 1\n", name="clock",
                       files={"utils.star": "x = 1\n"})
    assert load_app(folder).main_file == "clock.star"


def test_a_star_file_alone_is_an_app(tmp_path: Path) -> None:
    folder = write_app(tmp_path, "def main(config):\n    return 1\n")
    assert load_app(folder / "app.star").folder == folder.resolve()


def test_a_folder_without_star_files_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AppError, match="no .star file"):
        load_app(tmp_path)


def test_helper_files_and_assets_load(tmp_path: Path) -> None:
    source = ('load("utils.star", "double")\nload("images/a.txt", a = "file")\n'
              "def main(config):\n    return [double(2), a.readall()]\n")
    files: dict[str, bytes | str] = {"utils.star": "def double(x):\n    return x * 2\n",
                                     "images/a.txt": "hello"}
    assert main_value(tmp_path, source, files=files) == [4, "hello"]


def test_a_path_climbing_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.star").write_text("x = 1\n")
    source = 'load("../secret.star", "x")\ndef main(config):\n    return x\n'
    with pytest.raises(AppError, match='"../secret.star" is outside the app folder'):
        main_value(tmp_path, source)


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.star"
    outside.write_text("x = 1\n")
    folder = write_app(tmp_path, 'load("link.star", "x")\ndef main(config):\n    return x\n')
    os.symlink(outside, folder / "link.star")
    with pytest.raises(AppError, match='"link.star" points outside the app folder'):
        main_value(tmp_path, (folder / "app.star").read_text())


def test_binary_assets_cross_as_opaque_data(tmp_path: Path) -> None:
    source = ('load("a.bin", a = "file")\n'
              "def main(config):\n    return type(a.readall())\n")
    files: dict[str, bytes | str] = {"a.bin": b"\x89PNG\xff"}
    assert main_value(tmp_path, source, files=files) == "opaque_python_object"
