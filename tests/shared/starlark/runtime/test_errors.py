"""Every failure is one AppError line naming what is wrong and where, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.starlark.runtime import AppError, NothingToShow, load_app, run_app
from tests.shared.starlark.runtime.app_builder import write_app

ROOT_TEXT = 'load("render.star", "render")\n'


def _error(tmp_path: Path, source: str, **files: str) -> str:
    app = load_app(write_app(tmp_path, source, dict(files)))
    with pytest.raises(AppError) as caught:
        run_app(app, {})
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_a_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    message = _error(tmp_path, "def main(config):\n    return render.Root(\n\nx = = 1\n")
    assert message.startswith("app.star:4:")
    assert "Parse error" in message


def test_a_missing_module_is_named(tmp_path: Path) -> None:
    message = _error(tmp_path, 'load("nope.star", "x")\ndef main(config):\n    return x\n')
    assert message == 'app.star:1: app loads "nope.star", which is not available'


def test_an_app_without_main_is_told_so(tmp_path: Path) -> None:
    assert _error(tmp_path, "x = 1\n") == "app.star: the app has no function main"


def test_main_returning_something_else_than_a_root(tmp_path: Path) -> None:
    message = _error(tmp_path, ROOT_TEXT + "def main(config):\n    return 'hello'\n")
    assert message == "app.star: main returned a string, not a render.Root"


def test_a_widget_argument_error_keeps_the_widgets_words(tmp_path: Path) -> None:
    source = ROOT_TEXT + ("def main(config):\n"
                          "    return render.Root(child = render.Text('a', font = 'nope'))\n")
    message = _error(tmp_path, source)
    assert message.startswith("app.star:3: Text: font")
    assert "nope" in message


def test_a_runtime_error_in_a_helper_names_the_apps_call(tmp_path: Path) -> None:
    # The interpreter reports a failure inside a loaded file at the loading file's call.
    source = 'load("util.star", "f")\ndef main(config):\n    return f()\n'
    message = _error(tmp_path, source, **{"util.star": "def f():\n    return {}['k']\n"})
    assert message.startswith("app.star:3:")
    assert "not found" in message


def test_a_widget_the_runtime_lacks_is_named(tmp_path: Path) -> None:
    source = ROOT_TEXT + "def main(config):\n    return render.Root(child = render.Nope())\n"
    assert "has no attribute `Nope`" in _error(tmp_path, source)


def test_an_empty_list_from_main_is_a_skipped_turn(tmp_path: Path) -> None:
    app = load_app(write_app(tmp_path, "def main(config):\n    return []\n"))
    with pytest.raises(NothingToShow, match="main returned nothing to show"):
        run_app(app, {})
