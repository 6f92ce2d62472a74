"""Limits: a runaway app stops at its time budget, deep recursion and huge files are refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from shared.starlark.runtime import AppError, Limits, load_app, run_app
from tests.shared.starlark.runtime.app_builder import main_value, write_app

RUNAWAY = "def main(config):\n    n = 0\n    for i in range(1000000000):\n        n += i\n"


def test_a_runaway_loop_stops_at_the_budget(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(AppError) as caught:
        main_value(tmp_path, RUNAWAY, limits=Limits(seconds=0.3))
    assert str(caught.value) == "app took longer than 0.3 s to render"
    assert time.monotonic() - started < 1.5


def test_the_default_budget_is_one_second(tmp_path: Path) -> None:
    with pytest.raises(AppError, match=r"^app took longer than 1 s to render$"):
        main_value(tmp_path, RUNAWAY)


def test_a_runaway_loop_at_top_level_of_a_helper_stops_too(tmp_path: Path) -> None:
    helper = "n = 0\nfor i in range(1000000000):\n    n += i\n"
    source = 'load("slow.star", "n")\ndef main(config):\n    return n\n'
    with pytest.raises(AppError, match="longer than 0.2 s"):
        main_value(tmp_path, source, files={"slow.star": helper}, limits=Limits(seconds=0.2))


def test_a_runaway_loop_in_a_helper_function_stops_too(tmp_path: Path) -> None:
    helper = "def spin():\n    n = 0\n    for i in range(1000000000):\n        n += i\n"
    source = 'load("slow.star", "spin")\ndef main(config):\n    return spin()\n'
    with pytest.raises(AppError, match="longer than 0.2 s"):
        main_value(tmp_path, source, files={"slow.star": helper}, limits=Limits(seconds=0.2))


def test_runaway_recursion_is_refused_by_depth(tmp_path: Path) -> None:
    source = "def f(n):\n    return f(n + 1)\n\ndef main(config):\n    return f(0)\n"
    with pytest.raises(AppError) as caught:
        main_value(tmp_path, source, limits=Limits(max_callstack=50))
    assert "nested deeper than 50" in str(caught.value)


def test_recursion_within_the_depth_works(tmp_path: Path) -> None:
    source = ("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n\n"
              "def main(config):\n    return f(30)\n")
    assert main_value(tmp_path, source) == 30


def test_an_asset_over_the_limit_is_refused(tmp_path: Path) -> None:
    source = 'load("big.png", big = "file")\ndef main(config):\n    return 1\n'
    files: dict[str, bytes | str] = {"big.png": b"\0" * (5 * 1024 * 1024 + 1)}
    with pytest.raises(AppError) as caught:
        main_value(tmp_path, source, files=files)
    assert 'asset "big.png" is larger than 5120 KB' in str(caught.value)


def test_an_asset_at_the_limit_loads(tmp_path: Path) -> None:
    source = ('load("ok.bin", ok = "file")\n'
              'def main(config):\n    return ok.path\n')
    files: dict[str, bytes | str] = {"ok.bin": b"\xff" * 1024}
    assert main_value(tmp_path, source, files=files, limits=Limits(max_asset_bytes=1024)) \
        == "ok.bin"


def test_a_source_over_one_megabyte_is_refused(tmp_path: Path) -> None:
    folder = write_app(tmp_path, "x = 1\n" + "#" * (1024 * 1024) + "\n")
    with pytest.raises(AppError, match='source "app.star" is larger than 1024 KB'):
        load_app(folder)


def test_ten_thousand_frames_are_refused_before_painting(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              "def main(config):\n"
              "    frames = [render.Box(width = 1, height = 1) for i in range(10000)]\n"
              "    return render.Root(child = render.Animation(children = frames))\n")
    app = load_app(write_app(tmp_path, source))
    with pytest.raises(AppError) as caught:
        run_app(app, {}, limits=Limits(seconds=5))
    assert str(caught.value) == "app.star: the app has 10000 frames, more than the 8000 allowed"


def test_frames_past_the_shown_cap_are_dropped_as_pixlet_drops_them(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              "def main(config):\n"
              "    frames = [render.Box(width = 1, height = 1, color = c)\n"
              "              for c in ['#f00', '#00f'] * 10]\n"
              "    return render.Root(delay = 70, max_age = 30,\n"
              "                       child = render.Animation(children = frames))\n")
    frames = run_app(load_app(write_app(tmp_path, source)), {},
                     limits=Limits(max_frames=3, refuse_frames=20))
    assert [image.getpixel((0, 0)) for image in frames.images] == [
        (255, 0, 0), (0, 0, 255), (255, 0, 0)]
    assert frames.delay_ms == 70


def test_frames_up_to_the_cap_render(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              "def main(config):\n"
              "    frames = [render.Box(width = 1, height = 1) for i in range(20)]\n"
              "    return render.Root(child = render.Animation(children = frames))\n")
    frames = run_app(load_app(write_app(tmp_path, source)), {}, limits=Limits(max_frames=20))
    assert len(frames.images) == 20
